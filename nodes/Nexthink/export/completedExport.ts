/**
 * What the Export node makes of a completed export (Export, Download Results): the options of the NQL
 * pipeline (nql/followExport.ts) from the operation's settings, and the items of its rows or file.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ExportStatusReport } from '../nql/exportApi';
import { downloadCompletedExport, type CompletedExportOptions } from '../nql/followExport';
import { buildResultItems, storeResultsFile } from './resultItems';
import type { ResultSettings } from './settings';

/** What an Export node item knows of an export besides its status: the query, the settings, the Request Timeout. */
export type CompletedExportContext = Pick<CompletedExportOptions, 'queryId' | 'declaredCompression' | 'timeoutMs' | 'exportIdGuessed'> & { settings: ResultSettings };

/** The NQL pipeline's options (nql/followExport.ts) for one item of the Export node. */
export function completedExportOptions(ctx: IExecuteFunctions, itemIndex: number, { settings, ...context }: CompletedExportContext): CompletedExportOptions {
	return {
		...context,
		parseRows: settings.output !== 'file',
		keepFile: settings.output !== 'rows',
		convertTypes: settings.convertTypes,
		maxRows: settings.maxRows,
		itemIndex,
		limits: settings.limits,
		fileStore: (exportId) => async (data, compression) => await storeResultsFile(ctx, exportId, data, compression),
		...(settings.failOnTruncated ? { truncatedHint: 'Narrow the query (fewer rows) or set "Truncated Results" to "Output Rows and Report".' } : {}),
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
	return await buildResultItems(ctx, itemIndex, report, results, context);
}
