// @ts-check
'use strict';

/**
 * An independent reading of the package's CSV dialect (see the header of nodes/Nexthink/results/csv.ts),
 * one character at a time, with no caching or look-ahead beyond one character. Never the package's
 * own parser, so a bug there cannot hide on both sides: tests use it for what the server wrote and
 * as the model the optimised parser is compared with.
 */

/**
 * @typedef {object} Reading
 * @property {string[][]} records  the header first, up to the first error
 * @property {{ problem: 'ragged' | 'unclosed' | 'after quote' | 'quote inside', line: number }} [error]
 */

/**
 * @param {string[][]} records
 * @param {'ragged' | 'unclosed' | 'after quote' | 'quote inside'} problem
 * @param {number} line
 * @returns {Reading}
 */
function fail(records, problem, line) {
	return { records, error: { problem, line } };
}

/** @param {string} text @returns {Reading} */
function readCsv(text) {
	/** @type {string[][]} */
	const records = [];
	/** @type {string[]} */
	let fields = [];
	let width = -1;
	let line = 1;
	let recordLine = 1;
	let index = 0;
	for (;;) {
		if (index >= text.length) {
			if (fields.length > 0) {
				fields.push('');
				if (width !== -1 && fields.length !== width) return fail(records, 'ragged', recordLine);
				records.push(fields);
			}
			return { records };
		}
		let value = '';
		const fieldStart = index;
		if (text[index] === '"') {
			const openingLine = line;
			index++;
			for (;;) {
				if (index >= text.length) return fail(records, 'unclosed', openingLine);
				const char = text[index];
				if (char === '"' && text[index + 1] === '"') {
					value += '"';
					index += 2;
				} else if (char === '"') {
					index++;
					break;
				} else {
					if (char === '\n' || (char === '\r' && text[index + 1] !== '\n')) line++;
					value += char;
					index++;
				}
			}
			const after = text[index];
			if (after !== undefined && after !== ',' && after !== '\n' && after !== '\r') return fail(records, 'after quote', line);
		} else {
			while (index < text.length && !',\n\r'.includes(text[index])) {
				if (text[index] === '"') return fail(records, 'quote inside', line);
				value += text[index++];
			}
		}
		const delimiter = text[index];
		if (delimiter === ',') {
			fields.push(value);
			index++;
			continue;
		}
		if (index === fieldStart && fields.length === 0 && delimiter !== undefined) {
			if (width === 1) records.push(['']);
		} else {
			fields.push(value);
			if (width === -1) width = fields.length;
			else if (fields.length !== width) return fail(records, 'ragged', recordLine);
			records.push(fields);
		}
		fields = [];
		if (delimiter !== undefined) {
			index += delimiter === '\r' && text[index + 1] === '\n' ? 2 : 1;
			line++;
		}
		recordLine = line;
	}
}

/**
 * What the server wrote, row by row, keyed by the header (which must be unique, as the server's is).
 * @param {string} text @returns {Record<string, string>[]}
 */
function csvRecords(text) {
	const { records, error } = readCsv(text);
	if (error !== undefined) throw new Error(`reference CSV reading failed: ${error.problem} on line ${error.line}`);
	const [header, ...rows] = records;
	return rows.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index]])));
}

module.exports = { csvRecords, readCsv };
