/**
 * The local Nexthink server: the Remote Actions API (execute, list, details), its validation, its
 * error bodies, permissions, request recording and faults.
 */
export {};

const { startNexthinkServer } = require('..');
const { fetchToken, apiRequest } = require('../client');

const EXECUTE = '/api/v1/act/execute';
const LIST = '/api/v1/act/remote-action';
const DETAILS = '/api/v1/act/remote-action/details';
const COLLECTOR_1 = 'e0000000-0000-4000-8000-000000000001';
const COLLECTOR_2 = 'e0000000-0000-4000-8000-000000000002';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: any;
let token: string;

beforeAll(async () => {
	server = await startNexthinkServer({
		clients: [
			{ clientId: 'all', clientSecret: 'secret-all', permissions: ['nql', 'enrichment', 'remoteActions', 'workflows', 'campaigns'] },
			{ clientId: 'no-ra', clientSecret: 'secret-no-ra', permissions: ['nql', 'enrichment', 'workflows', 'campaigns'] },
		],
	});
	token = await fetchToken(server);
});

afterAll(async () => {
	await server.close();
});

beforeEach(() => {
	server.clearRequests();
	server.clearFaults();
});

const execute = (json: unknown) => apiRequest(server, token, 'POST', EXECUTE, { json });
const restart = (extra: Record<string, unknown> = {}) => ({
	remoteActionId: '#restart_service',
	devices: [COLLECTOR_1],
	params: { ServiceName: 'Spooler', StartType: 'Manual' },
	...extra,
});

describe('POST /api/v1/act/execute', () => {
	it('answers one request id for the batch and the expiry, and keeps one execution per distinct device', async () => {
		const response = await execute(
			restart({
				devices: [COLLECTOR_1, COLLECTOR_2, COLLECTOR_1.toUpperCase()],
				expiresInMinutes: 120,
				triggerInfo: { externalSource: 'n8n', reason: 'High CPU', externalReference: 'INC-1' },
			}),
		);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('application/json');
		const body = await response.json();
		expect(body).toEqual({ requestId: expect.stringMatching(UUID), expiresInMinutes: 120 });
		const request = server.actions.requests.get(body.requestId);
		expect(request.kind).toBe('remote_action');
		expect(request.clientId).toBe('all');
		expect(request.executions.map((execution: any) => execution.target.object?.name)).toEqual(['LAPTOP-ZRH-001', 'LAPTOP-ZRH-002']);
		expect(request.executions[0].expiresAt - request.createdAt).toBe(120 * 60000);
	});

	it('defaults the expiry to 60 minutes and accepts a custom value for a free-text input', async () => {
		const response = await execute(restart({ params: { ServiceName: 'MyOwnService', StartType: 'Automatic' } }));
		expect(response.status).toBe(200);
		expect((await response.json()).expiresInMinutes).toBe(60);
	});

	it('accepts a remote action without inputs and without params, and records the request as sent', async () => {
		const json = { remoteActionId: '#clear_teams_cache', devices: [COLLECTOR_1] };
		expect((await execute(json)).status).toBe(200);
		const recorded = server.requests.find((request: any) => request.path === EXECUTE);
		expect(recorded.method).toBe('POST');
		expect(recorded.headers.authorization).toBe(`Bearer ${token}`);
		expect(JSON.parse(recorded.body)).toEqual(json);
	});

	it('accepts 10,000 devices and refuses 10,001', async () => {
		const devices = Array.from({ length: 10001 }, (_, i) => `e1000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
		const accepted = await execute({ remoteActionId: '#clear_teams_cache', devices: devices.slice(0, 10000) });
		expect(accepted.status).toBe(200);
		const refused = await execute({ remoteActionId: '#clear_teams_cache', devices });
		expect(refused.status).toBe(400);
		expect(await refused.json()).toEqual({ code: 'INVALID_DEVICES', message: expect.stringContaining('at most 10000') });
	});

	it.each([
		['malformed JSON', '{"remoteActionId":', 'INVALID_JSON'],
		['a body that is not an object', '[]', 'INVALID_REQUEST'],
		['a missing remoteActionId', JSON.stringify({ devices: [COLLECTOR_1] }), 'INVALID_REMOTE_ACTION_ID'],
		['an empty remoteActionId', JSON.stringify(restart({ remoteActionId: '' })), 'INVALID_REMOTE_ACTION_ID'],
		['a remoteActionId that is not a string', JSON.stringify(restart({ remoteActionId: 5 })), 'INVALID_REMOTE_ACTION_ID'],
		['missing devices', JSON.stringify({ remoteActionId: '#clear_teams_cache' }), 'INVALID_DEVICES'],
		['devices that is not an array', JSON.stringify(restart({ devices: COLLECTOR_1 })), 'INVALID_DEVICES'],
		['an empty device list', JSON.stringify(restart({ devices: [] })), 'INVALID_DEVICES'],
		['a device that is not a UUID (a device name)', JSON.stringify(restart({ devices: ['LAPTOP-ZRH-001'] })), 'INVALID_DEVICE_ID'],
		['a device that is not a string', JSON.stringify(restart({ devices: [42] })), 'INVALID_DEVICE_ID'],
		['an expiry under 60 minutes', JSON.stringify(restart({ expiresInMinutes: 59 })), 'INVALID_EXPIRATION'],
		['an expiry over 10080 minutes', JSON.stringify(restart({ expiresInMinutes: 10081 })), 'INVALID_EXPIRATION'],
		['an expiry that is not an integer', JSON.stringify(restart({ expiresInMinutes: 60.5 })), 'INVALID_EXPIRATION'],
		['an expiry given as text', JSON.stringify(restart({ expiresInMinutes: '60' })), 'INVALID_EXPIRATION'],
		['triggerInfo that is not an object', JSON.stringify(restart({ triggerInfo: 'n8n' })), 'INVALID_TRIGGER_INFO'],
		['a triggerInfo member that is not a string', JSON.stringify(restart({ triggerInfo: { externalReference: 7 } })), 'INVALID_TRIGGER_INFO'],
		['a reason over 500 characters', JSON.stringify(restart({ triggerInfo: { reason: 'x'.repeat(501) } })), 'INVALID_TRIGGER_INFO'],
		['params that is not an object', JSON.stringify(restart({ params: ['Spooler'] })), 'INVALID_PARAMS'],
		['a param value that is not a string', JSON.stringify(restart({ params: { ServiceName: 'Spooler', StartType: 1 } })), 'INVALID_PARAMS'],
		['a param that is not an input of the script', JSON.stringify(restart({ params: { ServiceName: 'Spooler', StartType: 'Manual', Extra: 'x' } })), 'INVALID_PARAMS'],
		['a missing input', JSON.stringify(restart({ params: { ServiceName: 'Spooler' } })), 'INVALID_PARAMS'],
		['a value outside the options of an input without custom values', JSON.stringify(restart({ params: { ServiceName: 'Spooler', StartType: 'Sometimes' } })), 'INVALID_PARAMS'],
		['an unknown remote action', JSON.stringify(restart({ remoteActionId: '#no_such_action' })), 'REMOTE_ACTION_NOT_FOUND'],
	])('answers 400 {code, message} for %s', async (_label, body, code) => {
		const response = await apiRequest(server, token, 'POST', EXECUTE, { body, headers: { 'content-type': 'application/json' } });
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ code, message: expect.any(String) });
	});

	it('accepts a reason of exactly 500 characters (counted as characters, not bytes)', async () => {
		const response = await execute(restart({ triggerInfo: { reason: 'é'.repeat(500) } }));
		expect(response.status).toBe(200);
	});

	it('accepts the expiry limits 60 and 10080', async () => {
		expect((await execute(restart({ expiresInMinutes: 60 }))).status).toBe(200);
		expect((await execute(restart({ expiresInMinutes: 10080 }))).status).toBe(200);
	});

	it('answers 403 {code, message} naming the API option for a remote action that is not API-enabled', async () => {
		const response = await execute({ remoteActionId: '#collect_crash_dumps', devices: [COLLECTOR_1], params: { Days: '7' } });
		expect(response.status).toBe(403);
		const body = await response.json();
		expect(body).toEqual({ code: 'REMOTE_ACTION_NOT_API_ENABLED', message: expect.stringContaining('#collect_crash_dumps') });
		expect(body.message).toMatch(/API/);
	});
});

describe('GET /api/v1/act/remote-action', () => {
	it('lists every remote action, API-enabled or not, with the schema’s required properties', async () => {
		const response = await apiRequest(server, token, 'GET', LIST);
		expect(response.status).toBe(200);
		const list = await response.json();
		expect(list.map((ra: any) => [ra.id, ra.targeting.apiEnabled])).toEqual(
			expect.arrayContaining([
				['#restart_service', true],
				['#clear_teams_cache', true],
				['#collect_crash_dumps', false],
				['#reset_network_stack', false],
			]),
		);
		for (const ra of list) {
			expect(Object.keys(ra).sort()).toEqual(['builtInContentVersion', 'description', 'id', 'name', 'origin', 'purpose', 'scriptInfo', 'targeting', 'uuid']);
			expect(Object.keys(ra.targeting).sort()).toEqual(['apiEnabled', 'manualAllowMultipleDevices', 'manualEnabled', 'workflowEnabled']);
			expect(Object.keys(ra.scriptInfo).sort()).toEqual(['executionServiceDelegate', 'hasScriptMacOs', 'hasScriptWindows', 'inputs', 'outputs', 'runAs', 'timeoutSeconds']);
		}
	});

	it('lists a remote action a test adds', async () => {
		server.addRemoteAction({ id: '#added_by_test', name: 'Added', apiEnabled: false });
		const list = await (await apiRequest(server, token, 'GET', `${LIST}?hasScriptWindows=true`)).json();
		expect(list.find((ra: any) => ra.id === '#added_by_test')).toMatchObject({ name: 'Added', targeting: { apiEnabled: false } });
	});
});

describe('GET /api/v1/act/remote-action/details', () => {
	it('answers one remote action with its inputs: options, and whether free text is allowed', async () => {
		const response = await apiRequest(server, token, 'GET', `${DETAILS}?nql-id=${encodeURIComponent('#restart_service')}`);
		expect(response.status).toBe(200);
		const ra = await response.json();
		expect(ra).toMatchObject({ id: '#restart_service', uuid: 'f1000000-0000-4000-8000-000000000001', name: 'Restart a Windows service', purpose: ['REMEDIATION'] });
		expect(ra.scriptInfo.inputs).toEqual([
			{ id: 'ServiceName', name: 'Service name', description: expect.any(String), usedByWindows: true, usedByMacOs: false, options: ['Spooler', 'wuauserv', 'BITS'], allowCustomValue: true },
			{ id: 'StartType', name: 'Start type', description: expect.any(String), usedByWindows: true, usedByMacOs: false, options: ['Automatic', 'Manual', 'Disabled'], allowCustomValue: false },
		]);
		expect(ra.scriptInfo.outputs).toEqual([expect.objectContaining({ id: 'ServiceStatus', type: 'string' })]);
	});

	it('answers 404 {code, message} for an unknown NQL ID', async () => {
		const response = await apiRequest(server, token, 'GET', `${DETAILS}?nql-id=${encodeURIComponent('#nope')}`);
		expect(response.status).toBe(404);
		expect(await response.json()).toEqual({ code: 'REMOTE_ACTION_NOT_FOUND', message: expect.stringContaining('#nope') });
	});

	it.each([
		['no nql-id', DETAILS],
		['the workflow-style nqlId instead', `${DETAILS}?nqlId=%23restart_service`],
		['a repeated nql-id', `${DETAILS}?nql-id=%23a&nql-id=%23b`],
	])('answers 400 {code, message} for %s', async (_label, path) => {
		const response = await apiRequest(server, token, 'GET', path);
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ code: 'MISSING_NQL_ID', message: expect.any(String) });
	});
});

describe('authorization and faults', () => {
	it.each([
		['POST', EXECUTE],
		['GET', LIST],
		['GET', `${DETAILS}?nql-id=%23restart_service`],
	])('%s %s answers 403 {code, message} naming the Remote Actions API permission to a client without it', async (method, path) => {
		const other = await fetchToken(server, { clientId: 'no-ra', clientSecret: 'secret-no-ra' });
		const response = await apiRequest(server, other, method, path, method === 'POST' ? { json: restart() } : {});
		expect(response.status).toBe(403);
		expect(await response.json()).toEqual({ code: 'FORBIDDEN', message: expect.stringContaining('Remote Actions API') });
	});

	it('answers 401 with no body without a valid token, and 405 for another method', async () => {
		const response = await apiRequest(server, 'not-a-token', 'POST', EXECUTE, { json: restart() });
		expect(response.status).toBe(401);
		expect(await response.text()).toBe('');
		const wrongMethod = await apiRequest(server, token, 'DELETE', LIST);
		expect(wrongMethod.status).toBe(405);
		expect(wrongMethod.headers.get('allow')).toBe('GET');
	});

	it('applies faults before the handler, and the request is still recorded', async () => {
		const fault = server.injectFault({ path: EXECUTE, status: 429, headers: { 'retry-after': '2' } });
		const response = await execute(restart());
		expect(response.status).toBe(429);
		expect(response.headers.get('retry-after')).toBe('2');
		expect(fault.hits).toBe(1);
		expect(server.requests.filter((request: any) => request.path === EXECUTE)).toHaveLength(1);
		expect((await execute(restart())).status).toBe(200);
	});
});
