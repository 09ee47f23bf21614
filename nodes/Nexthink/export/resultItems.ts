/**
 * The Export node's output items: one item per row with keys exactly as the CSV header, optionally
 * the file as binary data and the metadata (resultItems: the one way, for Execute Query too), and the
 * NQL pipeline's options from an operation's settings. An export's status is output as its
 * ExportStatusReport (nql/exportApi.ts), field for field.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { limitToolRows, shapeToolRows, type ToolRowsInput } from '../shared/toolOutput';
import type { DownloadedResults } from '../nql/resultsFile';
import type { ExportStatusReport } from '../nql/exportApi';
import type { CompletedExportOptions } from '../nql/followExport';
import { QUERY_ID_PATTERN } from '../shared/nqlIds';
import type { MetadataMode, ResultSettings, ToolLimits } from './settings';

const FILE_EXTENSIONS = { NONE: 'csv', GZIP: 'csv.gz', ZSTD: 'csv.zst' } as const;
const MIME_TYPES = { NONE: 'text/csv', GZIP: 'application/gzip', ZSTD: 'application/zstd' } as const;

/** The rows of one result, where its metadata goes, and (in an agent's tool run) what the model may get. */
interface RowPlacement {
	rows: readonly IDataObject[];
	metadata: IDataObject;
	/** The key of the metadata on each row ("On Each Row"). */
	metadataKey: 'nexthinkExport' | 'nexthinkQuery';
	mode: MetadataMode;
	pairedItem: { item: number };
	/** The results file: on the first row's item, else on an item of its own (holding the metadata with `withMetadata`). */
	file?: { binary: Record<string, IBinaryData>; withMetadata: boolean };
	/** Set in a tool run: the rows are shaped (shared/toolOutput.ts), then cut to these bounds, and a note says what was left out. */
	tool?: ToolLimits & Pick<ToolRowsInput, 'totalUnknown' | 'what' | 'fullResultHint'> & {
		/** Rows of the result that are not in `rows` at all (not read, or not returned). */
		rowsAfter: number | 'unknown';
		/** The metadata once rows were left out, e.g. with a corrected row count. */
		metadataWhenCut?: (metadata: IDataObject, keptRows: number) => IDataObject;
	};
}

/**
 * The items of one result: an item per row (the metadata on each "On Each Row"), the file, the
 * metadata as a separate last item ("As a Separate Last Item"), and the tool note first, so the model
 * reads it before the rows. Takes the rows over: each row object becomes an item's `json` itself, so
 * the caller must not keep using them, nor pass one object twice.
 */
export function resultItems({ rows: allRows, metadata, metadataKey, mode, pairedItem, file, tool }: RowPlacement): INodeExecutionData[] {
	const onEachRow = mode === 'eachRow';
	const rows = tool !== undefined ? (shapeToolRows(allRows, tool.shape, tool.simplifiedColumns, tool.what) as IDataObject[]) : allRows;
	let kept = rows;
	let placedMetadata = metadata;
	let toolNote: IDataObject | undefined;
	if (tool !== undefined) {
		const byCount = rows.slice(0, tool.maxRows);
		const notRead = tool.rowsAfter === 'unknown' ? 'unknown' : tool.rowsAfter + rows.length - byCount.length;
		// Sizes are measured with the metadata as read; cutting can only shorten it (fewer digits in
		// a row count, moreRowsAvailable false -> true), so the output stays within the limit.
		const limited = limitToolRows({
			...tool,
			rows: onEachRow ? byCount.map((row) => ({ ...row, [metadataKey]: metadata })) : byCount,
			otherItems: mode === 'separateItem' ? [metadata] : [],
			rowsAfter: notRead,
		});
		if (limited.keptRows < rows.length) {
			kept = byCount.slice(0, limited.keptRows);
			placedMetadata = tool.metadataWhenCut?.(metadata, kept.length) ?? metadata;
		}
		toolNote = limited.note as unknown as IDataObject | undefined;
	}
	// The row objects become the items' JSON as they are (with the metadata added in place "On Each
	// Row"): a copy per row would hold a second million objects while the items are built
	// (docs/decisions.md, "Row items without copies").
	const items: INodeExecutionData[] = kept.map((row: IDataObject) => {
		if (onEachRow) row[metadataKey] = placedMetadata;
		return { json: row, pairedItem };
	});
	if (file !== undefined && items.length > 0) items[0].binary = file.binary;
	else if (file !== undefined) items.push({ json: file.withMetadata ? { ...placedMetadata } : {}, binary: file.binary, pairedItem });
	if (mode === 'separateItem') items.push({ json: { ...placedMetadata }, pairedItem });
	if (toolNote !== undefined) items.unshift({ json: toolNote, pairedItem });
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
	const file = settings.output === 'rows' ? undefined : results.file;
	if (settings.output !== 'rows' && file === undefined) throw new NodeOperationError(ctx.getNode(), 'The results file was not kept', { itemIndex });
	return resultItems({
		rows: settings.output === 'file' ? [] : results.rows,
		metadata: metadataJson,
		metadataKey: 'nexthinkExport',
		mode: settings.includeMetadata,
		pairedItem: { item: itemIndex },
		file: file && { binary: { [settings.binaryPropertyName]: file.binary }, withMetadata: settings.output === 'file' },
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
		// prepareBinaryData is typed Buffer | Readable (node:stream), which nodes/ may not import
		fileStore: (exportId) => async (data, compression) =>
			await ctx.helpers.prepareBinaryData(data as Buffer, `${exportId}.${FILE_EXTENSIONS[compression]}`, MIME_TYPES[compression]),
		...(settings.failOnTruncated ? { truncatedHint: 'Narrow the query (fewer rows) or set "Truncated Results" to "Output Rows and Report".' } : {}),
	};
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
