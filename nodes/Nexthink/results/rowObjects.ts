/**
 * Turns CSV records into the JSON objects of n8n items, keyed by the header.
 *
 * Keys are the header names exactly as written: `device.name` is one flat key, not a nested path.
 * Two adjustments keep every column: an empty header name becomes `column_<position>` (1-based), and
 * a name that occurs again gets the first free suffix `_2`, `_3`, ... (a name that is already in the
 * header is never reused, so `a,a,a_2` becomes `a`, `a_3`, `a_2`). Key order is column order, except
 * that JavaScript lists keys that look like array indexes (`0`, `17`) first.
 */

import { ColumnValues } from './columnValues';
import { convertCsvValue, type CsvValue } from './valueTyping';

export type CsvRow = Record<string, CsvValue>;

export type RowBuilder = (fields: readonly string[]) => CsvRow;

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
 * A function building one row object from a record with exactly `keys.length` fields. Each builder
 * shares repeated values per column and never keeps a view into the parser's text (columnValues.ts),
 * so use one builder per file.
 *
 * Every row is a copy of one template object that already owns all keys, filled in place. Copying
 * gives all rows the same shape in one step (adding keys one by one to an empty object is slower).
 * The template comes from `JSON.parse`, which sizes the object for all its keys and creates each as
 * an own data property, so a column named `__proto__` is an ordinary key instead of replacing the
 * object's prototype.
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
