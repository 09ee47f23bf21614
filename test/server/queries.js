// @ts-check
'use strict';

const { QUERY_ID_PATTERN } = require('./nql-request');

/**
 * The stored NQL queries the server can run, and what running one means here: a header, rows (an
 * array, or a function of the parameters returning any iterable, for big or computed results), a
 * synthetic NQL text for `executedQuery`, and knobs for how its exports behave.
 *
 * @typedef {import('./csv').CsvValue} CsvValue
 * @typedef {'string' | 'number' | 'boolean' | 'timestamp'} ColumnType
 * @typedef {{ errorDescription: string } | { httpStatus: number, message: string }} QueryFailure
 *
 * @typedef {object} QuerySpec
 * @property {string} id                     e.g. '#all_devices'
 * @property {string[]} header               NQL column names, e.g. 'device.name'
 * @property {readonly (readonly CsvValue[])[] | ((params: Record<string, string>) => Iterable<readonly CsvValue[]>)} rows
 *           a function is called for every download/execute and must give the same rows for the same parameters
 * @property {string[]} [parameters]         names the query expects as `$name`; a missing one is a 400 at start
 * @property {number} [completeAfterPolls]   status polls answered before the terminal one (default 2, or 0 with completeAfterMs)
 * @property {number} [completeAfterMs]      time after the start before the export may complete
 * @property {number} [truncateAt]           licence limit: more rows than this are cut and status answers 206
 * @property {QueryFailure} [fail]           the export ends in ERROR (errorDescription) or HTTP 400 (httpStatus + message)
 * @property {string} [nql]                  query text with `$name` placeholders (default: built from the header)
 * @property {Record<string, ColumnType>} [columnTypes]  how execute's JSON renders a column (default string)
 * @property {boolean} [snapshot]            call `rows` once when an export starts and keep that result (for
 *                                           rows computed from mutable state such as the enrichment inventory)
 * @property {boolean} [cacheFiles]          build each distinct results file (compression and parameters) once
 *                                           and serve it from memory afterwards, so that in a benchmark the
 *                                           server's own CSV and compression work does not compete with the
 *                                           client being measured (the rows must not change between exports)
 */

/** @param {QuerySpec} spec */
function normalizeQuery(spec) {
	if (typeof spec.id !== 'string' || !QUERY_ID_PATTERN.test(spec.id)) {
		throw new Error(`addQuery: id must match ${QUERY_ID_PATTERN.source}, got ${JSON.stringify(spec.id)}`);
	}
	if (!Array.isArray(spec.header) || spec.header.length === 0) throw new Error(`addQuery ${spec.id}: header must be a non-empty array`);
	if (!Array.isArray(spec.rows) && typeof spec.rows !== 'function') throw new Error(`addQuery ${spec.id}: rows must be an array or a function`);
	const parameters = spec.parameters ?? [];
	return {
		...spec,
		parameters,
		completeAfterPolls: spec.completeAfterPolls ?? (spec.completeAfterMs === undefined ? 2 : 0),
		completeAfterMs: spec.completeAfterMs ?? 0,
		nql: spec.nql ?? defaultNql(spec.header, parameters),
		columnTypes: spec.columnTypes ?? {},
	};
}

/** @typedef {ReturnType<typeof normalizeQuery>} Query */

/**
 * `devices | where device.os == $os | list device.name, ...`: the table from the first column's
 * object, one where-clause per parameter.
 * @param {string[]} header
 * @param {string[]} parameters
 */
function defaultNql(header, parameters) {
	const object = header[0].split('.')[0];
	const wheres = parameters.map((name) => ` | where ${object}.${name} == $${name}`).join('');
	return `${object}s${wheres} | list ${header.join(', ')}`;
}

/**
 * The query text with each `$name` replaced by its value as an NQL string literal.
 * @param {string} nql
 * @param {Record<string, string>} parameters
 */
function substituteParameters(nql, parameters) {
	return nql.replace(/\$([A-Za-z0-9_]+)/g, (placeholder, name) =>
		Object.prototype.hasOwnProperty.call(parameters, name) ? JSON.stringify(parameters[name]) : placeholder,
	);
}

/**
 * Names the query expects that the request did not give.
 * @param {Query} query
 * @param {Record<string, string>} parameters
 */
function missingParameters(query, parameters) {
	return query.parameters.filter((name) => !Object.prototype.hasOwnProperty.call(parameters, name));
}

/**
 * @param {Query} query
 * @param {Record<string, string>} parameters
 * @returns {Iterable<readonly CsvValue[]>}
 */
function queryRows(query, parameters) {
	return typeof query.rows === 'function' ? query.rows(parameters) : query.rows;
}

/**
 * At most `limit` rows of an iterable, lazily.
 * @template T
 * @param {Iterable<T>} rows
 * @param {number} limit
 * @returns {Generator<T>}
 */
function* takeRows(rows, limit) {
	if (limit <= 0) return;
	let count = 0;
	for (const row of rows) {
		yield row;
		count += 1;
		if (count >= limit) return;
	}
}

/**
 * Whether the iterable has more than `limit` items (reads at most limit + 1).
 * @param {Iterable<unknown>} rows
 * @param {number} limit
 */
function hasMoreThan(rows, limit) {
	const iterator = rows[Symbol.iterator]();
	for (let count = 0; count <= limit; count++) {
		if (iterator.next().done) return false;
	}
	return true;
}

class QueryRegistry {
	constructor() {
		/** @type {Map<string, Query>} */
		this.queries = new Map();
	}

	/**
	 * Adds or replaces a query. Exports already started keep the definition they started with.
	 * @param {QuerySpec} spec
	 */
	add(spec) {
		const query = normalizeQuery(spec);
		this.queries.set(query.id, query);
		return query;
	}

	/** @param {string} id */
	get(id) {
		return this.queries.get(id);
	}
}

/**
 * How an answer names a query's columns: `qualified` as the query's header says (`device.uid`, as
 * Nexthink's exports write them), `short` without the root object (`uid`, `operating_system.name`), as
 * the NQL API might write the names a query lists (whether it does is not documented:
 * https://docs.nexthink.com/api shows neither). Applies to export files and execute answers of `addQuery` queries.
 * @param {readonly string[]} header
 * @param {'qualified' | 'short'} spelling
 */
function answerHeader(header, spelling) {
	return spelling === 'short' ? header.map((column) => column.replace(/^[^.]+\./, '')) : [...header];
}

module.exports = { answerHeader, QueryRegistry, substituteParameters, missingParameters, queryRows, takeRows, hasMoreThan };
