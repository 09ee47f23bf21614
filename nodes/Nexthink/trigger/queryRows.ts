/**
 * One poll's answer: the stored query run through an export (nql/followExport.ts) or Execute Query
 * v1 (nql/executeApi.ts; v1 lists the columns even without rows). Every failure is an error, never
 * a shorter result (a missing row would read as removed): a truncated export and an Execute Query
 * answer of 1,000 rows fail the poll too. docs/decisions.md, "Execute Query settings of the trigger".
 */
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_EXECUTE_SETTINGS, executeStoredQuery } from '../nql/executeApi';
import { followExport } from '../nql/followExport';
import { DEFAULT_RESULT_LIMITS } from '../results/limits';
import { EXECUTE_ROW_LIMIT } from '../nql/executeAnswer';
import type { NexthinkContext } from '../transport';
import type { QueryAnswer } from './resultCheck';
import type { TriggerSettings } from './triggerSettings';

/** Said by every failed poll: what happens to the state. */
export const KEPT_STATE = 'The trigger keeps the state of its last good poll, so the next poll that succeeds reports every change since then.';

/** Every row of the query, or at most `sampleRows` of them (Fetch Test Event). */
export async function fetchQueryRows(ctx: NexthinkContext, settings: TriggerSettings, sampleRows?: number): Promise<QueryAnswer> {
	return settings.method === 'execute' ? await executeRows(ctx, settings, sampleRows) : await exportRows(ctx, settings, sampleRows);
}

async function exportRows(ctx: NexthinkContext, settings: TriggerSettings, sampleRows: number | undefined): Promise<QueryAnswer> {
	const { queryId, parameters, timeoutMs } = settings;
	const { report, results } = await followExport(
		ctx,
		{
			start: { queryId, parameters, compression: 'GZIP', method: 'POST', logTag: settings.logTag },
			wait: settings.wait,
			timedOutHint: `Raise "Maximum Wait" in the trigger's options (keep it below the time between polls). ${KEPT_STATE}`,
		},
		{
			parseRows: true,
			keepFile: false,
			convertTypes: false,
			maxRows: sampleRows ?? 0,
			timeoutMs,
			itemIndex: 0,
			limits: DEFAULT_RESULT_LIMITS,
			truncatedHint: `The rows left out would look removed, so the poll compares nothing. Narrow the query (fewer rows). ${KEPT_STATE}`,
		},
	);
	return { columns: results.header, rows: results.rows, source: `the results file of export ${report.exportId}` };
}

async function executeRows(ctx: NexthinkContext, settings: TriggerSettings, sampleRows: number | undefined): Promise<QueryAnswer> {
	const { queryId, parameters } = settings;
	const { result } = await executeStoredQuery(
		ctx,
		{ queryId, parameters },
		// times in UTC: the same instant always reads the same, whatever the instance's time zone does
		{ ...DEFAULT_EXECUTE_SETTINGS, apiVersion: 'v1', utcTimestamps: true, timeoutMs: settings.timeoutMs },
		0,
	);
	const answer = { columns: result.columns ?? [], source: `the Execute Query answer for ${queryId}` };
	if (sampleRows !== undefined) return { ...answer, rows: result.rows.slice(0, sampleRows) };
	if (result.rows.length >= EXECUTE_ROW_LIMIT) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${queryId} returned ${result.rows.length} rows, the most Execute Query returns: the result may be incomplete, so the poll compares nothing`,
			{ description: `Rows Nexthink left out would look removed. Set "Run Query Through" to Export, which has no such limit. ${KEPT_STATE}` },
		);
	}
	return { ...answer, rows: result.rows };
}
