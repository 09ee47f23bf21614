import type { IExecuteFunctions, ILoadOptionsFunctions, INodeExecutionData, INodeListSearchResult, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { operationProperty, toolNotice } from './description';
import { description as downloadResultsFields, executeDownloadResults } from './operations/downloadResults.operation';
import { description as executeQueryFields, executeExecuteQuery } from './operations/executeQuery.operation';
import { description as exportFields, executeExport } from './operations/export.operation';
import { description as getStatusFields, executeGetStatus } from './operations/getStatus.operation';
import { description as startExportFields, executeStartExport } from './operations/startExport.operation';
import { catalogueListEntries } from '../shared/queryCatalogue';
import { runOperation } from '../shared/runItems';
import { exportToolDescriptionProperties } from '../shared/toolDescriptions';

const OPERATIONS = {
	export: executeExport,
	startExport: executeStartExport,
	getStatus: executeGetStatus,
	downloadResults: executeDownloadResults,
	executeQuery: executeExecuteQuery,
};

export class NexthinkExport implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Nexthink Export',
		name: 'nexthinkExport',
		icon: { light: 'file:../icons/nexthink.svg', dark: 'file:../icons/nexthink.dark.svg' },
		group: ['input'],
		version: 1,
		// Query ID is a resource locator ({ value }) or, in a workflow written by hand, a plain string
		subtitle: '={{ $parameter["operation"] + (($parameter["queryId"]?.value ?? $parameter["queryId"]) ? ": " + ($parameter["queryId"]?.value ?? $parameter["queryId"]) : "") }}',
		description:
			'Run a stored Nexthink NQL query and get its results as items: export (start, wait, download) or execute synchronously',
		defaults: { name: 'Nexthink Export' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'nexthinkApi', required: true }],
		properties: [
			toolNotice,
			operationProperty,
			...exportToolDescriptionProperties,
			...exportFields,
			...startExportFields,
			...getStatusFields,
			...downloadResultsFields,
			...executeQueryFields,
		],
	};

	methods = {
		listSearch: {
			/** The editor's "From List" of Query ID: the queries of the node's Query Catalogue. */
			async searchQueryCatalogue(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
				return { results: catalogueListEntries(this.getCurrentNodeParameter('queryCatalogue.query'), filter) };
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as keyof typeof OPERATIONS;
		return await runOperation(this, OPERATIONS[operation], this.continueOnFail());
	}
}
