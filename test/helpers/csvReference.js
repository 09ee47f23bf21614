// @ts-check
'use strict';

/**
 * An independent RFC 4180 reader for the expectations: what the server wrote, row by row, keyed
 * by the header. Never the package's own parser, so a bug there cannot hide in both sides.
 * @param {string} text @returns {Record<string, string>[]}
 */
function csvRecords(text) {
	/** @type {string[][]} */
	const records = [];
	/** @type {string[]} */
	let record = [];
	let field = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') {
				field += '"';
				i++;
			} else if (c === '"') {
				quoted = false;
			} else {
				field += c;
			}
		} else if (c === '"') {
			quoted = true;
		} else if (c === ',') {
			record.push(field);
			field = '';
		} else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
			if (c === '\r') i++;
			record.push(field);
			records.push(record);
			record = [];
			field = '';
		} else {
			field += c;
		}
	}
	if (field !== '' || record.length > 0) {
		record.push(field);
		records.push(record);
	}
	const [header, ...rows] = records;
	return rows.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index]])));
}

module.exports = { csvRecords };
