/**
 * Follows an export from its start to its rows or file, for the Export node and the Trigger: start,
 * wait, then the file, whose expired or broken URL is refreshed through one status call within the
 * Request Timeout. What differs between callers is in the options (docs/decisions.md, "One NQL pipeline").
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { cancelSignalOf, keepMessage, throwIfCancelled, type NexthinkContext } from '../transport';
import { exportFailedError, exportReport, getExportStatus, startExport, type ExportStatusReport, type StartExportInput } from './exportApi';
import { downloadResults, type DownloadedResults, type DownloadOptions } from './resultsFile';
import { pollOnSchedule, type WaitSettings } from './waitSchedule';

export interface CompletedExportOptions extends Omit<DownloadOptions, 'storeFile'> {
	queryId: string | null;
	/** DownloadOptions' storeFile for the export of this ID (it names the file). */
	fileStore?: (exportId: string) => DownloadOptions['storeFile'];
	/** A truncated export fails with this description; without it, its rows are output and the caller says so. */
	truncatedHint?: string;
	/** The export ID was guessed from a results URL's file name (Download Results by URL). */
	exportIdGuessed?: boolean;
}

export interface ExportRun {
	start: Omit<StartExportInput, 'timeoutMs' | 'itemIndex'>;
	wait: WaitSettings;
	/** A wait past Maximum Wait fails with this description; without it, the last status is returned. */
	timedOutHint?: string;
}

export type FollowedExport = { timedOut: false; report: ExportStatusReport; results: DownloadedResults } | { timedOut: true; report: ExportStatusReport };

/** `options`: the download's; the query and the compression the file is declared with are the start's. */
type FollowOptions = Omit<CompletedExportOptions, 'queryId' | 'declaredCompression'>;

export async function followExport(ctx: NexthinkContext, run: ExportRun & { timedOutHint: string }, options: FollowOptions): Promise<Extract<FollowedExport, { timedOut: false }>>;
export async function followExport(ctx: NexthinkContext, run: ExportRun, options: FollowOptions): Promise<FollowedExport>;
export async function followExport(ctx: NexthinkContext, run: ExportRun, options: FollowOptions): Promise<FollowedExport> {
	const { queryId, compression } = run.start;
	const { timeoutMs, itemIndex } = options;
	const exportId = await startExport(ctx, { ...run.start, timeoutMs, itemIndex });
	// the wait (never the start) polls until the export completes or fails
	let report = exportReport(exportId, 'SUBMITTED');
	const poll = async (deadline: number) => {
		report = await getExportStatus(ctx, exportId, { deadline, timeoutMs, itemIndex });
		return report.status === 'COMPLETED' || report.status === 'ERROR';
	};
	const wait = await pollOnSchedule(ctx, run.wait, poll, itemIndex);
	if (!wait.timedOut) {
		const results = await downloadCompletedExport(ctx, report, { ...options, queryId, declaredCompression: compression });
		return { timedOut: false, report, results };
	}
	if (run.timedOutHint === undefined) return { timedOut: true, report };
	const unanswered = wait.lastCallUnanswered ? '; the last status call got no answer before the maximum wait ran out' : '';
	const message = `Export ${exportId} of ${queryId} did not complete within ${waitDuration(run.wait.maxWaitMs)} (last status ${report.status}${unanswered})`;
	throw new NodeOperationError(ctx.getNode(), message, { itemIndex, description: run.timedOutHint });
}

/** "30 minutes", "1 minute", "90 seconds": whole minutes from 2 minutes on, else seconds. */
function waitDuration(ms: number): string {
	const minutes = ms / 60_000;
	if (Number.isInteger(minutes) && minutes >= 2) return `${minutes} minutes`;
	if (minutes === 1) return '1 minute';
	const seconds = ms / 1000;
	return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** The rows or file of an export known to be done: fails on ERROR, on a status short of COMPLETED, and on a truncation the caller refuses. */
export async function downloadCompletedExport(ctx: NexthinkContext, report: ExportStatusReport, options: CompletedExportOptions): Promise<DownloadedResults> {
	const { queryId, timeoutMs, itemIndex } = options;
	if (report.status === 'ERROR') throw exportFailedError(ctx, report, queryId, itemIndex);
	if (report.status !== 'COMPLETED' || report.resultsFileUrl === null) {
		throw new NodeOperationError(ctx.getNode(), `Export ${report.exportId} has not completed yet (status ${report.status})`, {
			itemIndex,
			description: 'Wait until Get Status reports COMPLETED before downloading the results.',
		});
	}
	if (report.truncated && options.truncatedHint !== undefined) {
		const of = queryId === null ? '' : ` of ${queryId}`;
		throw new NodeOperationError(
			ctx.getNode(),
			`Export ${report.exportId}${of} was truncated: Nexthink cut the results at the licence's maximum number of results (HTTP 206)`,
			{ itemIndex, description: options.truncatedHint },
		);
	}
	const freshUrl = async () => {
		// the deadline keeps the status call's retries within the Request Timeout (the Trigger's lockDurationMs counts on it)
		const fresh = await getExportStatus(ctx, report.exportId, { timeoutMs, itemIndex, deadline: Date.now() + timeoutMs });
		// an export that now has no URL failed
		if (fresh.resultsFileUrl === null) throw exportFailedError(ctx, fresh, queryId, itemIndex);
		return fresh.resultsFileUrl;
	};
	const refreshUrl = async (what: string, hint?: string) => {
		if (options.exportIdGuessed !== true) return await freshUrl();
		try {
			return await freshUrl();
		} catch (error) {
			throwIfCancelled(ctx, cancelSignalOf(ctx), itemIndex);
			throw noFreshUrlError(ctx, { exportId: report.exportId, what, hint }, error, itemIndex);
		}
	};
	return await downloadResults(ctx, report.resultsFileUrl, refreshUrl, { ...options, storeFile: options.fileStore?.(report.exportId) });
}

/**
 * Download Results by URL asked a fresh URL for the export ID it guessed from the file name, and
 * failed: the error says what happened to the URL (`what`, `hint`), that the ID was a guess, and how
 * to get a fresh URL (docs/decisions.md, "Download of a results URL given by the user").
 */
function noFreshUrlError(
	ctx: NexthinkContext,
	failure: { exportId: string; what: string; hint?: string },
	cause: unknown,
	itemIndex: number,
): NodeApiError {
	const why = cause instanceof Error ? cause.message : String(cause);
	const message = `The results file URL ${failure.what}, and no fresh URL could be had for it`;
	const error = new NodeApiError(
		ctx.getNode(),
		{ message: `The results file URL ${failure.what}` },
		{
			message,
			description:
				(failure.hint !== undefined ? `${failure.hint} ` : '') +
				`Results URLs are valid for 15 minutes. The node took "${failure.exportId}" from the URL's file name as the export ID and asked Nexthink for a fresh URL, which failed: ${why}. ` +
				'Get a fresh URL with Get Status on the export ID, or use Download Results by export ID, which fetches one itself.',
			itemIndex,
		},
	);
	return keepMessage(error, message);
}
