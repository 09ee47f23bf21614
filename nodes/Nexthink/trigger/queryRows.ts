/**
 * One poll's rows: the stored query run through an export (start, wait, download and parse the
 * file) or through Execute Query, with the Export node's own steps (export/shared/). Every failure
 * is an error, never a shorter result: a missing row would be reported as removed. So a truncated
 * export (the licence's result limit) and an Execute Query answer of 1,000 rows (where Nexthink drops
 * the rest silently) fail the poll too.
 */
import { NodeOperationError } from 'n8n-workflow';

import { exportFailedError, freshResultsUrl } from '../export/shared/completedExport';
import { startExport } from '../export/shared/exportApi';
import { executeStoredQuery } from '../export/shared/executeQuery';
import { downloadResults } from '../export/shared/resultsFile';
import { waitForExport } from '../export/shared/waitForExport';
import { DEFAULT_RESULT_LIMITS } from '../results/limits';
import { DEFAULT_MAX_ANSWER_BYTES, EXECUTE_ROW_LIMIT } from '../shared/executeAnswer';
import type { NexthinkContext } from '../transport';
import type { Row } from './changeDetection';
import type { TriggerSettings } from './triggerSettings';

export interface QueryRows {
	/** The result's column names (for an empty Execute Query answer: none). */
	header: string[];
	rows: Row[];
}

const KEPT_STATE = 'The trigger keeps the state of its last good poll, so the next poll that succeeds reports every change since then.';

/** Every row of the query, or at most `sampleRows` of them (Fetch Test Event). */
export async function fetchQueryRows(ctx: NexthinkContext, settings: TriggerSettings, sampleRows?: number): Promise<QueryRows> {
	return settings.method === 'execute' ? await executeRows(ctx, settings, sampleRows) : await exportRows(ctx, settings, sampleRows);
}

async function exportRows(ctx: NexthinkContext, settings: TriggerSettings, sampleRows: number | undefined): Promise<QueryRows> {
	const { queryId, parameters, timeoutMs } = settings;
	const itemIndex = 0;
	const exportId = await startExport(ctx, { queryId, parameters, compression: 'GZIP', method: 'POST', logTag: settings.logTag, timeoutMs, itemIndex });
	const outcome = await waitForExport(ctx, exportId, settings.wait, { timeoutMs, itemIndex });
	const { report } = outcome;
	if (outcome.timedOut) {
		const unanswered = outcome.lastCallUnanswered ? '; the last status call got no answer in time' : '';
		const seconds = settings.wait.maxWaitMs / 1000;
		throw new NodeOperationError(
			ctx.getNode(),
			`Export ${exportId} of ${queryId} did not complete within ${seconds} second${seconds === 1 ? '' : 's'} (last status ${report.status}${unanswered})`,
			{ description: `Raise "Maximum Wait" in the trigger's options (keep it below the time between polls). ${KEPT_STATE}` },
		);
	}
	if (report.status === 'ERROR' || report.resultsFileUrl === null) throw exportFailedError(ctx, report, queryId, itemIndex);
	if (report.truncated) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Export ${exportId} of ${queryId} was truncated: Nexthink cut the results at the licence's maximum number of results (HTTP 206)`,
			{ description: `The rows left out would look removed, so the poll compares nothing. Narrow the query (fewer rows). ${KEPT_STATE}` },
		);
	}
	const refreshUrl = async () => await freshResultsUrl(ctx, exportId, queryId, { timeoutMs, itemIndex });
	const results = await downloadResults(ctx, report.resultsFileUrl, refreshUrl, {
		declaredCompression: 'GZIP',
		parseRows: true,
		keepFile: false,
		convertTypes: false,
		maxRows: sampleRows ?? 0,
		timeoutMs,
		itemIndex,
		limits: DEFAULT_RESULT_LIMITS,
	});
	return { header: results.header, rows: results.rows };
}

async function executeRows(ctx: NexthinkContext, settings: TriggerSettings, sampleRows: number | undefined): Promise<QueryRows> {
	const { queryId, parameters } = settings;
	const { result } = await executeStoredQuery(
		ctx,
		{ queryId, parameters },
		{
			apiVersion: 'v2',
			asCsv: false,
			convertTypes: false,
			// times in UTC: the same instant always reads the same, whatever the instance's time zone does
			utcTimestamps: true,
			timeoutMs: settings.timeoutMs,
			limits: DEFAULT_RESULT_LIMITS,
			maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES,
		},
		0,
	);
	if (sampleRows !== undefined) return { header: columnsOf(result.rows), rows: result.rows.slice(0, sampleRows) };
	if (result.rows.length >= EXECUTE_ROW_LIMIT) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${queryId} returned ${result.rows.length} rows, the most Execute Query returns: the result may be incomplete, so the poll compares nothing`,
			{ description: `Rows Nexthink left out would look removed. Set "Run Query Through" to Export, which has no such limit. ${KEPT_STATE}` },
		);
	}
	return { header: columnsOf(result.rows), rows: result.rows };
}

/** The columns of an execute answer: every key of its rows, in first-seen order. */
function columnsOf(rows: Row[]): string[] {
	const columns = new Set<string>();
	for (const row of rows) for (const column of Object.keys(row)) columns.add(column);
	return [...columns];
}
