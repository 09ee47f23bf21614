// @ts-check
'use strict';

/**
 * Parsing and validation of the NQL requests (export start in both forms, execute). Problems become
 * the NQL API's error response `{ message, code, source }` with `code` = the HTTP status (400) and
 * `source` = the request part at fault.
 *
 * @typedef {'NONE' | 'GZIP' | 'ZSTD'} Compression
 * @typedef {{ message: string, code: number, source: string }} NqlError
 * @typedef {{ queryId: string, parameters: Record<string, string>, compression: Compression }} NqlRequest
 * @typedef {{ ok: true, request: NqlRequest } | { ok: false, error: NqlError }} Parsed
 */

const QUERY_ID_PATTERN = /^#[a-z0-9_]{2,255}$/;
const COMPRESSIONS = ['NONE', 'GZIP', 'ZSTD'];
const MAX_TAG_LENGTH = 255;
const TAG_HEADER = 'x-platform-log-custom-tag';

/**
 * @param {string} message
 * @param {string} source
 * @returns {{ ok: false, error: NqlError }}
 */
function invalid(message, source) {
	return { ok: false, error: { message, code: 400, source } };
}

/**
 * The custom log tag, or an error when it is longer than 255 characters.
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @returns {{ ok: true, tag: string | undefined } | { ok: false, error: NqlError }}
 */
function parseTag(headers) {
	const tag = headers[TAG_HEADER];
	const raw = Array.isArray(tag) ? tag.join(', ') : tag;
	// Node hands header values over as Latin-1 (one character per byte); the tag's bytes are read as
	// UTF-8 and its length counted in characters (code points), as the API documentation's "255 characters" says.
	const value = raw === undefined ? undefined : Buffer.from(raw, 'latin1').toString('utf8');
	if (value !== undefined && [...value].length > MAX_TAG_LENGTH) {
		return invalid(`Header ${TAG_HEADER} must be at most ${MAX_TAG_LENGTH} characters long`, TAG_HEADER);
	}
	return { ok: true, tag: value };
}

/**
 * @param {unknown} queryId
 * @param {unknown} parameters
 * @param {unknown} compression
 * @returns {Parsed}
 */
function validateFields(queryId, parameters, compression) {
	if (queryId === undefined || queryId === null || queryId === '') return invalid('queryId is required', 'queryId');
	if (typeof queryId !== 'string') return invalid('queryId must be a string', 'queryId');
	if (queryId.length > 255 || !QUERY_ID_PATTERN.test(queryId)) {
		return invalid(`queryId must match the pattern ${QUERY_ID_PATTERN.source}`, 'queryId');
	}
	if (compression !== undefined && compression !== null && (typeof compression !== 'string' || !COMPRESSIONS.includes(compression))) {
		return invalid(`compression must be one of ${COMPRESSIONS.join(', ')}`, 'compression');
	}
	if (parameters !== undefined && parameters !== null) {
		if (typeof parameters !== 'object' || Array.isArray(parameters)) return invalid('parameters must be an object', 'parameters');
		for (const [name, value] of Object.entries(parameters)) {
			if (typeof value !== 'string') return invalid(`parameters.${name} must be a string`, 'parameters');
		}
	}
	return {
		ok: true,
		request: {
			queryId,
			parameters: { .../** @type {Record<string, string> | null | undefined} */ (parameters) },
			compression: /** @type {Compression} */ (compression ?? 'NONE'),
		},
	};
}

/**
 * A JSON body `{ queryId, parameters?, compression? }`; execute has no compression, so it passes
 * `withCompression` false and any `compression` member is ignored.
 * @param {string} body
 * @param {boolean} [withCompression]
 * @returns {Parsed}
 */
function parseJsonRequest(body, withCompression = true) {
	let parsed;
	try {
		parsed = JSON.parse(body);
	} catch {
		return invalid('Request body is not valid JSON', 'body');
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return invalid('Request body must be a JSON object', 'body');
	return validateFields(parsed.queryId, parsed.parameters, withCompression ? parsed.compression : undefined);
}

/**
 * Export GET query string: `queryId`, `compression`, `parameters=<JSON object>` and every other key
 * as one parameter (OpenAPI form/explode). A repeated key is not a string, hence invalid.
 * @param {Record<string, string | string[]>} query
 * @returns {Parsed}
 */
function parseExportQuery(query) {
	const { queryId, compression, parameters: json, ...exploded } = query;
	/** @type {Record<string, unknown>} */
	let parameters = { ...exploded };
	if (json !== undefined) {
		if (typeof json !== 'string') return invalid('parameters must be given once', 'parameters');
		let decoded;
		try {
			decoded = JSON.parse(json);
		} catch {
			return invalid('parameters must be a JSON object of strings', 'parameters');
		}
		if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) return invalid('parameters must be an object', 'parameters');
		parameters = { ...decoded, ...parameters };
	}
	if (Array.isArray(queryId)) return invalid('queryId must be given once', 'queryId');
	if (Array.isArray(compression)) return invalid('compression must be given once', 'compression');
	return validateFields(queryId, parameters, compression);
}

module.exports = { parseTag, parseJsonRequest, parseExportQuery, QUERY_ID_PATTERN };
