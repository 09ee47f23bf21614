/**
 * What the Export node makes of a completed export (Export, Download Results): the NQL pipeline's
 * options (nql/followExport.ts) from the operation's settings, and the output items: one item per row
 * with keys exactly as the CSV header, optionally the file as binary data and the export metadata.
 * placeRows and finishItems are the one way rows, metadata and an agent's tool note are placed, for
 * Execute Query too; statusJson the one way an export's status is output.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { limitToolRows } from '../shared/toolOutput';
import { shapeToolRows, type ToolOutputShape } from '../shared/toolOutputShape';
import type { DownloadedResults, NodeReadable } from '../nql/resultsFile';
import type { Compression } from '../results/decompress';
import type { ExportStatusReport } from '../nql/exportApi';
import { downloadCompletedExport, type CompletedExportOptions } from '../nql/followExport';
import { QUERY_ID_PATTERN } from '../nql/queryInput';
import type { MetadataMode, ResultSettings, ToolLimits } from './settings';

const FILE_EXTENSIONS = { NONE: 'csv', GZIP: 'csv.gz', ZSTD: 'csv.zst' } as const;
const MIME_TYPES = { NONE: 'text/csv', GZIP: 'application/gzip', ZSTD: 'application/zstd' } as const;

/** Stores the results file as binary data named `<exportId>.csv[.gz|.zst]`; `data` may be a Node Readable. */
export async function storeResultsFile(
	ctx: IExecuteFunctions,
	exportId: string | null,
	data: Buffer | NodeReadable,
	compression: Compression,
): Promise<IBinaryData> {
	const fileName = `${exportId ?? 'nexthink-export'}.${FILE_EXTENSIONS[compression]}`;
	// prepareBinaryData is typed Buffer | Readable (node:stream), which nodes/ may not import
	return await ctx.helpers.prepareBinaryData(data as Buffer, fileName, MIME_TYPES[compression]);
}

/** The rows of one result, where its metadata goes, and (in an agent's tool run) what the model may get. */
export interface RowPlacement {
	rows: readonly IDataObject[];
	metadata: IDataObject;
	/** The key of the metadata on each row ("On Each Row"). */
	metadataKey: 'nexthinkExport' | 'nexthinkQuery';
	mode: MetadataMode;
	/** Set in a tool run: the output is cut to these bounds and a note says what was left out. */
	tool?: ToolLimits & {
		/** Rows of the result that are not in `rows` at all (not read, or not returned). */
		rowsAfter: number | 'unknown';
		/** True when the result may have rows beyond `rows` that nobody counted (Execute Query at Nexthink's row limit). */
		totalUnknown?: boolean;
		/** Which fields the model gets (shared/toolOutputShape.ts), applied before the bounds. */
		shape?: ToolOutputShape;
		simplifiedColumns?: readonly string[];
		what: string;
		fullResultHint: string;
		/** The metadata once rows were left out, e.g. with a corrected row count. */
		metadataWhenCut?: (metadata: IDataObject, keptRows: number) => IDataObject;
	};
}

export interface PlacedRows {
	/** The JSON of each row item, in order. */
	rows: IDataObject[];
	/** The metadata as finally placed (changed by `metadataWhenCut` when rows were left out). */
	metadata: IDataObject;
	/** The note for the model, when rows were left out. */
	toolNote?: IDataObject;
}

export function placeRows({ rows: allRows, metadata, metadataKey, mode, tool }: RowPlacement): PlacedRows {
	const onEachRow = mode === 'eachRow';
	const rows = tool?.shape !== undefined ? (shapeToolRows(allRows, tool.shape, tool.simplifiedColumns, tool.what) as IDataObject[]) : allRows;
	let kept = rows;
	let placedMetadata = metadata;
	let toolNote: IDataObject | undefined;
	if (tool !== undefined) {
		const byCount = rows.slice(0, tool.maxRows);
		const notRead = tool.rowsAfter === 'unknown' ? 'unknown' : tool.rowsAfter + rows.length - byCount.length;
		// Sizes are measured with the metadata as read; cutting can only shorten it (fewer digits in
		// a row count, moreRowsAvailable false -> true), so the output stays within the limit.
		const limited = limitToolRows({
			rows: onEachRow ? byCount.map((row) => ({ ...row, [metadataKey]: metadata })) : byCount,
			otherItems: mode === 'separateItem' ? [metadata] : [],
			rowsAfter: notRead,
			totalIsLowerBound: tool.totalUnknown === true,
			rowLimit: { value: tool.maxRows, option: tool.rowLimitOption },
			maxBytes: tool.maxBytes,
			what: tool.what,
			fullResultHint: tool.fullResultHint,
		});
		if (limited.keptRows < rows.length) {
			kept = byCount.slice(0, limited.keptRows);
			placedMetadata = tool.metadataWhenCut?.(metadata, kept.length) ?? metadata;
		}
		toolNote = limited.note as unknown as IDataObject | undefined;
	}
	return {
		rows: kept.map((row) => (onEachRow ? { ...row, [metadataKey]: placedMetadata } : { ...row })),
		metadata: placedMetadata,
		...(toolNote !== undefined ? { toolNote } : {}),
	};
}

/** Adds the metadata as a separate last item ("As a Separate Last Item") and the tool note first, so the model reads it before the rows. */
export function finishItems(items: INodeExecutionData[], placed: PlacedRows, mode: MetadataMode, pairedItem: { item: number }): INodeExecutionData[] {
	if (mode === 'separateItem') items.push({ json: { ...placed.metadata }, pairedItem });
	if (placed.toolNote !== undefined) items.unshift({ json: placed.toolNote, pairedItem });
	return items;
}

/** The items of a completed export's rows or file, with a hint when Nexthink truncated it. */
export async function buildResultItems(
	ctx: IExecuteFunctions,
	itemIndex: number,
	report: ExportStatusReport,
	results: DownloadedResults,
	{ queryId, settings }: { queryId: string | null; settings: ResultSettings },
): Promise<INodeExecutionData[]> {
	const pairedItem = { item: itemIndex };
	if (report.truncated) {
		ctx.addExecutionHints?.({
			message: `Export ${report.exportId} was truncated by Nexthink at the licence's maximum number of results: ${results.rows.length} rows were output.`,
			location: 'outputPane',
		});
	}
	const metadata: IDataObject = {
		exportId: report.exportId,
		queryId,
		// rows output; null when the file was only kept as binary data and not parsed
		rowCount: settings.output === 'file' ? null : results.rows.length,
		truncated: report.truncated,
		moreRowsAvailable: results.moreRowsAvailable,
	};
	const metadataJson = queryId === null ? { ...metadata, queryIdNote: QUERY_ID_UNKNOWN_NOTE } : metadata;
	const placed = placeRows({
		rows: settings.output === 'file' ? [] : results.rows,
		metadata: metadataJson,
		metadataKey: 'nexthinkExport',
		mode: settings.includeMetadata,
		tool:
			settings.tool === undefined || settings.output === 'file'
				? undefined
				: {
						...settings.tool,
						rowsAfter: results.moreRowsAvailable ? 'unknown' : 0,
						what: queryId !== null ? `the export of ${queryId}` : 'this export',
						fullResultHint:
							'Every row can be had by running the Export operation outside the agent, e.g. with Output: File for large results.',
						metadataWhenCut: (json, keptRows) => ({ ...json, rowCount: keptRows, moreRowsAvailable: true }),
					},
	});
	const items: INodeExecutionData[] = placed.rows.map((json) => ({ json, pairedItem }));
	if (settings.output !== 'rows') {
		const file = results.file;
		if (file === undefined) throw new NodeOperationError(ctx.getNode(), 'The results file was not kept', { itemIndex });
		const binary = { [settings.binaryPropertyName]: file.binary };
		if (items.length > 0) {
			items[0].binary = binary;
		} else {
			items.push({ json: settings.output === 'file' ? { ...placed.metadata } : {}, binary, pairedItem });
		}
	}
	return finishItems(items, placed, settings.includeMetadata, pairedItem);
}

/** The status fields every operation outputs the same way. */
export function statusJson(report: ExportStatusReport): IDataObject {
	return {
		exportId: report.exportId,
		status: report.status,
		resultsFileUrl: report.resultsFileUrl,
		errorDescription: report.errorDescription,
		httpStatus: report.httpStatus,
		truncated: report.truncated,
	};
}

/** What an Export node item knows of an export besides its status: the query, the settings, the Request Timeout. */
type CompletedExportContext = Pick<CompletedExportOptions, 'queryId' | 'declaredCompression' | 'timeoutMs' | 'exportIdGuessed'> & { settings: ResultSettings };

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
export async function outputCompletedExport(ctx: IExecuteFunctions, itemIndex: number, report: ExportStatusReport, context: CompletedExportContext): Promise<INodeExecutionData[]> {
	const results = await downloadCompletedExport(ctx, report, completedExportOptions(ctx, itemIndex, context));
	return await buildResultItems(ctx, itemIndex, report, results, context);
}

/** Said in the metadata when the query ID is null, so a user knows why and how to get it. */
const QUERY_ID_UNKNOWN_NOTE =
	"Not known: Nexthink's export status and results file do not name the query. It is filled when the input item carries the same exportId with its queryId, as Start Export and Get Status output.";

/**
 * The query ID of an export known only by its ID: the input item's `queryId` when the item carries
 * this very export ID and a valid query ID (Start Export and Get Status output both), else null.
 * Nexthink's status answer and results file URL never name the query.
 */
export function queryIdOfExport(ctx: IExecuteFunctions, itemIndex: number, exportId: string): string | null {
	const json = ctx.getInputData()[itemIndex]?.json;
	if (json === undefined || typeof json.exportId !== 'string' || json.exportId.trim() !== exportId) return null;
	return typeof json.queryId === 'string' && QUERY_ID_PATTERN.test(json.queryId) ? json.queryId : null;
}
