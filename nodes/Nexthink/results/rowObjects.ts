/**
 * Turns CSV records into the JSON objects of n8n items, keyed by the header names as written
 * (`device.name` is one flat key), made unique as `uniqueColumnNames` says. Key order is column
 * order, except that JavaScript lists keys that look like array indexes (`0`, `17`) first.
 */

import { ColumnValues } from './columnValues';
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
 * per file (it shares repeated values per column, columnValues.ts). Every row is a copy of a template
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
