// @ts-check
'use strict';

const crypto = require('node:crypto');
const { isObject, parseJsonObject, sendJson } = require('./http');
const { workflowJson, UUID_PATTERN, SID_PATTERN, UPN_PATTERN } = require('./actions');

/**
 * Workflows API (OpenAPI "Workflows" 1.0.0):
 * - `POST /api/v1/workflows/execute`: devices as Collector UIDs, users as SIDs.
 * - `POST /api/v2/workflows/execute`: devices `{ collectorUid?, uid?, name? }`, users `{ sid?, upn?, uid? }`.
 *   Both answer 200 `{ requestUuid, executionsUuids }`, one execution per target: devices in request
 *   order, then users.
 * - `POST /api/v1/workflows/workflows/{workflowUuid}/execution/{executionUuid}/trigger`: resume an
 *   execution waiting for an event; 200 `[{ requestUuid }]`.
 * - `GET /api/v1/workflows?dependency=&triggerMethod=&fetchOnlyActiveWorkflows=`: both filters required.
 * - `GET /api/v1/workflows/details?nqlId=<id>` (also `nql-id`): an array, empty when nothing matches.
 *
 * Every error body is the Workflows `ErrorResponse` `{ code, details }` (not `message`). The real
 * `code` values are not public; the ones here are listed in `CODES` and README.md. The optional
 * `Source` header is accepted and kept on the request (its meaning is not documented).
 *
 * @typedef {import('./actions').ActionStore} ActionStore
 * @typedef {import('./actions').Target} Target
 * @typedef {{ code: string, details: string }} WfError
 */

const MAX_TARGETS = 10000;
const DEPENDENCIES = ['USER', 'DEVICE', 'USER_AND_DEVICE', 'NONE'];
const TRIGGER_METHODS = ['API', 'MANUAL', 'MANUAL_MULTIPLE', 'SCHEDULER'];
/** Filter value → the `triggerMethods` flag it selects. */
const TRIGGER_FLAGS = /** @type {const} */ ({ API: 'apiEnabled', MANUAL: 'manualEnabled', MANUAL_MULTIPLE: 'manualMultipleEnabled', SCHEDULER: 'schedulerEnabled' });

const CODES = {
	invalidJson: 'INVALID_JSON',
	invalidRequest: 'INVALID_REQUEST',
	invalidWorkflowId: 'INVALID_WORKFLOW_ID',
	invalidDevices: 'INVALID_DEVICES',
	invalidUsers: 'INVALID_USERS',
	noTargets: 'NO_TARGETS',
	invalidParams: 'INVALID_PARAMS',
	notFound: 'WORKFLOW_NOT_FOUND',
	inactive: 'WORKFLOW_INACTIVE',
	notApiEnabled: 'WORKFLOW_NOT_API_ENABLED',
	invalidFilter: 'INVALID_FILTER',
	missingNqlId: 'MISSING_NQL_ID',
	invalidUuid: 'INVALID_UUID',
	executionNotFound: 'EXECUTION_NOT_FOUND',
	executionNotWaiting: 'EXECUTION_NOT_WAITING',
	forbidden: 'FORBIDDEN',
};

/** 403 for a credential without the Workflows API permission (used by the router). */
const FORBIDDEN_BODY = { code: CODES.forbidden, details: 'Not authorized: the API credential does not have the Workflows API permission' };

/**
 * @param {string} code
 * @param {string} details
 * @returns {{ ok: false, status: number, error: WfError }}
 */
const fail = (code, details, status = 400) => ({ ok: false, status, error: { code, details } });

/** @param {string} body */
function parseObject(body) {
	const read = parseJsonObject(body);
	return read.ok ? read : fail(CODES[read.problem], read.message);
}

/**
 * A list member: absent/null = empty; else an array of at most 10,000 entries.
 * @param {unknown} value
 * @param {'devices' | 'users'} name
 */
function targetList(value, name) {
	const code = name === 'devices' ? CODES.invalidDevices : CODES.invalidUsers;
	if (value === undefined || value === null) return { ok: /** @type {const} */ (true), list: /** @type {unknown[]} */ ([]) };
	if (!Array.isArray(value)) return fail(code, `${name} must be an array`);
	if (value.length > MAX_TARGETS) return fail(code, `${name} must contain at most ${MAX_TARGETS} entries, got ${value.length}`);
	return { ok: /** @type {const} */ (true), list: /** @type {unknown[]} */ (value) };
}

/**
 * Checks one v1 entry (a Collector UID or a SID).
 * @param {unknown} entry
 * @param {'devices' | 'users'} name
 * @param {number} index
 */
function checkV1Entry(entry, name, index) {
	if (name === 'devices') {
		if (typeof entry !== 'string' || !UUID_PATTERN.test(entry)) return `devices[${index}] must be a Collector ID (UUID), got ${JSON.stringify(entry)}`;
	} else if (typeof entry !== 'string' || !SID_PATTERN.test(entry)) {
		return `users[${index}] must be a SID matching ${SID_PATTERN.source}, got ${JSON.stringify(entry)}`;
	}
	return undefined;
}

/**
 * Checks one v2 identifier object; at least one identifier, each matching its pattern.
 * @param {unknown} entry
 * @param {'devices' | 'users'} name
 * @param {number} index
 */
function checkV2Entry(entry, name, index) {
	const where = `${name}[${index}]`;
	if (!isObject(entry)) return `${where} must be an object`;
	const patterns =
		name === 'devices'
			? { collectorUid: UUID_PATTERN, uid: UUID_PATTERN, name: /^.+$/s }
			: { sid: SID_PATTERN, upn: UPN_PATTERN, uid: UUID_PATTERN };
	let given = 0;
	for (const [key, pattern] of Object.entries(patterns)) {
		const value = entry[key];
		if (value === undefined || value === null) continue;
		if (typeof value !== 'string' || !pattern.test(value)) return `${where}.${key} must match ${pattern.source}, got ${JSON.stringify(value)}`;
		given += 1;
	}
	if (given === 0) return `${where} must have at least one of ${Object.keys(patterns).join(', ')}`;
	return undefined;
}

/**
 * The inventory object a target names. v2 identifiers are tried in the order collectorUid / sid,
 * uid, name / upn; the first one that matches wins.
 * @param {ActionStore} store
 * @param {unknown} entry
 * @param {'device' | 'user'} type
 */
function resolve(store, entry, type) {
	const inventory = store.inventory;
	if (typeof entry === 'string') return type === 'device' ? inventory.findDeviceByCollectorUid(entry) : inventory.find('user/user/sid', entry);
	const ids = /** @type {Record<string, string | undefined>} */ (entry);
	if (type === 'device') {
		return (
			(ids.collectorUid && inventory.findDeviceByCollectorUid(ids.collectorUid)) ||
			(ids.uid && inventory.find('device/device/uid', ids.uid)) ||
			(ids.name && inventory.find('device/device/name', ids.name)) ||
			undefined
		);
	}
	return (
		(ids.sid && inventory.find('user/user/sid', ids.sid)) ||
		(ids.uid && inventory.find('user/user/uid', ids.uid)) ||
		(ids.upn && inventory.find('user/user/upn', ids.upn)) ||
		undefined
	);
}

/**
 * `POST /api/v1/workflows/execute` and `/api/v2/workflows/execute`.
 * @param {import('./router').Context} ctx
 * @param {ActionStore} store
 * @param {1 | 2} version
 */
function handleExecuteWorkflow(ctx, store, version) {
	const result = parseExecute(ctx, store, version);
	if (!result.ok) {
		sendJson(ctx.res, result.status, result.error);
		return;
	}
	const { workflow, devices, users, body } = result;
	/** @type {Target[]} */
	const targets = [
		...devices.map((input, index) => ({ input, index, type: /** @type {const} */ ('device'), object: resolve(store, input, 'device') })),
		...users.map((input, index) => ({ input, index, type: /** @type {const} */ ('user'), object: resolve(store, input, 'user') })),
	];
	const request = store.record({
		kind: 'workflow',
		objectId: workflow.id,
		objectName: workflow.name,
		clientId: /** @type {import('./tokens').Client} */ (ctx.client).clientId,
		body: { ...body, version, source: ctx.headers.source },
		targets,
		expiresInMinutes: undefined,
		outcome: workflow.outcome,
		waitForEvent: workflow.waitForEvent,
	});
	sendJson(ctx.res, 200, { requestUuid: request.requestId, executionsUuids: request.executions.map((execution) => execution.executionId) });
}

/**
 * @param {import('./router').Context} ctx
 * @param {ActionStore} store
 * @param {1 | 2} version
 */
function parseExecute(ctx, store, version) {
	const parsed = parseObject(ctx.body);
	if (!parsed.ok) return parsed;
	const body = parsed.value;
	if (typeof body.workflowId !== 'string' || body.workflowId.length === 0) {
		return fail(CODES.invalidWorkflowId, 'workflowId is required and must be a non-empty string');
	}
	const devices = targetList(body.devices, 'devices');
	if (!devices.ok) return devices;
	const users = targetList(body.users, 'users');
	if (!users.ok) return users;
	const check = version === 1 ? checkV1Entry : checkV2Entry;
	for (const [name, list] of /** @type {const} */ ([['devices', devices.list], ['users', users.list]])) {
		for (const [index, entry] of list.entries()) {
			const problem = check(entry, name, index);
			if (problem) return fail(name === 'devices' ? CODES.invalidDevices : CODES.invalidUsers, problem);
		}
	}
	// The schema marks both lists required, yet each description says the other one is optional:
	// either may be missing or empty as long as one has an entry.
	if (devices.list.length === 0 && users.list.length === 0) return fail(CODES.noTargets, 'Give at least one device or one user');
	if (body.params !== undefined && body.params !== null) {
		if (!isObject(body.params)) return fail(CODES.invalidParams, 'params must be an object of strings');
		for (const [name, value] of Object.entries(body.params)) {
			if (typeof value !== 'string') return fail(CODES.invalidParams, `params.${name} must be a string`);
		}
	}
	const workflow = store.workflows.get(body.workflowId);
	if (!workflow) return fail(CODES.notFound, `No workflow with the NQL ID ${body.workflowId}`);
	if (!workflow.triggerMethods.apiEnabled) {
		return fail(CODES.notApiEnabled, `Workflow ${workflow.id} cannot be triggered through the API: tick API in its trigger options`, 403);
	}
	if (workflow.status !== 'ACTIVE') return fail(CODES.inactive, `Workflow ${workflow.id} is inactive`);
	return { ok: /** @type {const} */ (true), workflow, devices: devices.list, users: users.list, body };
}

/**
 * `POST /api/v1/workflows/workflows/{workflowUuid}/execution/{executionUuid}/trigger`.
 * @param {import('./router').Context} ctx
 * @param {ActionStore} store
 */
function handleResumeWorkflow(ctx, store) {
	const [workflowUuid, executionUuid] = ctx.params;
	for (const [name, value] of [['workflowUuid', workflowUuid], ['executionUuid', executionUuid]]) {
		if (!UUID_PATTERN.test(value)) {
			sendJson(ctx.res, 400, { code: CODES.invalidUuid, details: `${name} must be a UUID, got ${JSON.stringify(value)}` });
			return;
		}
	}
	const parsed = parseObject(ctx.body);
	if (!parsed.ok) {
		sendJson(ctx.res, parsed.status, parsed.error);
		return;
	}
	const { parameters } = parsed.value;
	if (parameters !== undefined && parameters !== null) {
		const bad = !isObject(parameters) ? 'parameters must be an object of strings' : Object.entries(parameters).find(([, value]) => typeof value !== 'string' || value.length === 0);
		if (bad) {
			const details = typeof bad === 'string' ? bad : `parameters.${bad[0]} must be a non-empty string`;
			sendJson(ctx.res, 400, { code: CODES.invalidParams, details });
			return;
		}
	}
	const workflow = store.workflowByUuid(workflowUuid);
	if (!workflow) {
		sendJson(ctx.res, 400, { code: CODES.notFound, details: `No workflow with the UUID ${workflowUuid}` });
		return;
	}
	const execution = store.executionsById.get(executionUuid.toLowerCase());
	if (!execution || execution.objectId !== workflow.id) {
		sendJson(ctx.res, 400, { code: CODES.executionNotFound, details: `Workflow ${workflow.id} has no execution ${executionUuid}` });
		return;
	}
	const given = /** @type {Record<string, string>} */ ({ ...(/** @type {object | null | undefined} */ (parameters) ?? {}) });
	if (!store.resume(execution, given)) {
		sendJson(ctx.res, 400, { code: CODES.executionNotWaiting, details: `Execution ${executionUuid} is not waiting for an event` });
		return;
	}
	sendJson(ctx.res, 200, [{ requestUuid: crypto.randomUUID() }]);
}

/**
 * `GET /api/v1/workflows`: `dependency` and `triggerMethod` are required enums; a workflow is listed
 * when its dependency equals the filter and the filter's trigger method is ticked on it;
 * `fetchOnlyActiveWorkflows=true` leaves out INACTIVE ones.
 * @param {import('./router').Context} ctx
 * @param {ActionStore} store
 */
function handleListWorkflows(ctx, store) {
	const { dependency, triggerMethod, fetchOnlyActiveWorkflows } = ctx.query;
	/** @param {string} details */
	const invalid = (details) => sendJson(ctx.res, 400, { code: CODES.invalidFilter, details });
	if (typeof dependency !== 'string' || !DEPENDENCIES.includes(dependency)) {
		invalid(`Query parameter dependency is required (once) and must be one of ${DEPENDENCIES.join(', ')}`);
		return;
	}
	if (typeof triggerMethod !== 'string' || !TRIGGER_METHODS.includes(triggerMethod)) {
		invalid(`Query parameter triggerMethod is required (once) and must be one of ${TRIGGER_METHODS.join(', ')}`);
		return;
	}
	if (fetchOnlyActiveWorkflows !== undefined && fetchOnlyActiveWorkflows !== 'true' && fetchOnlyActiveWorkflows !== 'false') {
		invalid('Query parameter fetchOnlyActiveWorkflows must be true or false');
		return;
	}
	const flag = TRIGGER_FLAGS[/** @type {keyof typeof TRIGGER_FLAGS} */ (triggerMethod)];
	const listed = [...store.workflows.values()].filter(
		(wf) => wf.dependency === dependency && wf.triggerMethods[flag] && (fetchOnlyActiveWorkflows !== 'true' || wf.status === 'ACTIVE'),
	);
	sendJson(ctx.res, 200, listed.map(workflowJson));
}

/**
 * `GET /api/v1/workflows/details?nqlId=<id>`. The spec names the parameter `nqlId`; two public
 * clients send `nql-id`, so both are accepted. The answer is an array (as the OpenAPI document says), empty when
 * no workflow has that NQL ID (the OpenAPI document declares no 404).
 * @param {import('./router').Context} ctx
 * @param {ActionStore} store
 */
function handleWorkflowDetails(ctx, store) {
	const id = ctx.query.nqlId ?? ctx.query['nql-id'];
	if (typeof id !== 'string' || id.length === 0) {
		sendJson(ctx.res, 400, { code: CODES.missingNqlId, details: 'Query parameter nqlId is required (once)' });
		return;
	}
	const workflow = store.workflows.get(id);
	sendJson(ctx.res, 200, workflow ? [workflowJson(workflow)] : []);
}

module.exports = {
	handleExecuteWorkflow,
	handleResumeWorkflow,
	handleListWorkflows,
	handleWorkflowDetails,
	WORKFLOW_ERROR_CODES: CODES,
	WORKFLOW_FORBIDDEN_BODY: FORBIDDEN_BODY,
	DEPENDENCIES,
	TRIGGER_METHODS,
};
