// @ts-check
'use strict';

/**
 * Small helpers shared by the route handlers: reading request bodies (and a JSON object body) and
 * writing the few response shapes the API uses (JSON, empty, XML). Every answer goes through here so headers stay consistent.
 */

/** Bodies above this size are refused; 10,000 enrichment objects stay far below it. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * The raw header bytes of a request, names lowercased: Node's parser reads each header byte as one
 * Latin-1 character, so `Buffer.from(value, 'latin1')` is the exact bytes received (a repeated
 * header's values joined with `, `).
 * @param {import('node:http').IncomingMessage} req
 * @returns {Record<string, Buffer>}
 */
function headerBytes(req) {
	/** @type {Record<string, Buffer>} */
	const out = Object.create(null);
	for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
		const name = req.rawHeaders[i].toLowerCase();
		const bytes = Buffer.from(req.rawHeaders[i + 1], 'latin1');
		out[name] = name in out ? Buffer.concat([out[name], Buffer.from(', '), bytes]) : bytes;
	}
	return out;
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<string>}
 */
async function readBody(req) {
	return (await readBodyBytes(req)).toString('utf8');
}

/**
 * The request body exactly as the bytes arrived.
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<Buffer>}
 */
function readBodyBytes(req) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		req.on('data', (/** @type {Buffer} */ chunk) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new Error(`request body larger than ${MAX_BODY_BYTES} bytes`));
				req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
function sendJson(res, status, body, headers = {}) {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(text),
		...headers,
	});
	res.end(text);
}

/**
 * An answer without a body (the API documents show none for 401, 404, 406, 429, 503).
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {Record<string, string>} [headers]
 */
function sendEmpty(res, status, headers = {}) {
	res.writeHead(status, { 'content-length': 0, ...headers });
	res.end();
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} contentType
 * @param {string} text
 */
function sendText(res, status, contentType, text) {
	res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
	res.end(text);
}

/**
 * Object-storage style error document, as S3 answers pre-signed URL problems.
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} code
 * @param {string} message
 */
function sendStorageError(res, status, code, message) {
	const xml =
		'<?xml version="1.0" encoding="UTF-8"?>\n' +
		`<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${Date.now().toString(16)}</RequestId></Error>`;
	sendText(res, status, 'application/xml', xml);
}

/**
 * Query string as an object: a key seen once maps to its value, a repeated key to all its values.
 * @param {URLSearchParams} searchParams
 * @returns {Record<string, string | string[]>}
 */
function queryObject(searchParams) {
	// No prototype: keys such as constructor or __proto__ are ordinary keys (own data properties).
	/** @type {Record<string, string | string[]>} */
	const query = Object.create(null);
	for (const [key, value] of searchParams) {
		const seen = query[key];
		if (seen === undefined) query[key] = value;
		else if (Array.isArray(seen)) seen.push(value);
		else query[key] = [seen, value];
	}
	return query;
}

/**
 * Media type of a header value without parameters, lowercased ('' when absent).
 * @param {string | undefined} value
 */
function mediaType(value) {
	return (value ?? '').split(';')[0].trim().toLowerCase();
}

/** @param {unknown} value @returns {value is Record<string, unknown>} */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A request body that must be a JSON object (every JSON API here), or the problem all of them report
 * for it: `problem` names the entry of the handler's `CODES` (`invalidJson` or `invalidRequest`).
 * @param {string} body
 * @returns {{ ok: true, value: Record<string, unknown> } | { ok: false, problem: 'invalidJson' | 'invalidRequest', message: string }}
 */
function parseJsonObject(body) {
	let parsed;
	try {
		parsed = JSON.parse(body);
	} catch {
		return { ok: false, problem: 'invalidJson', message: 'Request body is not valid JSON' };
	}
	if (!isObject(parsed)) return { ok: false, problem: 'invalidRequest', message: 'Request body must be a JSON object' };
	return { ok: true, value: parsed };
}

module.exports = { readBody, readBodyBytes, headerBytes, sendJson, sendEmpty, sendText, sendStorageError, queryObject, mediaType, isObject, parseJsonObject };
