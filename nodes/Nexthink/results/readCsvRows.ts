/**
 * Reads a downloaded results file into row objects, chunk by chunk: decompress, decode UTF-8, parse
 * CSV, build one object per row; only the rows are kept. With `maxRows` (or `maxValues`) reading stops
 * at the row after the last wanted one: the rest is neither read nor checked. The file is bounded by
 * limits.ts (its defaults unless `limits` says otherwise). A row object's keys are the header names
 * as written (`device.name` is one flat key), made unique, in column order (but JavaScript lists keys
 * like `0`, `17` first); its values never hold on to the decoded text: docs/decisions.md, "Results
 * files" ("Memory of row values").
 */

import { CsvParser } from './csv';
import { decompressChunks, type Compression, type Counted, type DecompressOptions } from './decompress';
import { DEFAULT_RESULT_LIMITS, type ResultLimits } from './limits';
import { decodeUtf8 } from './utf8';
import { convertCsvValue, type CsvValue } from './valueTyping';

export type CsvRow = Record<string, CsvValue>;

export interface ReadCsvRowsOptions extends Pick<DecompressOptions, 'ratioFloorBytes'> {
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
}

/**
 * The rows, and: `header`, the row objects' keys in column order (the header names made unique,
 * `uniqueColumnNames`); `moreRowsAvailable`, whether `maxRows` or `maxValues` cut the rows short of at
 * least one more; `compression`, what the file was by its magic bytes; `bytesRead`, before decompression.
 */
export async function readCsvRows(source: AsyncIterable<Uint8Array>, options: ReadCsvRowsOptions) {
	if (options.maxRows !== undefined && !(Number.isSafeInteger(options.maxRows) && options.maxRows >= 0)) {
		throw new RangeError(`maxRows must be a non-negative integer, got ${options.maxRows}`);
	}
	const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
	const maxValues = options.maxValues ?? Number.POSITIVE_INFINITY;
	const limits = options.limits ?? DEFAULT_RESULT_LIMITS;
	const counted: Counted = { compressed: 0, decompressed: 0 };
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

	const bytes = decompressChunks(source, options.compression, { limits, ratioFloorBytes: options.ratioFloorBytes, counted });
	for await (const texts of decodeUtf8(bytes)) {
		for (const text of texts) parser.push(text);
		if (parser.stopped) break;
	}
	parser.end();
	return { header, rows, moreRowsAvailable, compression: counted.compression ?? 'NONE', bytesRead: counted.compressed };
}

type RowBuilder = (fields: readonly string[]) => CsvRow;

/** An empty name becomes `column_<position>`; a repeated one the first free `_2`, `_3`, ... (`a,a,a_2` → `a`, `a_3`, `a_2`). */
export function uniqueColumnNames(header: readonly string[]): string[] {
	const named = header.map((name, index) => (name === '' ? `column_${index + 1}` : name));
	const taken = new Set(named);
	const seen = new Set<string>();
	return named.map((name) => {
		if (!seen.has(name)) {
			seen.add(name);
			return name;
		}
		let suffix = 2;
		while (taken.has(`${name}_${suffix}`)) suffix++;
		const unique = `${name}_${suffix}`;
		taken.add(unique);
		return unique;
	});
}

/**
 * Rows whose values are copied without a sharing look-up at the start of every file: in a small file
 * the maps, empty at first, miss on almost every value (docs/decisions.md, "Small exports").
 */
export const ROWS_BEFORE_SHARING = 1000;

/**
 * A function building one row object from a record with exactly `keys.length` fields; one builder
 * per file (after its first ROWS_BEFORE_SHARING rows it shares repeated values per column,
 * `ColumnValues`). Every row is a copy of a template that owns all keys, made by `JSON.parse`, so a
 * column named `__proto__` is an ordinary own key instead of replacing the object's prototype.
 */
export function createRowBuilder(keys: readonly string[], convertTypes: boolean): RowBuilder {
	const template = JSON.parse(`{${keys.map((key) => `${JSON.stringify(key)}:null`).join(',')}}`) as CsvRow;
	const width = keys.length;
	const values = new ColumnValues(width);
	let rowsBuilt = 0;
	if (convertTypes) {
		return (fields) => {
			const row = { ...template };
			const share = rowsBuilt++ >= ROWS_BEFORE_SHARING;
			for (let index = 0; index < width; index++) {
				const value = convertCsvValue(fields[index]);
				row[keys[index]] = typeof value !== 'string' ? value : share ? values.keep(index, value) : detachedCopy(value);
			}
			return row;
		};
	}
	return (fields) => {
		const row = { ...template };
		const share = rowsBuilt++ >= ROWS_BEFORE_SHARING;
		for (let index = 0; index < width; index++) row[keys[index]] = share ? values.keep(index, fields[index]) : detachedCopy(fields[index]);
		return row;
	};
}

/** Below this length V8 copies a slice instead of making a view (V8's SlicedString::kMinLength). */
const SHORTEST_VIEW = 13;

/** Distinct values a column may have and still share them (a percentage with one decimal has 1,001). */
export const MAX_SHARED_VALUES = 4096;

/** Longer values are rarely repeated; they are copied, not looked up. */
const LONGEST_SHARED_VALUE = 100;

/** A copy, never a view: `trim()` must see the whole concatenation, so V8 flattens it into a new string (Node 20 and 24). */
export function detachedCopy(value: string): string {
	if (value.length < SHORTEST_VIEW) return value;
	const head = value.slice(0, -1);
	const last = value[value.length - 1];
	const copy = (head + last).trim();
	return copy.length === value.length ? copy : [head, last].join('');
}

export class ColumnValues {
	/** Per column: its distinct values so far, or undefined once it has too many to share. */
	private readonly shared: Array<Map<string, string> | undefined>;

	constructor(columnCount: number) {
		this.shared = Array.from({ length: columnCount }, () => new Map<string, string>());
	}

	/** The string to keep for `value` found in `column`: a shared or a fresh copy, never a view. */
	keep(column: number, value: string): string {
		const shared = this.shared[column];
		if (shared === undefined || value.length > LONGEST_SHARED_VALUE) return detachedCopy(value);
		const known = shared.get(value);
		if (known !== undefined) return known;
		const copy = detachedCopy(value);
		if (shared.size < MAX_SHARED_VALUES) shared.set(copy, copy);
		else this.shared[column] = undefined;
		return copy;
	}

	/** Whether `column` still shares its values (for tests and benchmarks). */
	isSharing(column: number): boolean {
		return this.shared[column] !== undefined;
	}
}
