// @ts-check
'use strict';

const crypto = require('node:crypto');
const { sendJson, sendEmpty } = require('./http');
const { parseTag, parseJsonRequest, parseExportQuery } = require('./nql-request');
const { missingParameters, queryRows, takeRows, hasMoreThan } = require('./queries');
const { retryAfterValue } = require('./status-quota');

/**
 * Export start and status: exports live in memory and move SUBMITTED → IN_PROGRESS → COMPLETED (or
 * ERROR / HTTP 400) as they are polled and as time passes.
 *
 * @typedef {import('./queries').Query} Query
 * @typedef {import('./nql-request').Compression} Compression
 * @typedef {'SUBMITTED' | 'IN_PROGRESS' | 'COMPLETED' | 'ERROR'} ExportStatus
 *
 * @typedef {object} ExportRecord
 * @property {string} id
 * @property {string} queryId
 * @property {Query} query                   the definition at start time
 * @property {Record<string, string>} parameters
 * @property {Compression} compression
 * @property {string | undefined} tag        the x-platform-log-custom-tag header
 * @property {string} clientId
 * @property {'GET' | 'POST'} method
 * @property {number} createdAt              server clock, ms
 * @property {number} polls                  status calls answered for it
 * @property {ExportStatus} status
 * @property {boolean} truncated             decided when it completes
 * @property {number | undefined} failedWithHttpStatus
 * @property {readonly (readonly import('./csv').CsvValue[])[] | undefined} snapshotRows
 * @property {string} fileName               `{id}.csv`, `.csv.gz` or `.csv.zst`
 *
 * @typedef {object} ExportDeps
 * @property {import('./queries').QueryRegistry} queries
 * @property {Map<string, ExportRecord>} exports
 * @property {import('./status-quota').StatusQuota} quota
 * @property {import('./signed-urls').UrlSigner} signer
 * @property {() => number} now
 * @property {() => string} baseUrl
 * @property {{ urlLifetimeSeconds: number, retryAfterFormat: 'seconds' | 'http-date' }} options
 */

const FILE_EXTENSIONS = { NONE: '.csv', GZIP: '.csv.gz', ZSTD: '.csv.zst' };

/**
 * The rows of an export's file: the snapshot or the query's rows, cut at the licence limit.
 * @param {ExportRecord} record
 */
function exportRows(record) {
	const rows = record.snapshotRows ?? queryRows(record.query, record.parameters);
	return record.query.truncateAt === undefined ? rows : takeRows(rows, record.query.truncateAt);
}

/**
 * `GET|POST /api/v1/nql/export`.
 * @param {import('./router').Context} ctx
 * @param {ExportDeps} deps
 */
function handleExportStart(ctx, deps) {
	const tag = parseTag(ctx.headers);
	if (!tag.ok) {
		sendJson(ctx.res, 400, tag.error);
		return;
	}
	const parsed = ctx.method === 'POST' ? parseJsonRequest(ctx.body) : parseExportQuery(ctx.query);
	if (!parsed.ok) {
		sendJson(ctx.res, 400, parsed.error);
		return;
	}
	const { queryId, parameters, compression } = parsed.request;
	const query = deps.queries.get(queryId);
	if (!query) {
		sendEmpty(ctx.res, 404);
		return;
	}
	const missing = missingParameters(query, parameters);
	if (missing.length > 0) {
		sendJson(ctx.res, 400, {
			message: `Missing value for query parameter${missing.length > 1 ? 's' : ''} ${missing.map((name) => `$${name}`).join(', ')}`,
			code: 400,
			source: 'parameters',
		});
		return;
	}
	const id = crypto.randomUUID();
	/** @type {ExportRecord} */
	const record = {
		id,
		queryId,
		query,
		parameters,
		compression,
		tag: tag.tag,
		clientId: /** @type {import('./tokens').Client} */ (ctx.client).clientId,
		method: /** @type {'GET' | 'POST'} */ (ctx.method),
		createdAt: deps.now(),
		polls: 0,
		status: 'SUBMITTED',
		truncated: false,
		failedWithHttpStatus: undefined,
		snapshotRows: query.snapshot ? [...queryRows(query, parameters)] : undefined,
		fileName: `${id}${FILE_EXTENSIONS[compression]}`,
	};
	deps.exports.set(id, record);
	sendJson(ctx.res, 200, { exportId: id });
}

/**
 * Moves the export along for one more poll.
 * @param {ExportRecord} record
 * @param {number} now
 */
function advance(record, now) {
	record.polls += 1;
	if (record.status === 'COMPLETED' || record.status === 'ERROR') return;
	const { query } = record;
	const ready = record.polls > query.completeAfterPolls && now - record.createdAt >= query.completeAfterMs;
	if (!ready) {
		record.status = record.polls === 1 ? 'SUBMITTED' : 'IN_PROGRESS';
		return;
	}
	if (query.fail) {
		record.status = 'ERROR';
		if ('httpStatus' in query.fail) record.failedWithHttpStatus = query.fail.httpStatus;
		return;
	}
	record.status = 'COMPLETED';
	if (query.truncateAt !== undefined) {
		record.truncated = hasMoreThan(record.snapshotRows ?? queryRows(query, record.parameters), query.truncateAt);
	}
}

/**
 * `GET /api/v1/nql/status/{exportId}`. The quota is counted before the lookup, so any call counts.
 * @param {import('./router').Context} ctx
 * @param {ExportDeps} deps
 */
function handleStatus(ctx, deps) {
	const now = deps.now();
	const quota = deps.quota.take(/** @type {import('./tokens').Client} */ (ctx.client).clientId);
	if (!quota.allowed) {
		sendEmpty(ctx.res, 429, { 'retry-after': retryAfterValue(quota.resetAt, now, deps.options.retryAfterFormat) });
		return;
	}
	const record = deps.exports.get(ctx.params[0]);
	if (!record) {
		sendEmpty(ctx.res, 404);
		return;
	}
	advance(record, now);
	const fail = record.query.fail;
	if (record.failedWithHttpStatus !== undefined && fail && 'httpStatus' in fail) {
		sendJson(ctx.res, record.failedWithHttpStatus, { message: fail.message, code: record.failedWithHttpStatus, source: 'query' });
		return;
	}
	if (record.status === 'ERROR' && fail && 'errorDescription' in fail) {
		sendJson(ctx.res, 200, { status: 'ERROR', resultsFileUrl: null, errorDescription: fail.errorDescription });
		return;
	}
	if (record.status === 'COMPLETED') {
		const url = deps.signer.sign(deps.baseUrl(), `/files/${record.fileName}`, now, deps.options.urlLifetimeSeconds);
		sendJson(ctx.res, record.truncated ? 206 : 200, { status: 'COMPLETED', resultsFileUrl: url, errorDescription: null });
		return;
	}
	sendJson(ctx.res, 200, { status: record.status, resultsFileUrl: null, errorDescription: null });
}

module.exports = { handleExportStart, handleStatus, exportRows };
