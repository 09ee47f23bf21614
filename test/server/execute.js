// @ts-check
'use strict';

const { sendJson, sendEmpty, sendText } = require('./http');
const { parseJsonRequest } = require('./nql-request');
const { answerHeader, missingParameters, queryRows, takeRows, substituteParameters } = require('./queries');
const { csvText } = require('./csv');

/**
 * `POST /api/v1/nql/execute` and `/api/v2/nql/execute`: run a stored query synchronously and answer
 * at most `executeRowLimit` rows (cut silently, like the real API).
 *
 * Rendering: JSON values follow the query's `columnTypes` (number → JSON number, boolean → true/false,
 * empty → null; strings stay strings). Timestamp columns hold UTC ISO strings; with `x-utc-times:
 * true` they are answered in UTC (`2026-11-23T10:15:00.000Z`), otherwise in the instance's time zone
 * as an ISO string with offset (`2026-11-23T11:15:00.000+01:00`). `executionDateTime` follows the
 * same choice of zone. CSV answers carry the same text values (nulls as empty fields).
 *
 * @typedef {import('./csv').CsvValue} CsvValue
 * @typedef {object} ExecuteDeps
 * @property {import('./queries').QueryRegistry} queries
 * @property {() => number} now
 * @property {{ executeRowLimit: number, instanceUtcOffsetMinutes: number, csvLineEnding: string } & import('./files').FileOptions} options
 */

const JSON_TYPE = 'application/json';
const CSV_TYPE = 'text/csv';

/**
 * Content negotiation on `Accept`: absent or empty → JSON; otherwise the media ranges are weighed
 * (`q`); the wildcards (any type, application/any) stand for JSON, text/any for CSV; JSON wins ties.
 * Undefined when neither is acceptable (the caller answers 406).
 * @param {string | undefined} header
 * @returns {typeof JSON_TYPE | typeof CSV_TYPE | undefined}
 */
function negotiate(header) {
	if (header === undefined || header.trim() === '') return JSON_TYPE;
	let best = /** @type {{ type: typeof JSON_TYPE | typeof CSV_TYPE, q: number } | undefined} */ (undefined);
	for (const range of header.split(',')) {
		const [mediaRange, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
		const qParam = params.find((param) => param.startsWith('q='));
		const q = qParam === undefined ? 1 : Number(qParam.slice(2));
		if (!(q > 0)) continue;
		/** @type {typeof JSON_TYPE | typeof CSV_TYPE | undefined} */
		let type;
		if (mediaRange === JSON_TYPE || mediaRange === '*/*' || mediaRange === 'application/*') type = JSON_TYPE;
		else if (mediaRange === CSV_TYPE || mediaRange === 'text/*') type = CSV_TYPE;
		if (type && (!best || q > best.q || (q === best.q && type === JSON_TYPE && best.type !== JSON_TYPE))) best = { type, q };
	}
	return best?.type;
}

/** @param {number} n @param {number} [width] */
const pad = (n, width = 2) => String(n).padStart(width, '0');

/**
 * Wall-clock parts of an instant shifted by an offset (the instance's zone), read as UTC fields.
 * @param {number} ms
 * @param {number} offsetMinutes
 */
function wallClock(ms, offsetMinutes) {
	const shifted = new Date(ms + offsetMinutes * 60000);
	return {
		year: shifted.getUTCFullYear(),
		month: shifted.getUTCMonth() + 1,
		day: shifted.getUTCDate(),
		hour: shifted.getUTCHours(),
		minute: shifted.getUTCMinutes(),
		second: shifted.getUTCSeconds(),
		millisecond: shifted.getUTCMilliseconds(),
	};
}

/** @param {number} offsetMinutes */
function offsetSuffix(offsetMinutes) {
	if (offsetMinutes === 0) return 'Z';
	const sign = offsetMinutes < 0 ? '-' : '+';
	const abs = Math.abs(offsetMinutes);
	return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * @param {string} value a UTC ISO timestamp as stored in the query rows
 * @param {number} offsetMinutes 0 for UTC
 */
function renderTimestamp(value, offsetMinutes) {
	const ms = Date.parse(value);
	if (Number.isNaN(ms)) return value;
	const t = wallClock(ms, offsetMinutes);
	return `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}.${pad(t.millisecond, 3)}${offsetSuffix(offsetMinutes)}`;
}

/**
 * @param {CsvValue} value
 * @param {import('./queries').ColumnType | undefined} type
 * @param {number} offsetMinutes
 * @returns {string | number | boolean | null}
 */
function renderValue(value, type, offsetMinutes) {
	if (value === null || value === undefined) return null;
	const text = String(value);
	if (type === 'timestamp') return text === '' ? null : renderTimestamp(text, offsetMinutes);
	if (type === 'number') return text === '' ? null : Number(text);
	if (type === 'boolean') return text === '' ? null : text === 'true';
	return text;
}

/**
 * @param {import('./router').Context} ctx
 * @param {ExecuteDeps} deps
 * @param {1 | 2} version
 */
function handleExecute(ctx, deps, version) {
	const accept = negotiate(ctx.headers.accept);
	if (!accept) {
		sendEmpty(ctx.res, 406);
		return;
	}
	const parsed = parseJsonRequest(ctx.body, false);
	if (!parsed.ok) {
		sendJson(ctx.res, 400, parsed.error);
		return;
	}
	const { queryId, parameters } = parsed.request;
	const query = deps.queries.get(queryId);
	if (!query) {
		sendEmpty(ctx.res, 404);
		return;
	}
	const missing = missingParameters(query, parameters);
	if (missing.length > 0) {
		sendJson(ctx.res, 400, { message: `Missing value for query parameter $${missing[0]}`, code: 400, source: 'parameters' });
		return;
	}
	if (query.fail) {
		const status = 'httpStatus' in query.fail ? query.fail.httpStatus : 500;
		const message = 'httpStatus' in query.fail ? query.fail.message : query.fail.errorDescription;
		sendJson(ctx.res, status, { message, code: status, source: 'query' });
		return;
	}

	const utc = String(ctx.headers['x-utc-times'] ?? '').toLowerCase() === 'true';
	const offset = utc ? 0 : deps.options.instanceUtcOffsetMinutes;
	const rows = [...takeRows(queryRows(query, parameters), deps.options.executeRowLimit)].map((row) =>
		query.header.map((column, index) => renderValue(row[index], query.columnTypes[column], offset)),
	);
	const header = answerHeader(query.header, deps.options.queryColumnNames);
	// an empty result without a header (the `emptyResult` switch): CSV without text, v1 without headers
	const namesColumns = rows.length > 0 || deps.options.emptyResult === 'header';
	if (accept === CSV_TYPE) {
		sendText(ctx.res, 200, CSV_TYPE, namesColumns ? csvText(header, rows, deps.options.csvLineEnding) : '');
		return;
	}
	const executedAt = wallClock(deps.now(), offset);
	const base = { queryId, executedQuery: substituteParameters(query.nql, parameters), rows: rows.length };
	if (version === 1) {
		const { year, month, day, hour, minute, second } = executedAt;
		const executionDateTime = { year, month, day, hour, minute, second };
		sendJson(ctx.res, 200, { ...base, executionDateTime, headers: namesColumns ? header : [], data: rows });
		return;
	}
	const t = executedAt;
	const executionDateTime = `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
	const data = rows.map((row) => Object.fromEntries(header.map((column, index) => [column, row[index]])));
	sendJson(ctx.res, 200, { ...base, executionDateTime, data });
}

module.exports = { handleExecute, renderTimestamp, negotiate };
