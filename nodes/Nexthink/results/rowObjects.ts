/**
 * Turns CSV records into the JSON objects of n8n items, keyed by the header names as written
 * (`device.name` is one flat key), made unique as `uniqueColumnNames` says. Key order is column
 * order, except that JavaScript lists keys that look like array indexes (`0`, `17`) first. The
 * values are strings that do not hold on to the decoded text chunk they were sliced from (V8 makes
 * a slice of 13 or more characters a view into it), one shared string per value a column repeats
 * while the column has at most `MAX_SHARED_VALUES` distinct values: docs/decisions.md, "Memory of
 * row values".
 */

import { convertCsvValue, type CsvValue } from './valueTyping';

export type CsvRow = Record<string, CsvValue>;

export type RowBuilder = (fields: readonly string[]) => CsvRow;

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
 * A function building one row object from a record with exactly `keys.length` fields; one builder
 * per file (it shares repeated values per column, `ColumnValues`). Every row is a copy of a template
 * that owns all keys, made by `JSON.parse`, so a column named `__proto__` is an ordinary own key
 * instead of replacing the object's prototype.
 */
export function createRowBuilder(keys: readonly string[], convertTypes: boolean): RowBuilder {
	const template = JSON.parse(`{${keys.map((key) => `${JSON.stringify(key)}:null`).join(',')}}`) as CsvRow;
	const width = keys.length;
	const values = new ColumnValues(width);
	if (convertTypes) {
		return (fields) => {
			const row = { ...template };
			for (let index = 0; index < width; index++) {
				const value = convertCsvValue(fields[index]);
				row[keys[index]] = typeof value === 'string' ? values.keep(index, value) : value;
			}
			return row;
		};
	}
	return (fields) => {
		const row = { ...template };
		for (let index = 0; index < width; index++) row[keys[index]] = values.keep(index, fields[index]);
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
