/**
 * What the Export node makes of a completed export (Export, Download Results): the options of the NQL
 * pipeline (nql/followExport.ts) from the operation's settings, and the items of its rows or file.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { keepMessage } from '../transport';
import type { Compression } from '../results/decompress';
import type { ExportStatusReport } from '../nql/exportApi';
import { downloadCompletedExport, type CompletedExportOptions } from '../nql/followExport';
import type { DownloadedResults } from '../nql/resultsFile';
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

export interface CompletedExportContext {
	queryId: string | null;
	declaredCompression: Compression;
	timeoutMs: number;
	settings: ResultSettings;
	/** The export ID was guessed from a results URL's file name (Download Results by URL). */
	exportIdGuessed?: boolean;
}

/** The NQL pipeline's options (nql/followExport.ts) for one item of the Export node. */
export function completedExportOptions(ctx: IExecuteFunctions, itemIndex: number, context: CompletedExportContext): CompletedExportOptions {
	const { settings } = context;
	return {
		queryId: context.queryId,
		declaredCompression: context.declaredCompression,
		parseRows: settings.output !== 'file',
		keepFile: settings.output !== 'rows',
		convertTypes: settings.convertTypes,
		maxRows: settings.maxRows,
		timeoutMs: context.timeoutMs,
		itemIndex,
		limits: settings.limits,
		storeFile: async (exportId, data, compression) => await storeResultsFile(ctx, exportId, data, compression),
		...(settings.failOnTruncated ? { truncatedHint: 'Narrow the query (fewer rows) or set "Truncated Results" to "Output Rows and Report".' } : {}),
		...(context.exportIdGuessed === true ? { noFreshUrl: (failure, cause) => noFreshUrlError(ctx, failure, cause, itemIndex) } : {}),
	};
}

/** Download Results: the rows or file of an export known by its status (or a results URL). */
export async function outputCompletedExport(
	ctx: IExecuteFunctions,
	itemIndex: number,
	report: ExportStatusReport,
	context: CompletedExportContext,
): Promise<INodeExecutionData[]> {
	const results = await downloadCompletedExport(ctx, report, completedExportOptions(ctx, itemIndex, context));
	return await completedExportItems(ctx, itemIndex, report, results, context);
}

/** The items of a completed export's rows or file, with a hint when Nexthink truncated it. */
export async function completedExportItems(
	ctx: IExecuteFunctions,
	itemIndex: number,
	report: ExportStatusReport,
	results: DownloadedResults,
	{ queryId, settings }: CompletedExportContext,
): Promise<INodeExecutionData[]> {
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
			queryId,
			rowCount: settings.output === 'file' ? null : results.rows.length,
			truncated: report.truncated,
			moreRowsAvailable: results.moreRowsAvailable,
		},
		settings,
	);
}
