// @ts-check
'use strict';

/**
 * RFC 4180 CSV writing: a field is quoted when it contains a comma, a double quote, CR or LF, and
 * quotes inside are doubled. null/undefined are written as empty fields. The line ending is the
 * caller's choice (the server defaults to LF).
 *
 * @typedef {string | number | boolean | null | undefined} CsvValue
 */

const NEEDS_QUOTES = /[",\r\n]/;
/** Rows are gathered into chunks of about this many characters before they are handed to a stream. */
const CHUNK_CHARS = 64 * 1024;

/** @param {CsvValue} value */
function formatField(value) {
	if (value === null || value === undefined) return '';
	const text = typeof value === 'string' ? value : String(value);
	return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * @param {readonly CsvValue[]} fields
 * @param {string} lineEnding
 */
function formatRow(fields, lineEnding) {
	let line = '';
	for (let i = 0; i < fields.length; i++) line += (i === 0 ? '' : ',') + formatField(fields[i]);
	return line + lineEnding;
}

/**
 * The file as a lazy sequence of text chunks: header row, then every row.
 * @param {readonly string[]} header
 * @param {Iterable<readonly CsvValue[]>} rows
 * @param {string} lineEnding
 * @returns {Generator<string>}
 */
function* csvChunks(header, rows, lineEnding) {
	let chunk = formatRow(header, lineEnding);
	for (const row of rows) {
		chunk += formatRow(row, lineEnding);
		if (chunk.length >= CHUNK_CHARS) {
			yield chunk;
			chunk = '';
		}
	}
	if (chunk.length > 0) yield chunk;
}

/**
 * @param {readonly string[]} header
 * @param {Iterable<readonly CsvValue[]>} rows
 * @param {string} lineEnding
 */
function csvText(header, rows, lineEnding) {
	let text = '';
	for (const chunk of csvChunks(header, rows, lineEnding)) text += chunk;
	return text;
}

module.exports = { formatField, formatRow, csvChunks, csvText };
