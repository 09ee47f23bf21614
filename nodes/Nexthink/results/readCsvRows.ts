/**
 * Reads a downloaded results file into row objects, chunk by chunk: decompress, decode UTF-8, parse
 * CSV, build one object per row; only the rows are kept. With `maxRows` (or `maxValues`) reading stops
 * at the row after the last wanted one: the rest is neither read nor checked. The file is bounded by
 * limits.ts (its defaults unless `limits` says otherwise).
 */

import { CsvParser } from './csv';
import { decompressChunks, type Compression } from './decompress';
import { DEFAULT_RESULT_LIMITS, type ResultLimits } from './limits';
import { createRowBuilder, uniqueColumnNames, type CsvRow, type RowBuilder } from './rowObjects';
import { decodeUtf8 } from './utf8';

export type { CsvRow } from './rowObjects';

export interface ReadCsvRowsOptions {
	/** The compression the export was started with; the file's magic bytes take precedence. */
	compression: Compression;
	/** Apply `convertCsvValue` to every field (numbers, booleans, empty → null); else all values are strings. */
	convertTypes: boolean;
	/** Keep at most this many rows (a non-negative integer); unlimited when absent. */
	maxRows?: number;
	/** Keep at most this many values (rows times columns), as `maxRows` does: for answers that must stay small in memory. */
	maxValues?: number;
	/** Bounds on the file's expansion; the defaults of limits.ts when absent. */
	limits?: ResultLimits;
	/** Decompressed bytes below which the compression ratio is not checked (tests lower it). */
	ratioFloorBytes?: number;
}

export interface CsvRowsResult {
	/** The keys of the row objects in column order: the header names, made unique (see rowObjects.ts). */
	header: string[];
	rows: CsvRow[];
	/** True when `maxRows` or `maxValues` cut the result short and at least one more row exists. */
	moreRowsAvailable: boolean;
	/** What the file actually was, by its magic bytes. */
	compression: Compression;
	/** Bytes taken from the source (before decompression). */
	bytesRead: number;
}

export async function readCsvRows(source: AsyncIterable<Uint8Array>, options: ReadCsvRowsOptions): Promise<CsvRowsResult> {
	if (options.maxRows !== undefined && !(Number.isSafeInteger(options.maxRows) && options.maxRows >= 0)) {
		throw new RangeError(`maxRows must be a non-negative integer, got ${options.maxRows}`);
	}
	const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
	const maxValues = options.maxValues ?? Number.POSITIVE_INFINITY;
	const limits = options.limits ?? DEFAULT_RESULT_LIMITS;
	const counted = { compressed: 0, decompressed: 0 };
	let compression: Compression = 'NONE';
	let header: string[] = [];
	let buildRow: RowBuilder | undefined;
	const rows: CsvRow[] = [];
	let moreRowsAvailable = false;

	const parser = new CsvParser((fields) => {
		if (buildRow === undefined) {
			header = uniqueColumnNames(fields);
			buildRow = createRowBuilder(header, options.convertTypes);
			return true;
		}
		if (rows.length >= maxRows || (rows.length + 1) * header.length > maxValues) {
			moreRowsAvailable = true;
			return false;
		}
		rows.push(buildRow(fields));
		return true;
	}, limits);

	const bytes = decompressChunks(source, options.compression, {
		onDetected: (detected) => {
			compression = detected;
		},
		limits,
		ratioFloorBytes: options.ratioFloorBytes,
		counted,
	});
	for await (const texts of decodeUtf8(bytes)) {
		for (const text of texts) parser.push(text);
		if (parser.stopped) break;
	}
	parser.end();
	return { header, rows, moreRowsAvailable, compression, bytesRead: counted.compressed };
}
