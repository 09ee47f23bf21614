/**
 * Polls an export until it completes, fails or the maximum wait is reached; the start is never part
 * of this loop. Maximum Wait is a hard bound (docs/decisions.md, "Maximum Wait is a hard bound").
 */
import { cancelSignalOf, isNoAnswerError, sleepUnlessCancelled, type NexthinkContext } from '../transport';
import { exportReport, getExportStatus, type ExportStatusReport } from './exportApi';
import { MIN_POLL_GAP_MS, nextWaitMs, type WaitSettings } from './waitSchedule';
import { nodeErrorOf } from '../shared/nodeErrors';

export interface WaitOutcome {
	report: ExportStatusReport;
	timedOut: boolean;
	/** True when the wait ran out during a status call that got no answer in the time left. */
	lastCallUnanswered: boolean;
}

/** The message of an export that outlived Maximum Wait, for the Export node and the Trigger. */
export function exportTimedOutMessage(outcome: WaitOutcome, queryId: string, maxWaitMs: number): string {
	const unanswered = outcome.lastCallUnanswered ? '; the last status call got no answer before the maximum wait ran out' : '';
	return `Export ${outcome.report.exportId} of ${queryId} did not complete within ${waitDuration(maxWaitMs)} (last status ${outcome.report.status}${unanswered})`;
}

/** "30 minutes", "1 minute", "90 seconds": whole minutes from 2 minutes on, else seconds. */
function waitDuration(ms: number): string {
	const minutes = ms / 60_000;
	if (Number.isInteger(minutes) && minutes >= 2) return `${minutes} minutes`;
	if (minutes === 1) return '1 minute';
	const seconds = ms / 1000;
	return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

export async function waitForExport(
	ctx: NexthinkContext,
	exportId: string,
	settings: WaitSettings,
	options: { timeoutMs: number; itemIndex: number },
): Promise<WaitOutcome> {
	const signal = cancelSignalOf(ctx);
	const deadline = Date.now() + settings.maxWaitMs;
	let report = exportReport(exportId, 'SUBMITTED');
	for (let poll = 0; ; poll++) {
		const waitMs = nextWaitMs(poll, Date.now(), deadline, settings);
		if (waitMs === undefined) return { report, timedOut: true, lastCallUnanswered: false };
		await sleepUnlessCancelled(ctx, waitMs, signal, options.itemIndex);
		try {
			report = await getExportStatus(ctx, exportId, { deadline, timeoutMs: options.timeoutMs, itemIndex: options.itemIndex });
		} catch (error) {
			// with less than the gap between two calls left, no further poll could come anyway
			if (isNoAnswerError(error) && deadline - Date.now() < MIN_POLL_GAP_MS) {
				return { report, timedOut: true, lastCallUnanswered: true };
			}
			throw nodeErrorOf(ctx.getNode(), error, options.itemIndex);
		}
		if (report.status === 'COMPLETED' || report.status === 'ERROR') {
			return { report, timedOut: false, lastCallUnanswered: false };
		}
	}
}
