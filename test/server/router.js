// @ts-check
'use strict';

const { readBodyBytes, headerBytes, sendJson, sendEmpty, queryObject } = require('./http');
const { answersInstead, sendFaultAnswer, tamperWithBody } = require('./faults');
const { REMOTE_ACTION_FORBIDDEN_BODY } = require('./remote-actions');
const { WORKFLOW_FORBIDDEN_BODY } = require('./workflows');
const { DATA_MANAGEMENT_FORBIDDEN_BODY } = require('./data-management');
const { SPARK_FORBIDDEN_BODY } = require('./spark');

/**
 * Turns the route table into a request listener. Every request is recorded first, then faults get
 * their chance, then the route runs behind the bearer and permission checks it asks for.
 *
 * @typedef {import('./tokens').Client} Client
 * @typedef {import('./tokens').Permission} Permission
 *
 * @typedef {object} Context
 * @property {import('node:http').IncomingMessage} req
 * @property {import('node:http').ServerResponse} res
 * @property {string} method
 * @property {URL} url
 * @property {string} path
 * @property {Record<string, string | string[]>} query
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {string} body
 * @property {string[]} params  the route pattern's capture groups (decoded)
 * @property {Client | undefined} client  the bearer token's client on authenticated routes
 *
 * @typedef {object} Route
 * @property {string[]} methods
 * @property {RegExp} pattern  matched against the whole pathname
 * @property {'none' | 'bearer'} auth
 * @property {Permission} [permission]  needed on top of a valid bearer token
 * @property {object} [unauthorizedBody]  body of the 401 (default: none)
 * @property {(ctx: Context) => void | Promise<void>} handle
 *
 * @typedef {object} RecordedRequest
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string | string[]>} query
 * @property {import('node:http').IncomingHttpHeaders} headers  names lowercased, as Node gives them
 * @property {Record<string, Buffer>} headerBytes  the exact bytes of each header value received, names lowercased
 * @property {string} body
 * @property {Buffer} bodyBytes  the exact bytes of the body received
 * @property {number} at  server clock, ms
 */

/**
 * 403 bodies differ by API: the NQL API answers its error response, the Enrichment API only a
 * message, Remote Actions `{ code, message }`, Workflows `{ code, details }`; the Campaigns API
 * declares its 403 without a body (undefined here); Data management and Spark their ErrorResponse.
 * @type {Record<Permission, object | undefined>}
 */
const FORBIDDEN = {
	nql: { message: 'Not authorized to execute queries', code: 403, source: 'authorization' },
	enrichment: { message: 'No permission to trigger enrichment' },
	remoteActions: REMOTE_ACTION_FORBIDDEN_BODY,
	workflows: WORKFLOW_FORBIDDEN_BODY,
	campaigns: undefined,
	dataManagement: DATA_MANAGEMENT_FORBIDDEN_BODY,
	spark: SPARK_FORBIDDEN_BODY,
};

/**
 * @param {object} deps
 * @param {Route[]} deps.routes
 * @param {import('./tokens').TokenIssuer} deps.tokens
 * @param {import('./faults').FaultRegistry} deps.faults
 * @param {(request: RecordedRequest) => void} deps.record
 * @param {() => number} deps.now
 */
function createRequestListener({ routes, tokens, faults, record, now }) {
	/**
	 * @param {import('node:http').IncomingMessage} req
	 * @param {import('node:http').ServerResponse} res
	 */
	return async (req, res) => {
		try {
			const method = (req.method ?? 'GET').toUpperCase();
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const path = url.pathname;
			const query = queryObject(url.searchParams);
			const bodyBytes = await readBodyBytes(req);
			const body = bodyBytes.toString('utf8');
			record({ method, path, query, headers: { ...req.headers }, headerBytes: headerBytes(req), body, bodyBytes, at: now() });

			const fault = faults.take(method, path);
			if (fault) {
				if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
				if (fault.holdUntil) await fault.holdUntil.catch(() => undefined);
				if (fault.drop) {
					req.socket.destroy();
					return;
				}
				if (answersInstead(fault)) {
					sendFaultAnswer(res, fault, req.url, { method, headers: req.headers, body });
					return;
				}
				tamperWithBody(res, fault);
			}

			const candidates = routes.filter((route) => route.pattern.test(path));
			if (candidates.length === 0) {
				sendEmpty(res, 404);
				return;
			}
			const route = candidates.find((candidate) => candidate.methods.includes(method));
			if (!route) {
				sendEmpty(res, 405, { allow: [...new Set(candidates.flatMap((candidate) => candidate.methods))].join(', ') });
				return;
			}
			const params = (/** @type {RegExpExecArray} */ (route.pattern.exec(path))).slice(1).map(decodeURIComponent);
			/** @type {Context} */
			const ctx = { req, res, method, url, path, query, headers: req.headers, body, params, client: undefined };
			if (route.auth === 'bearer') {
				ctx.client = tokens.verify(req.headers.authorization);
				if (!ctx.client) {
					if (route.unauthorizedBody) sendJson(res, 401, route.unauthorizedBody, { 'www-authenticate': 'Bearer' });
					else sendEmpty(res, 401, { 'www-authenticate': 'Bearer' });
					return;
				}
				if (route.permission && !ctx.client.permissions.includes(route.permission)) {
					const forbidden = FORBIDDEN[route.permission];
					if (forbidden) sendJson(res, 403, forbidden);
					else sendEmpty(res, 403);
					return;
				}
			}
			await route.handle(ctx);
		} catch (error) {
			if (!res.headersSent) {
				sendJson(res, 500, { message: `Internal server error: ${error.message}`, code: 500, source: 'server' });
			} else {
				res.destroy();
			}
		}
	};
}

module.exports = { createRequestListener };
