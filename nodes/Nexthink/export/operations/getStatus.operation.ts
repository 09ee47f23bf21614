/**
 * Get Status: one status call. Every state the API reports is output as data (ERROR and HTTP 400
 * included) so a Wait-node loop can branch on it; 401/403/404/429 are errors.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getExportStatus } from '../../nql/exportApi';
import { readExportId, readTimeoutMs } from '../settings';
import { queryIdOfExport, statusJson } from '../resultItems';
import type { ItemOperation } from '../../shared/runItems';
import { OPTIONS_COLLECTION } from '../../shared/optionFields';
import { exportIdField, OPTION } from '../description';

const properties: INodeProperties[] = [
	exportIdField,
	{ ...OPTIONS_COLLECTION, options: [OPTION.requestTimeoutSeconds] },
];

export const description = updateDisplayOptions({ show: { '/operation': ['getStatus'] } }, properties);

/** A single call still rides out a short 429 or 5xx, but never waits longer than this. */
const STATUS_CALL_BUDGET_MS = 60_000;

function prepareGetStatus(this: IExecuteFunctions, itemIndex: number) {
	return { exportId: readExportId(this, itemIndex), timeoutMs: readTimeoutMs(this, itemIndex) };
}

async function runGetStatus(
	this: IExecuteFunctions,
	itemIndex: number,
	{ exportId, timeoutMs }: ReturnType<typeof prepareGetStatus>,
): Promise<INodeExecutionData[]> {
	const report = await getExportStatus(this, exportId, { deadline: Date.now() + STATUS_CALL_BUDGET_MS, timeoutMs, itemIndex });
	// passes the query ID on from the input item (Start Export's output), for Download Results' metadata
	return [{ json: { ...statusJson(report), queryId: queryIdOfExport(this, itemIndex, exportId) }, pairedItem: { item: itemIndex } }];
}

export const executeGetStatus: ItemOperation<ReturnType<typeof prepareGetStatus>> = { prepare: prepareGetStatus, run: runGetStatus };
