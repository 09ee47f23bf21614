// @ts-check
'use strict';

const { isObject, parseJsonObject, sendJson } = require('./http');
const { remoteActionJson, UUID_PATTERN } = require('./actions');

/**
 * Remote Actions API (OpenAPI "Remote Actions API" 1.0.0):
 * - `POST /api/v1/act/execute`: trigger a remote action on up to 10,000 devices (Collector UIDs);
 *   200 `{ requestId, expiresInMinutes }`, one request id for the whole batch.
 * - `GET /api/v1/act/remote-action`: every remote action, API-enabled or not (query parameters ignored).
 * - `GET /api/v1/act/remote-action/details?nql-id=<id>`: one remote action, 404 when unknown.
 *
 * Errors use the API's `ErrorResponse` `{ code, message }`. The real `code` values are not public;
 * the ones here are listed in `CODES` and README.md.
 *
 * @typedef {import('./actions').ActionStore} ActionStore
 * @typedef {{ code: string, message: string }} RaError
 */

const MAX_DEVICES = 10000;
const MIN_EXPIRY_MINUTES = 60;
const MAX_EXPIRY_MINUTES = 10080;
/** Not documented; what the PowerShell client always sends. */
const DEFAULT_EXPIRY_MINUTES = 60;
const MAX_REASON_LENGTH = 500;

const CODES = {
	invalidJson: 'INVALID_JSON',
	invalidRequest: 'INVALID_REQUEST',
	invalidRemoteActionId: 'INVALID_REMOTE_ACTION_ID',
	invalidDevices: 'INVALID_DEVICES',
	invalidDeviceId: 'INVALID_DEVICE_ID',
	invalidParams: 'INVALID_PARAMS',
	invalidExpiration: 'INVALID_EXPIRATION',
	invalidTriggerInfo: 'INVALID_TRIGGER_INFO',
	missingNqlId: 'MISSING_NQL_ID',
	notFound: 'REMOTE_ACTION_NOT_FOUND',
	notApiEnabled: 'REMOTE_ACTION_NOT_API_ENABLED',
	forbidden: 'FORBIDDEN',
};

/** 403 for a credential without the Remote Actions API permission (used by the router). */
const FORBIDDEN_BODY = { code: CODES.forbidden, message: 'Not authorized: the API credential does not have the Remote Actions API permission' };

/**
 * @param {string} code
 * @param {string} message
 * @returns {{ ok: false, status: number, error: RaError }}
 */
const fail = (code, message, status = 400) => ({ ok: false, status, error: { code, message } });

/**
 * Validates an execute body against the schema and the remote action it names.
 * @param {string} body
 * @param {ActionStore} store
 */
function parseExecute(body, store) {
	const read = parseJsonObject(body);
	if (!read.ok) return fail(CODES[read.problem], read.message);
	const parsed = read.value;
	const { remoteActionId, devices, params, expiresInMinutes, triggerInfo } = parsed;
	if (typeof remoteActionId !== 'string' || remoteActionId.length === 0) {
		return fail(CODES.invalidRemoteActionId, 'remoteActionId is required and must be a non-empty string');
	}
	if (!Array.isArray(devices)) return fail(CODES.invalidDevices, 'devices is required and must be an array of Collector IDs');
	if (devices.length === 0) return fail(CODES.invalidDevices, 'devices must contain at least 1 Collector ID');
	if (devices.length > MAX_DEVICES) return fail(CODES.invalidDevices, `devices must contain at most ${MAX_DEVICES} Collector IDs, got ${devices.length}`);
	for (const [index, device] of devices.entries()) {
		if (typeof device !== 'string' || !UUID_PATTERN.test(device)) {
			return fail(CODES.invalidDeviceId, `devices[${index}] must be a Collector ID (UUID), got ${JSON.stringify(device)}`);
		}
	}
	if (expiresInMinutes !== undefined && expiresInMinutes !== null) {
		if (typeof expiresInMinutes !== 'number' || !Number.isInteger(expiresInMinutes) || expiresInMinutes < MIN_EXPIRY_MINUTES || expiresInMinutes > MAX_EXPIRY_MINUTES) {
			return fail(CODES.invalidExpiration, `expiresInMinutes must be an integer from ${MIN_EXPIRY_MINUTES} to ${MAX_EXPIRY_MINUTES}, got ${JSON.stringify(expiresInMinutes)}`);
		}
	}
	if (triggerInfo !== undefined && triggerInfo !== null) {
		if (!isObject(triggerInfo)) return fail(CODES.invalidTriggerInfo, 'triggerInfo must be an object');
		for (const key of ['externalSource', 'reason', 'externalReference']) {
			if (triggerInfo[key] !== undefined && triggerInfo[key] !== null && typeof triggerInfo[key] !== 'string') {
				return fail(CODES.invalidTriggerInfo, `triggerInfo.${key} must be a string`);
			}
		}
		if (typeof triggerInfo.reason === 'string' && [...triggerInfo.reason].length > MAX_REASON_LENGTH) {
			return fail(CODES.invalidTriggerInfo, `triggerInfo.reason must be at most ${MAX_REASON_LENGTH} characters long`);
		}
	}
	if (params !== undefined && params !== null) {
		if (!isObject(params)) return fail(CODES.invalidParams, 'params must be an object of strings');
		for (const [name, value] of Object.entries(params)) {
			if (typeof value !== 'string') return fail(CODES.invalidParams, `params.${name} must be a string`);
		}
	}
	const ra = store.remoteActions.get(remoteActionId);
	if (!ra) return fail(CODES.notFound, `No remote action with the NQL ID ${remoteActionId}`);
	if (!ra.apiEnabled) {
		return fail(CODES.notApiEnabled, `Remote action ${remoteActionId} cannot be triggered through the API: tick API in its targeting options`, 403);
	}
	// Inputs: every given name must be an input of the script, every input needs a value, and an
	// input without custom values takes one of its options.
	const given = /** @type {Record<string, string>} */ (params ?? {});
	for (const name of Object.keys(given)) {
		if (!ra.inputs.some((input) => input.id === name)) {
			return fail(CODES.invalidParams, `params.${name} is not an input of ${ra.id}; its inputs are: ${ra.inputs.map((input) => input.id).join(', ') || 'none'}`);
		}
	}
	for (const input of ra.inputs) {
		if (!Object.prototype.hasOwnProperty.call(given, input.id)) return fail(CODES.invalidParams, `params.${input.id} is required by ${ra.id}`);
		if (!input.allowCustomValue && !input.options.includes(given[input.id])) {
			return fail(CODES.invalidParams, `params.${input.id} must be one of ${input.options.join(', ')}, got ${JSON.stringify(given[input.id])}`);
		}
	}
	return {
		ok: /** @type {const} */ (true),
		ra,
		devices: /** @type {string[]} */ (devices),
		expiresInMinutes: /** @type {number | undefined} */ (expiresInMinutes ?? undefined) ?? DEFAULT_EXPIRY_MINUTES,
		body: parsed,
	};
}

/**
 * `POST /api/v1/act/execute`. One execution per distinct Collector ID (case-insensitive).
 * @param {import('./router').Context} ctx
 * @param {ActionStore} store
 */
function handleExecuteRemoteAction(ctx, store) {
	const parsed = parseExecute(ctx.body, store);
	if (!parsed.ok) {
		sendJson(ctx.res, parsed.status, parsed.error);
		return;
	}
	const seen = new Set();
	/** @type {import('./actions').Target[]} */
	const targets = [];
	parsed.devices.forEach((collectorUid, index) => {
		const key = collectorUid.toLowerCase();
		if (seen.has(key)) return;
		seen.add(key);
		targets.push({ input: collectorUid, index, type: 'device', object: store.inventory.findDeviceByCollectorUid(collectorUid) });
	});
	const request = store.record({
		kind: 'remote_action',
		objectId: parsed.ra.id,
		objectName: parsed.ra.name,
		clientId: /** @type {import('./tokens').Client} */ (ctx.client).clientId,
		body: parsed.body,
		targets,
		expiresInMinutes: parsed.expiresInMinutes,
		outcome: parsed.ra.outcome,
		remoteAction: parsed.ra,
	});
	sendJson(ctx.res, 200, { requestId: request.requestId, expiresInMinutes: parsed.expiresInMinutes });
}

/**
 * `GET /api/v1/act/remote-action`: all remote actions, API-enabled or not. The OpenAPI declares no
 * query parameters, so any are ignored (clients filter on `targeting.apiEnabled` themselves).
 * @param {import('./router').Context} ctx
 * @param {ActionStore} store
 */
function handleListRemoteActions(ctx, store) {
	sendJson(ctx.res, 200, [...store.remoteActions.values()].map(remoteActionJson));
}

/**
 * `GET /api/v1/act/remote-action/details?nql-id=<id>`.
 * @param {import('./router').Context} ctx
 * @param {ActionStore} store
 */
function handleRemoteActionDetails(ctx, store) {
	const id = ctx.query['nql-id'];
	if (typeof id !== 'string' || id.length === 0) {
		sendJson(ctx.res, 400, { code: CODES.missingNqlId, message: 'Query parameter nql-id is required (once)' });
		return;
	}
	const ra = store.remoteActions.get(id);
	if (!ra) {
		sendJson(ctx.res, 404, { code: CODES.notFound, message: `No remote action associated with the NQL ID ${id}` });
		return;
	}
	sendJson(ctx.res, 200, remoteActionJson(ra));
}

module.exports = {
	handleExecuteRemoteAction,
	handleListRemoteActions,
	handleRemoteActionDetails,
	REMOTE_ACTION_ERROR_CODES: CODES,
	REMOTE_ACTION_FORBIDDEN_BODY: FORBIDDEN_BODY,
	MAX_DEVICES,
};
