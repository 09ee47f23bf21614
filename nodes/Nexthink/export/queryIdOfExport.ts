/**
 * The query ID of an export known only by its ID. Nexthink's status answer names the export, its state
 * and its file, never the query, and a results file URL does not name it either. So the query is known
 * only from the input item: Start Export outputs `{ exportId, queryId }`, and Get Status passes the
 * query ID on, so the item of the Start Export → Wait → Get Status → Download Results loop carries it.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { QUERY_ID_PATTERN } from '../nql/queryInput';

/** Said in the metadata when the query ID is null, so a user knows why and how to get it. */
export const QUERY_ID_UNKNOWN_NOTE =
	"Not known: Nexthink's export status and results file do not name the query. It is filled when the input item carries the same exportId with its queryId, as Start Export and Get Status output.";

/** The input item's `queryId` when the item carries this very export ID and a valid query ID; else null. */
export function queryIdOfExport(ctx: IExecuteFunctions, itemIndex: number, exportId: string): string | null {
	const json = ctx.getInputData()[itemIndex]?.json;
	if (json === undefined || typeof json.exportId !== 'string' || json.exportId.trim() !== exportId) return null;
	return typeof json.queryId === 'string' && QUERY_ID_PATTERN.test(json.queryId) ? json.queryId : null;
}
