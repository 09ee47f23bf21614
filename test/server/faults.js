// @ts-check
'use strict';

/**
 * Fault injection: a test registers what should go wrong for the next matching request(s).
 *
 * @typedef {object} FaultSpec
 * @property {string} [method]              match only this HTTP method (any when absent)
 * @property {string | RegExp} path         exact pathname (no query string), or a RegExp tested on it
 * @property {number} [times]               how many matching requests it applies to (default 1; Infinity allowed)
 * @property {number} [status]              answer this status instead of the real handler
 * @property {Record<string, string>} [headers]  headers of that answer
 * @property {string | Uint8Array | object} [body]  body of that answer (bytes as they are, e.g. a crafted
 *                                          results file; other objects as JSON)
 * @property {string} [contentType]         content type of that answer (e.g. `text/html` for a proxy's
 *                                          login page with status 200); wins over `headers` and the JSON default
 * @property {boolean} [drop]               destroy the socket without answering
 * @property {number} [dropAfterBytes]      let the real handler answer, cut the connection once N body bytes
 *                                          went out (a body shorter than N completes normally)
 * @property {number} [stallAfterBytes]     let the real handler answer, stop sending once N body bytes went out and
 *                                          keep the connection open without ending the answer (a stalled server)
 * @property {boolean} [corrupt]            let the real handler answer, flip body bytes (offsets 16, 16+4096, ...)
 * @property {number} [delayMs]             wait this long first (then the fault's answer, or the real one)
 * @property {'json' | 'html' | 'header' | 'rows'} [echoRequest]  with a `status`: the answer echoes the request (request line, every
 *                                          header, `Authorization` included, and the body, e.g. the token exchange's
 *                                          form), as a misconfigured gateway's error page does: `json` puts the echo in
 *                                          every field an API or OAuth error may carry (`message`, `details`, `error`,
 *                                          `error_description`, `code`, `source`), `html` in an HTML page,
 *                                          `header` in the `content-type` and `x-echo` headers of an empty answer,
 *                                          `rows` (with status 200) in a row of an execute answer and its
 *                                          `Authorization` header in a column name
 * @property {Promise<unknown>} [holdUntil] wait until this promise settles first (then the fault's answer, or the
 *                                          real one): a test decides when the answer goes out, without timing
 * @property {string} [redirectTo]          with a 3xx `status`: answer a redirect whose `Location` is this origin
 *                                          (e.g. another local server's base URL) plus the request's own path and
 *                                          query, as a gateway that moved the API elsewhere would
 *
 * @typedef {FaultSpec & { remaining: number, hits: number }} Fault
 */

/** Body offsets whose bytes a `corrupt` fault flips: the 17th byte (past any gzip/zstd header) and one per 4 KiB after. */
const CORRUPT_FIRST_OFFSET = 16;
const CORRUPT_STRIDE = 4096;

class FaultRegistry {
	constructor() {
		/** @type {Fault[]} */
		this.faults = [];
	}

	/**
	 * @param {FaultSpec} spec
	 * @returns {Fault} the registered fault; its `hits` counts the requests it applied to
	 */
	add(spec) {
		if (typeof spec.path !== 'string' && !(spec.path instanceof RegExp)) {
			throw new TypeError('injectFault: path must be a string or a RegExp');
		}
		const fault = { ...spec, remaining: spec.times ?? 1, hits: 0 };
		this.faults.push(fault);
		return fault;
	}

	clear() {
		this.faults = [];
	}

	/**
	 * The first registered fault matching this request, consumed once (removed when used up).
	 * @param {string} method
	 * @param {string} path
	 * @returns {Fault | undefined}
	 */
	take(method, path) {
		const index = this.faults.findIndex((fault) => matches(fault, method, path));
		if (index === -1) return undefined;
		const fault = this.faults[index];
		fault.hits += 1;
		fault.remaining -= 1;
		if (fault.remaining <= 0) this.faults.splice(index, 1);
		return fault;
	}
}

/**
 * @param {Fault} fault
 * @param {string} method
 * @param {string} path
 */
function matches(fault, method, path) {
	if (fault.method && fault.method.toUpperCase() !== method) return false;
	return typeof fault.path === 'string' ? fault.path === path : fault.path.test(path);
}

/**
 * Whether the fault replaces the real handler (as opposed to tampering with its answer).
 * @param {Fault} fault
 */
function answersInstead(fault) {
	return fault.status !== undefined;
}

/**
 * Sends the fault's own answer.
 * @param {import('node:http').ServerResponse} res
 * @param {Fault} fault
 * @param {string} [requestUrl]  the request's path and query (for `redirectTo`)
 * @param {{ method: string, headers: import('node:http').IncomingHttpHeaders, body: string }} [request]  for `echoRequest`
 */
function sendFaultAnswer(res, fault, requestUrl = '/', request) {
	const status = /** @type {number} */ (fault.status);
	/** @type {Record<string, string | number>} */
	const headers = { ...(fault.headers ?? {}) };
	if (fault.redirectTo !== undefined) headers.location = new URL(requestUrl, fault.redirectTo).href;
	/** @type {string | Uint8Array} */
	let text = '';
	const echo = fault.echoRequest === undefined ? undefined : echoOf(requestUrl, request);
	if (echo !== undefined && fault.echoRequest === 'json') {
		text = JSON.stringify({ message: echo, details: echo, error: echo, error_description: echo, code: echo, source: echo });
		headers['content-type'] = 'application/json';
	} else if (echo !== undefined && fault.echoRequest === 'rows') {
		// a successful execute answer whose one row quotes the request and whose second column is named
		// after its Authorization header: v1 or v2 by the path
		const column = `echo ${request?.headers.authorization ?? ''}`;
		const rows = requestUrl.includes('/v1/') ? { headers: ['echo', column], data: [[echo, 'x']] } : { data: [{ echo, [column]: 'x' }] };
		text = JSON.stringify({ queryId: '#echo', executedQuery: 'echo', rows: 1, executionDateTime: '2026-01-01T00:00:00Z', ...rows });
		headers['content-type'] = 'application/json';
	} else if (echo !== undefined && fault.echoRequest === 'html') {
		text = `<html><head><title>${status} Gateway error</title></head><body><h1>Request rejected</h1><pre>${echo}</pre></body></html>`;
		headers['content-type'] = 'text/html';
	} else if (echo !== undefined) {
		const line = echo.replace(/[^\x20-\x7e]/g, ' ');
		headers['content-type'] = `application/json; echo="${line.replace(/"/g, "'")}"`;
		headers['x-echo'] = line;
	} else if (typeof fault.body === 'string') text = fault.body;
	else if (fault.body instanceof Uint8Array) {
		text = fault.body;
		if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/octet-stream';
	} else if (fault.body !== undefined) {
		text = JSON.stringify(fault.body);
		if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json';
	}
	if (fault.contentType !== undefined) {
		for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete headers[name];
		headers['content-type'] = fault.contentType;
	}
	headers['content-length'] = Buffer.byteLength(text);
	res.writeHead(status, headers);
	res.end(text);
}

/**
 * The request as a gateway's error page echoes it: request line, every header, then the body.
 * @param {string} requestUrl
 * @param {{ method: string, headers: import('node:http').IncomingHttpHeaders, body: string } | undefined} request
 */
function echoOf(requestUrl, request) {
	if (request === undefined) return `? ${requestUrl}`;
	const headerLines = Object.entries(request.headers).map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`);
	return [`${request.method} ${requestUrl}`, ...headerLines, '', request.body].join('\n');
}

/**
 * @param {Record<string, unknown>} headers
 * @param {string} name
 */
function hasHeader(headers, name) {
	return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/**
 * Makes the response tamper with its own body as the real handler writes it: flip bytes (`corrupt`)
 * and/or close the connection once `dropAfterBytes` body bytes went out, or stop sending (the
 * connection left open, the answer never ended) once `stallAfterBytes` went out.
 * @param {import('node:http').ServerResponse} res
 * @param {Fault} fault
 */
function tamperWithBody(res, fault) {
	const limit = fault.dropAfterBytes ?? fault.stallAfterBytes;
	const stall = fault.dropAfterBytes === undefined && fault.stallAfterBytes !== undefined;
	if (limit === undefined && !fault.corrupt) return;
	const originalWrite = res.write.bind(res);
	const originalEnd = res.end.bind(res);
	let sent = 0;
	let cut = false;

	/** @param {Buffer} chunk */
	const transform = (chunk) => {
		if (!fault.corrupt) return chunk;
		const copy = Buffer.from(chunk);
		for (let i = 0; i < copy.length; i++) {
			const offset = sent + i;
			if (offset >= CORRUPT_FIRST_OFFSET && (offset - CORRUPT_FIRST_OFFSET) % CORRUPT_STRIDE === 0) copy[i] ^= 0xff;
		}
		return copy;
	};

	const cutConnection = () => {
		cut = true;
		if (stall) return; // nothing more is sent; the client or the server's close ends the connection
		// The callback runs once the bytes before the cut reached the socket, so they do arrive.
		const socket = res.socket;
		if (socket) socket.write('', () => res.destroy());
		else res.destroy();
	};

	/**
	 * @param {unknown} data
	 * @param {unknown} [encoding]
	 * @returns {Buffer}
	 */
	const toBuffer = (data, encoding) =>
		Buffer.isBuffer(data)
			? data
			: Buffer.from(/** @type {string} */ (data ?? ''), typeof encoding === 'string' ? /** @type {BufferEncoding} */ (encoding) : 'utf8');

	/**
	 * Writes the chunk (tampered) and reports whether the connection was cut by it.
	 * @param {Buffer} chunk
	 */
	const pass = (chunk) => {
		if (limit !== undefined && sent + chunk.length >= limit) {
			const part = transform(chunk.subarray(0, limit - sent));
			if (part.length > 0) originalWrite(part);
			else res.flushHeaders();
			sent += part.length;
			cutConnection();
			return true;
		}
		originalWrite(transform(chunk));
		sent += chunk.length;
		return false;
	};

	// Replacing write/end is the least intrusive way to tamper with whatever a handler streams.
	/** @type {any} */ (res).write = (/** @type {unknown} */ data, /** @type {unknown[]} */ ...rest) => {
		if (cut) return false;
		const callback = rest.find((arg) => typeof arg === 'function');
		const wasCut = pass(toBuffer(data, rest[0]));
		if (!wasCut && typeof callback === 'function') process.nextTick(callback);
		return !wasCut;
	};
	/** @type {any} */ (res).end = (/** @type {unknown} */ data, /** @type {unknown[]} */ ...rest) => {
		if (cut) return res;
		const callback = [data, ...rest].find((arg) => typeof arg === 'function');
		if (data !== undefined && typeof data !== 'function' && pass(toBuffer(data, rest[0]))) return res;
		if (limit !== undefined && sent >= limit) {
			cutConnection();
			return res;
		}
		return originalEnd(typeof callback === 'function' ? callback : undefined);
	};
}

module.exports = { FaultRegistry, answersInstead, sendFaultAnswer, tamperWithBody };
