/**
 * Builds the output items of one export: one item per row with keys exactly as
 * the CSV header, optionally the file as binary data and the export metadata.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { limitToolRows } from '../../shared/toolOutput';
import type { DownloadedResults, NodeReadable } from './resultsFile';
import type { Compression } from '../../results/decompress';
import { QUERY_ID_UNKNOWN_NOTE } from './queryIdOfExport';
import type { ResultSettings } from './settings';

export interface ExportMetadata {
	exportId: string | null;
	queryId: string | null;
	/** Rows output; null when the file was only kept as binary data and not parsed. */
	rowCount: number | null;
	truncated: boolean;
	moreRowsAvailable: boolean;
}

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

export async function buildResultItems(
	ctx: IExecuteFunctions,
	itemIndex: number,
	results: DownloadedResults,
	metadata: ExportMetadata,
	settings: ResultSettings,
): Promise<INodeExecutionData[]> {
	const pairedItem = { item: itemIndex };
	const items: INodeExecutionData[] = [];
	let metadataJson = (metadata.queryId === null ? { ...metadata, queryIdNote: QUERY_ID_UNKNOWN_NOTE } : metadata) as unknown as IDataObject;
	let rows = results.rows;
	let toolNote: IDataObject | undefined;

	if (settings.output !== 'file') {
		const onEachRow = settings.includeMetadata === 'eachRow';
		if (settings.tool !== undefined) {
			// Sizes are measured with the metadata as read; capping can only shorten it (fewer digits
			// in rowCount, moreRowsAvailable false -> true), so the output stays within the limit.
			const limited = limitToolRows({
				rows: onEachRow ? rows.map((row) => ({ ...row, nexthinkExport: metadataJson })) : rows,
				otherItems: settings.includeMetadata === 'separateItem' ? [metadataJson] : [],
				rowsAfter: results.moreRowsAvailable ? 'unknown' : 0,
				rowLimit: { value: settings.tool.maxRows, option: settings.tool.rowLimitOption },
				maxBytes: settings.tool.maxBytes,
				what: metadata.queryId !== null ? `the export of ${metadata.queryId}` : 'this export',
				fullResultHint:
					'Every row can be had by running the Export operation outside the agent, e.g. with Output: File for large results.',
			});
			if (limited.keptRows < rows.length) {
				rows = rows.slice(0, limited.keptRows);
				metadataJson = { ...metadataJson, rowCount: rows.length, moreRowsAvailable: true };
			}
			toolNote = limited.note as unknown as IDataObject | undefined;
		}
		for (const row of rows) {
			items.push({ json: (onEachRow ? { ...row, nexthinkExport: metadataJson } : row) as IDataObject, pairedItem });
		}
	}
	if (settings.output !== 'rows') {
		const file = results.file;
		if (file === undefined) throw new NodeOperationError(ctx.getNode(), 'The results file was not kept', { itemIndex });
		const binary = { [settings.binaryPropertyName]: file.binary };
		if (items.length > 0) {
			items[0].binary = binary;
		} else {
			items.push({ json: settings.output === 'file' ? { ...metadataJson } : {}, binary, pairedItem });
		}
	}
	if (settings.includeMetadata === 'separateItem') {
		items.push({ json: { ...metadataJson }, pairedItem });
	}
	// first, so that the model reads it before the rows
	if (toolNote !== undefined) items.unshift({ json: toolNote, pairedItem });
	return items;
}
