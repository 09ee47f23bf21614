/** The editor's "From List" of Query ID: the queries of the node's Query Catalogue (shared/queryCatalogue.ts). */
import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { catalogueListEntries } from '../shared/queryCatalogue';

export async function searchQueryCatalogue(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return { results: catalogueListEntries(this.getCurrentNodeParameter('queryCatalogue.query'), filter) };
}
