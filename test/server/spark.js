// @ts-check
'use strict';

const { isObject, sendJson, sendEmpty } = require('./http');

/**
 * Spark Handoff API (OpenAPI "public-api" 1.0.0): `POST /api/v1/spark/handoff` (operationId
 * `handleHandoffRequest`), its only operation. Spark continues the conversation in Microsoft Teams;
 * nothing comes back through the API.
 *
 * Headers: `User-Principal-Name` (required), `Timezone` (optional; its format is not documented, here
 * an IANA name as both public clients send, checked with `Intl`). Body
 * `{ message: { parts: [TEXT { type, text } | FILE { type, mimeType, fileContent }] (≥ 1) }, metadata?: { string: string } | null }`.
 *
 * Answers: 204 without a body (`sparkSuccessStatus: 200` answers 200, as a public client reports the
 * live API may); 400 for a bad header or body (no body schema is documented: `{ message }` here, or
 * nothing with `sparkBadRequestBody: 'empty'`); 404 `{ message }` for a UPN Spark does not know (the
 * users are the inventory's UPNs and `sparkUsers`); 403 `{ message }` without the Spark API permission
 * (the router) or with `sparkEnabled: false`; 401 without a body; 500, 502, 503 through faults.
 *
 * @typedef {object} Handoff
 * @property {string} upn
 * @property {string | undefined} timezone
 * @property {Array<{ type: 'TEXT', text: string } | { type: 'FILE', mimeType: string, fileContent: string }>} parts
 * @property {Record<string, string> | null | undefined} metadata
 * @property {string} clientId
 * @property {number} at  server clock, ms
 *
 * @typedef {object} SparkOptions
 * @property {boolean} sparkEnabled
 * @property {200 | 204} sparkSuccessStatus
 * @property {'message' | 'empty'} sparkBadRequestBody
 */

const HANDOFF_PATH = '/api/v1/spark/handoff';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const SPARK_OPTION_DEFAULTS = Object.freeze({
	sparkEnabled: true,
	sparkSuccessStatus: /** @type {200 | 204} */ (204),
	sparkBadRequestBody: /** @type {'message' | 'empty'} */ ('message'),
});

const SPARK_FORBIDDEN_BODY = { message: 'Forbidden: the API credential lacks the Spark API permission' };

class SparkHandoffs {
	constructor() {
		/** @type {Handoff[]} every accepted handoff, oldest first */
		this.handoffs = [];
		/** @type {Set<string>} lowercased UPNs Spark knows besides the inventory's users */
		this.users = new Set();
	}
}

/**
 * @param {import('./router').Context} ctx
 * @param {{ spark: SparkHandoffs, inventory: import('./inventory').Inventory, options: SparkOptions, now: () => number }} deps
 */
function handleHandoff(ctx, { spark, inventory, options, now }) {
	/** @param {string} message */
	const badRequest = (message) => (options.sparkBadRequestBody === 'empty' ? sendEmpty(ctx.res, 400) : sendJson(ctx.res, 400, { message }));
	if (!options.sparkEnabled) return sendJson(ctx.res, 403, { message: 'Spark is not enabled for this tenant' });

	const upn = header(ctx, 'user-principal-name');
	if (upn === undefined || upn.trim() === '') return badRequest('Required header User-Principal-Name is missing');
	const timezone = header(ctx, 'timezone');
	if (timezone !== undefined && !isTimeZone(timezone)) return badRequest(`Invalid Timezone: ${timezone}`);
	let body;
	try {
		body = JSON.parse(ctx.body);
	} catch {
		return badRequest('Request body is not valid JSON');
	}
	if (!isObject(body) || !isObject(body.message)) return badRequest('message is required');
	const parts = body.message.parts;
	if (!Array.isArray(parts) || parts.length === 0) return badRequest('message.parts must contain at least one part');
	for (const [index, part] of parts.entries()) {
		const problem = partProblem(part);
		if (problem !== undefined) return badRequest(`message.parts[${index}]: ${problem}`);
	}
	const { metadata } = body;
	if (metadata !== undefined && metadata !== null) {
		if (!isObject(metadata)) return badRequest('metadata must be an object of strings');
		const notText = Object.keys(metadata).find((key) => typeof metadata[key] !== 'string');
		if (notText !== undefined) return badRequest(`metadata.${notText} must be a string`);
	}
	if (inventory.find('user/user/upn', upn) === undefined && !spark.users.has(upn.toLowerCase())) {
		sendJson(ctx.res, 404, { message: `User not found: ${upn}` });
		return;
	}
	spark.handoffs.push({
		upn,
		timezone,
		parts: /** @type {Handoff['parts']} */ (parts),
		metadata: /** @type {Handoff['metadata']} */ (metadata),
		clientId: /** @type {import('./tokens').Client} */ (ctx.client).clientId,
		at: now(),
	});
	sendEmpty(ctx.res, options.sparkSuccessStatus);
}

/** @param {unknown} part @returns {string | undefined} */
function partProblem(part) {
	if (!isObject(part)) return 'must be an object';
	if (part.type === 'TEXT') return typeof part.text === 'string' && part.text.length > 0 ? undefined : 'text must be a non-empty string';
	if (part.type === 'FILE') {
		if (typeof part.mimeType !== 'string' || part.mimeType.length === 0) return 'mimeType must be a non-empty string';
		if (typeof part.fileContent !== 'string') return 'fileContent must be a string';
		return BASE64.test(part.fileContent) ? undefined : 'fileContent must be base64';
	}
	return `type must be TEXT or FILE, got ${JSON.stringify(part.type)}`;
}

/** @param {import('./router').Context} ctx @param {string} name */
function header(ctx, name) {
	const value = ctx.headers[name];
	return Array.isArray(value) ? value.join(',') : value;
}

/** @param {string} name */
function isTimeZone(name) {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: name });
		return true;
	} catch {
		return false;
	}
}

module.exports = { SparkHandoffs, handleHandoff, HANDOFF_PATH, SPARK_OPTION_DEFAULTS, SPARK_FORBIDDEN_BODY };
