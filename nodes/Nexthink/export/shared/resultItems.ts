/**
 * Builds the output items of one export (issue 3, point 5): one item per row with keys exactly as
 * the CSV header, optionally the file as binary data and the export metadata.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DownloadedResults, NodeReadable } from './downloadResults';
import type { Compression } from './exportApi';
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
	const metadataJson = (metadata.queryId === null ? { ...metadata, queryIdNote: QUERY_ID_UNKNOWN_NOTE } : metadata) as unknown as IDataObject;

	if (settings.output !== 'file') {
		const onEachRow = settings.includeMetadata === 'eachRow';
		for (const row of results.rows) {
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
	return items;
}
