/**
 * What happens once an export is known: fail on ERROR, report or refuse truncation, download the
 * file (refreshing an expired URL through one status call) and build the items. Shared by Export
 * and Download Results.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { cancelSignalOf, keepMessage, throwIfCancelled } from '../transport';
import type { Compression } from '../results/decompress';
import { exportFailedError, freshResultsUrl, type ExportStatusReport } from '../nql/exportApi';
import { downloadResults } from '../nql/resultsFile';
import { buildResultItems, storeResultsFile } from './resultItems';
import type { ResultSettings } from './settings';

/**
 * Download Results by URL knows no export ID: it takes the URL's file name as one to ask for a
 * fresh URL. When that fails (a proxy, another storage layout, an export too old), the answer to
 * the guess says nothing useful ("no export has this ID"), so the error says what happened to the
 * URL, that the ID was a guess, and how to get a fresh URL.
 */
function noFreshUrlError(
	ctx: IExecuteFunctions,
	guessedId: string,
	failure: { what: string; hint?: string },
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
				`Results URLs are valid for 15 minutes. The node took "${guessedId}" from the URL's file name as the export ID and asked Nexthink for a fresh URL, which failed: ${why}. ` +
				'Get a fresh URL with Get Status on the export ID, or use Download Results by export ID, which fetches one itself.',
			itemIndex,
		},
	);
	return keepMessage(error, message);
}

export async function outputCompletedExport(
	ctx: IExecuteFunctions,
	itemIndex: number,
	report: ExportStatusReport,
	context: {
		queryId: string | null;
		declaredCompression: Compression;
		timeoutMs: number;
		settings: ResultSettings;
		/** The export ID was guessed from a results URL's file name (Download Results by URL). */
		exportIdGuessed?: boolean;
	},
): Promise<INodeExecutionData[]> {
	const { settings } = context;
	if (report.status === 'ERROR') throw exportFailedError(ctx, report, context.queryId, itemIndex);
	if (report.status !== 'COMPLETED' || report.resultsFileUrl === null) {
		throw new NodeOperationError(ctx.getNode(), `Export ${report.exportId} has not completed yet (status ${report.status})`, {
			itemIndex,
			description: 'Wait until Get Status reports COMPLETED before downloading the results.',
		});
	}
	if (report.truncated && settings.failOnTruncated) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Export ${report.exportId} was truncated: Nexthink cut the results at the licence's maximum number of results (HTTP 206)`,
			{ itemIndex, description: 'Narrow the query (fewer rows) or set "Truncated Results" to "Output Rows and Report".' },
		);
	}
	const freshUrl = async () => await freshResultsUrl(ctx, report.exportId, context.queryId, { timeoutMs: context.timeoutMs, itemIndex });
	const refreshUrl = async (failure: string, hint?: string) => {
		if (context.exportIdGuessed !== true) return await freshUrl();
		try {
			return await freshUrl();
		} catch (error) {
			throwIfCancelled(ctx, cancelSignalOf(ctx), itemIndex);
			throw noFreshUrlError(ctx, report.exportId, { what: failure, hint }, error, itemIndex);
		}
	};
	const results = await downloadResults(ctx, report.resultsFileUrl, refreshUrl, {
		declaredCompression: context.declaredCompression,
		parseRows: settings.output !== 'file',
		keepFile: settings.output !== 'rows',
		convertTypes: settings.convertTypes,
		maxRows: settings.maxRows,
		timeoutMs: context.timeoutMs,
		itemIndex,
		limits: settings.limits,
		storeFile: async (data, compression) => await storeResultsFile(ctx, report.exportId, data, compression),
	});
	if (report.truncated) {
		ctx.addExecutionHints?.({
			message: `Export ${report.exportId} was truncated by Nexthink at the licence's maximum number of results: ${results.rows.length} rows were output.`,
			location: 'outputPane',
		});
	}
	return await buildResultItems(
		ctx,
		itemIndex,
		results,
		{
			exportId: report.exportId,
			queryId: context.queryId,
			rowCount: settings.output === 'file' ? null : results.rows.length,
			truncated: report.truncated,
			moreRowsAvailable: results.moreRowsAvailable,
		},
		settings,
	);
}
