/**
 * Get Status: one status call. Every state the API reports is output as data (ERROR and HTTP 400
 * included) so a Wait-node loop can branch on it; 401/403/404/429 are errors.
 */
import { updateDisplayOptions } from 'n8n-workflow';

import { getExportStatus } from '../../nql/exportApi';
import { readExportId, readTimeoutMs } from '../settings';
import { queryIdOfExport } from '../resultItems';
import { itemOperation } from '../../shared/runItems';
import { OPTIONS_COLLECTION } from '../../shared/optionFields';
import { exportIdField, OPTION } from '../description';

export const description = updateDisplayOptions({ show: { '/operation': ['getStatus'] } }, [
	exportIdField,
	{ ...OPTIONS_COLLECTION, options: [OPTION.requestTimeoutSeconds] },
]);

/** A single call still rides out a short 429 or 5xx, but never waits longer than this. */
const STATUS_CALL_BUDGET_MS = 60_000;

export const executeGetStatus = itemOperation({
	prepare(itemIndex) {
		return { exportId: readExportId(this, itemIndex), timeoutMs: readTimeoutMs(this, itemIndex) };
	},
	async run(itemIndex, { exportId, timeoutMs }) {
		const report = await getExportStatus(this, exportId, { deadline: Date.now() + STATUS_CALL_BUDGET_MS, timeoutMs, itemIndex });
		// passes the query ID on from the input item (Start Export's output), for Download Results' metadata
		return [{ json: { ...report, queryId: queryIdOfExport(this, itemIndex, exportId) }, pairedItem: { item: itemIndex } }];
	},
});
