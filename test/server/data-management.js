// @ts-check
'use strict';

const crypto = require('node:crypto');
const { isObject, sendJson } = require('./http');

/**
 * Data Management API (OpenAPI "Data Management API" 1.0.0): `POST /api/v1/data-management/device/deletions`
 * (operationId `deleteDevices`), its only operation.
 *
 * Body `{ devices: [{ uid, name }] }`, 1 to 100 devices (`maxDevicesPerDeletion`). 202
 * `{ scheduledCount, status: 'ACCEPTED', devices: [{ uid, name, status }] }`, one entry per device in
 * request order, `status` SCHEDULED, INVALID (malformed UID: the device is skipped, the rest proceeds)
 * or FAILED (a downstream error). The answer echoes the request's `x-request-id` (a UUID is generated
 * when none came) and carries `x-trace-id`.
 *
 * Errors, ErrorResponse `{ code, message }` with the six documented codes: 400 `EMPTY_REQUEST`
 * (`devices` missing or empty), 400 `BATCH_SIZE_EXCEEDED` (over the limit), 400 `INVALID_REQUEST`
 * (not JSON, not an object, blank or non-text `uid`/`name`), 400 `EMPTY_TENANT` (`emptyTenant`
 * option), 403 `FEATURE_NOT_ENABLED` (`dataManagementEnabled: false`), 500 `INTERNAL_ERROR` (faults,
 * or an unexpected error). 401 has no body (the router's default). The order of the checks is not
 * documented; here: tenant, feature, JSON, empty, batch size, entries.
 *
 * What the references leave open is behind switches (README, *Data management*): which identifier
 * `uid` is (`deletionUidField`), what an unknown device or a name that does not match gives
 * (`deletionUnknownDevice`, `deletionNameMismatch`), whether a malformed UID is a per-device INVALID
 * or the whole request's 422 from a strict OpenAPI validator (`deletionMalformedUid`), and the order
 * of the per-device answer (`deletionAnswerOrder`).
 *
 * @typedef {'SCHEDULED' | 'INVALID' | 'FAILED'} DeviceStatus
 * @typedef {{ uid: string, name: string, status: DeviceStatus }} DeviceAnswer
 * @typedef {object} DeletionRecord
 * @property {string} requestId   the `x-request-id` answered
 * @property {string} clientId
 * @property {number} at          server clock, ms
 * @property {DeviceAnswer[]} devices  in request order
 *
 * @typedef {object} DataManagementOptions
 * @property {number} maxDevicesPerDeletion
 * @property {boolean} dataManagementEnabled
 * @property {boolean} emptyTenant
 * @property {'uid' | 'collectorUid'} deletionUidField
 * @property {'SCHEDULED' | 'FAILED'} deletionUnknownDevice
 * @property {'ignored' | 'FAILED'} deletionNameMismatch
 * @property {'INVALID' | '422'} deletionMalformedUid
 * @property {'request' | 'reversed'} deletionAnswerOrder
 */

const DELETIONS_PATH = '/api/v1/data-management/device/deletions';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const DATA_MANAGEMENT_OPTION_DEFAULTS = Object.freeze({
	maxDevicesPerDeletion: 100,
	dataManagementEnabled: true,
	emptyTenant: false,
	deletionUidField: /** @type {'uid' | 'collectorUid'} */ ('uid'),
	deletionUnknownDevice: /** @type {'SCHEDULED' | 'FAILED'} */ ('SCHEDULED'),
	deletionNameMismatch: /** @type {'ignored' | 'FAILED'} */ ('ignored'),
	deletionMalformedUid: /** @type {'INVALID' | '422'} */ ('INVALID'),
	deletionAnswerOrder: /** @type {'request' | 'reversed'} */ ('request'),
});

/** The 403 of a credential without the Data management permission: its body is not documented, so the documented one. */
const DATA_MANAGEMENT_FORBIDDEN_BODY = { code: 'FEATURE_NOT_ENABLED', message: 'Access denied: missing permission nx_dataplatform_device_deletion_api' };

class DeviceDeletions {
	constructor() {
		/** @type {DeletionRecord[]} every accepted request, oldest first */
		this.requests = [];
		/** @type {Set<string>} lowercased uids whose deletion fails downstream (FAILED) */
		this.failing = new Set();
	}

	/** The devices answered SCHEDULED so far, oldest first. */
	get scheduled() {
		return this.requests.flatMap((request) => request.devices.filter((device) => device.status === 'SCHEDULED'));
	}
}

/**
 * @param {import('./router').Context} ctx
 * @param {{ deletions: DeviceDeletions, inventory: import('./inventory').Inventory, options: DataManagementOptions, now: () => number }} deps
 */
function handleDeviceDeletions(ctx, { deletions, inventory, options, now }) {
	const given = ctx.headers['x-request-id'];
	const requestId = typeof given === 'string' && given !== '' ? given : crypto.randomUUID();
	const correlation = { 'x-request-id': requestId, 'x-trace-id': crypto.randomBytes(16).toString('hex') };
	/** @param {number} status @param {string} code @param {string} message */
	const error = (status, code, message) => sendJson(ctx.res, status, { code, message }, correlation);

	if (options.emptyTenant) return error(400, 'EMPTY_TENANT', 'Tenant context could not be resolved from the JWT claims');
	if (!options.dataManagementEnabled) return error(403, 'FEATURE_NOT_ENABLED', 'The Data management API is not enabled for this tenant');
	let body;
	try {
		body = JSON.parse(ctx.body);
	} catch {
		return error(400, 'INVALID_REQUEST', 'Request body is not valid JSON');
	}
	if (!isObject(body)) return error(400, 'INVALID_REQUEST', 'Request body must be a JSON object');
	const { devices } = body;
	if (devices === undefined || devices === null || (Array.isArray(devices) && devices.length === 0)) {
		return error(400, 'EMPTY_REQUEST', 'The devices array is empty or missing');
	}
	if (!Array.isArray(devices)) return error(400, 'INVALID_REQUEST', 'devices must be an array');
	if (devices.length > options.maxDevicesPerDeletion) {
		return error(400, 'BATCH_SIZE_EXCEEDED', `At most ${options.maxDevicesPerDeletion} devices per request, got ${devices.length}`);
	}
	for (const [index, entry] of devices.entries()) {
		if (!isObject(entry)) return error(400, 'INVALID_REQUEST', `devices[${index}] must be an object`);
		for (const field of ['uid', 'name']) {
			const value = entry[field];
			if (typeof value !== 'string' || value.trim() === '') return error(400, 'INVALID_REQUEST', `devices[${index}].${field} must not be blank`);
		}
	}
	const entries = /** @type {Array<{ uid: string, name: string }>} */ (devices);
	if (options.deletionMalformedUid === '422') {
		const malformed = entries.findIndex((entry) => !UUID.test(entry.uid));
		if (malformed !== -1) {
			sendJson(ctx.res, 422, { message: `devices[${malformed}].uid: must be a valid UUID` }, correlation);
			return;
		}
	}

	const answers = entries.map((entry) => ({ uid: entry.uid, name: entry.name, status: deviceStatus(entry, deletions, inventory, options) }));
	deletions.requests.push({ requestId, clientId: /** @type {import('./tokens').Client} */ (ctx.client).clientId, at: now(), devices: answers });
	const scheduledCount = answers.filter((answer) => answer.status === 'SCHEDULED').length;
	const listed = options.deletionAnswerOrder === 'reversed' ? [...answers].reverse() : answers;
	sendJson(ctx.res, 202, { scheduledCount, status: 'ACCEPTED', devices: listed }, correlation);
}

/**
 * @param {{ uid: string, name: string }} entry
 * @param {DeviceDeletions} deletions
 * @param {import('./inventory').Inventory} inventory
 * @param {DataManagementOptions} options
 * @returns {DeviceStatus}
 */
function deviceStatus(entry, deletions, inventory, options) {
	if (!UUID.test(entry.uid)) return 'INVALID';
	if (deletions.failing.has(entry.uid.toLowerCase())) return 'FAILED';
	const device = options.deletionUidField === 'collectorUid' ? inventory.findDeviceByCollectorUid(entry.uid) : inventory.devices.get(entry.uid.toLowerCase());
	if (device === undefined) return options.deletionUnknownDevice;
	if (options.deletionNameMismatch === 'FAILED' && device.name.toLowerCase() !== entry.name.toLowerCase()) return 'FAILED';
	return 'SCHEDULED';
}

module.exports = { DeviceDeletions, handleDeviceDeletions, DELETIONS_PATH, DATA_MANAGEMENT_OPTION_DEFAULTS, DATA_MANAGEMENT_FORBIDDEN_BODY };
