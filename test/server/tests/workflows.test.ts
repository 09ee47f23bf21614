/**
 * The local Nexthink server: the Workflows API (v1 and v2 execute, the wait-for-event trigger, list
 * with its two required filters, details), its validation, `{ code, details }` error bodies and
 * permissions.
 */
export {};

const { startNexthinkServer } = require('..');
const { fetchToken, apiRequest } = require('../client');

const V1 = '/api/v1/workflows/execute';
const V2 = '/api/v2/workflows/execute';
const LIST = '/api/v1/workflows';
const DETAILS = '/api/v1/workflows/details';
const COLLECTOR_1 = 'e0000000-0000-4000-8000-000000000001';
const DEVICE_UID_2 = 'd0000000-0000-4000-8000-000000000002';
const ALICE_SID = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const BOB_UID = 'a0000000-0000-4000-8000-000000000002';
const APPROVAL_UUID = 'f2000000-0000-4000-8000-000000000004';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: any;
let token: string;

beforeAll(async () => {
	server = await startNexthinkServer({
		clients: [
			{ clientId: 'all', clientSecret: 'secret-all', permissions: ['nql', 'remoteActions', 'workflows', 'campaigns'] },
			{ clientId: 'no-wf', clientSecret: 'secret-no-wf', permissions: ['nql', 'remoteActions', 'campaigns'] },
		],
	});
	token = await fetchToken(server);
	server.addActionStatusQuery({ id: '#wf_status', table: 'workflow.executions' });
});

afterAll(async () => {
	await server.close();
});

beforeEach(() => {
	server.clearRequests();
	server.clearFaults();
});

const post = (path: string, json: unknown, headers?: Record<string, string>) => apiRequest(server, token, 'POST', path, { json, headers });
const get = (path: string) => apiRequest(server, token, 'GET', path);
const statusRows = async (requestId: string) => {
	const response = await post('/api/v2/nql/execute', { queryId: '#wf_status', parameters: { request_id: requestId } });
	return (await response.json()).data;
};

describe('POST /api/v1/workflows/execute', () => {
	it('answers a request UUID and one execution UUID per target: devices first, then users', async () => {
		const response = await post(V1, { workflowId: '#onboard_user_device', devices: [COLLECTOR_1], users: [ALICE_SID], params: { site: 'Zürich' } });
		expect(response.status).toBe(200);
		const body = await response.json();
		expect(body).toEqual({ requestUuid: expect.stringMatching(UUID), executionsUuids: [expect.stringMatching(UUID), expect.stringMatching(UUID)] });
		const rows = await statusRows(body.requestUuid);
		expect(rows.map((row: any) => [row.execution_id, row['device.name'], row['user.sid']])).toEqual([
			[body.executionsUuids[0], 'LAPTOP-ZRH-001', ''],
			[body.executionsUuids[1], '', ALICE_SID],
		]);
	});

	it('accepts a missing or empty list when the other one has an entry, and keeps the Source header', async () => {
		expect((await post(V1, { workflowId: '#repair_teams', devices: [COLLECTOR_1] })).status).toBe(200);
		const response = await post(V1, { workflowId: '#password_expiry_reminder', devices: [], users: [ALICE_SID] }, { source: 'n8n' });
		expect(response.status).toBe(200);
		const { requestUuid } = await response.json();
		expect(server.actions.requests.get(requestUuid).body).toMatchObject({ version: 1, source: 'n8n' });
	});

	it('accepts 10,000 devices and refuses 10,001', async () => {
		const devices = Array.from({ length: 10001 }, (_, i) => `e1000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
		const accepted = await post(V1, { workflowId: '#repair_teams', devices: devices.slice(0, 10000) });
		expect(accepted.status).toBe(200);
		expect((await accepted.json()).executionsUuids).toHaveLength(10000);
		const refused = await post(V1, { workflowId: '#repair_teams', devices });
		expect(refused.status).toBe(400);
		expect(await refused.json()).toEqual({ code: 'INVALID_DEVICES', details: expect.stringContaining('at most 10000') });
		const users = Array.from({ length: 10001 }, (_, i) => `S-1-5-21-${i}`);
		const tooManyUsers = await post(V1, { workflowId: '#password_expiry_reminder', users });
		expect(tooManyUsers.status).toBe(400);
		expect((await tooManyUsers.json()).code).toBe('INVALID_USERS');
	});

	it.each([
		['malformed JSON', '{"workflowId"', 'INVALID_JSON'],
		['a body that is not an object', '"#repair_teams"', 'INVALID_REQUEST'],
		['a missing workflowId', JSON.stringify({ devices: [COLLECTOR_1] }), 'INVALID_WORKFLOW_ID'],
		['an empty workflowId', JSON.stringify({ workflowId: '', devices: [COLLECTOR_1] }), 'INVALID_WORKFLOW_ID'],
		['no device and no user', JSON.stringify({ workflowId: '#repair_teams', devices: [], users: [] }), 'NO_TARGETS'],
		['neither list', JSON.stringify({ workflowId: '#repair_teams' }), 'NO_TARGETS'],
		['devices that is not an array', JSON.stringify({ workflowId: '#repair_teams', devices: COLLECTOR_1 }), 'INVALID_DEVICES'],
		['a device that is not a UUID', JSON.stringify({ workflowId: '#repair_teams', devices: ['LAPTOP-ZRH-001'] }), 'INVALID_DEVICES'],
		['a user that is not a SID', JSON.stringify({ workflowId: '#repair_teams', users: ['alice.martin@example.com'] }), 'INVALID_USERS'],
		['a SID with one part', JSON.stringify({ workflowId: '#repair_teams', users: ['S-1'] }), 'INVALID_USERS'],
		['params that is not an object', JSON.stringify({ workflowId: '#repair_teams', devices: [COLLECTOR_1], params: 'x' }), 'INVALID_PARAMS'],
		['a param that is not a string', JSON.stringify({ workflowId: '#repair_teams', devices: [COLLECTOR_1], params: { reason: 1 } }), 'INVALID_PARAMS'],
		['an unknown workflow', JSON.stringify({ workflowId: '#no_such_workflow', devices: [COLLECTOR_1] }), 'WORKFLOW_NOT_FOUND'],
		['an inactive workflow', JSON.stringify({ workflowId: '#legacy_inventory_sync', devices: [COLLECTOR_1] }), 'WORKFLOW_INACTIVE'],
	])('answers 400 {code, details} for %s', async (_label, body, code) => {
		const response = await apiRequest(server, token, 'POST', V1, { body, headers: { 'content-type': 'application/json' } });
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ code, details: expect.any(String) });
	});

	it('accepts the SID 0 and SIDs of 2 to 10 parts', async () => {
		const users = ['0', 'S-1-5', 'S-1-5-21-1-2-3-4-5-6-7'];
		expect((await post(V1, { workflowId: '#password_expiry_reminder', users })).status).toBe(200);
		const eleven = await post(V1, { workflowId: '#password_expiry_reminder', users: ['S-1-5-21-1-2-3-4-5-6-7-8'] });
		expect(eleven.status).toBe(400);
	});

	it('answers 403 {code, details} naming the API trigger option for a workflow that is not API-enabled', async () => {
		const response = await post(V1, { workflowId: '#manual_disk_cleanup', devices: [COLLECTOR_1] });
		expect(response.status).toBe(403);
		expect(await response.json()).toEqual({ code: 'WORKFLOW_NOT_API_ENABLED', details: expect.stringMatching(/#manual_disk_cleanup.*API/) });
	});
});

describe('POST /api/v2/workflows/execute', () => {
	it('resolves devices by Collector UID, device UID or name and users by SID, UPN or UID', async () => {
		const response = await post(V2, {
			workflowId: '#onboard_user_device',
			devices: [{ collectorUid: COLLECTOR_1 }, { uid: DEVICE_UID_2 }, { name: 'desktop-lis-001' }, { name: 'NO-SUCH-PC' }],
			users: [{ sid: ALICE_SID }, { uid: BOB_UID }, { upn: 'Chloe.Dubois@example.com' }],
			params: { site: 'Lisboa' },
		});
		expect(response.status).toBe(200);
		const body = await response.json();
		expect(body.executionsUuids).toHaveLength(7);
		let rows: any[] = [];
		for (let poll = 0; poll < 3; poll++) rows = await statusRows(body.requestUuid);
		expect(rows.map((row) => [row['device.name'] || row['user.name'], row.status])).toEqual([
			['LAPTOP-ZRH-001', 'success'],
			['LAPTOP-ZRH-002', 'success'],
			['DESKTOP-LIS-001', 'success'],
			['', 'failure'],
			['Alice Martin', 'success'],
			['Bob Keller', 'success'],
			['Chloé Dubois', 'success'],
		]);
		expect(rows[3].status_details).toBe('No device matches the identifiers');
	});

	it.each([
		['a device without any identifier', { devices: [{}] }, 'INVALID_DEVICES'],
		['a device that is a bare string', { devices: [COLLECTOR_1] }, 'INVALID_DEVICES'],
		['a collectorUid that is not a UUID', { devices: [{ collectorUid: 'abc' }] }, 'INVALID_DEVICES'],
		['a device uid that is not a UUID', { devices: [{ uid: 'LAPTOP-ZRH-001' }] }, 'INVALID_DEVICES'],
		['an empty device name', { devices: [{ name: '' }] }, 'INVALID_DEVICES'],
		['a user without any identifier', { users: [{ name: 'Alice' }] }, 'INVALID_USERS'],
		['a UPN that is not an email address', { users: [{ upn: 'alice' }] }, 'INVALID_USERS'],
		['a SID that does not match', { users: [{ sid: 'alice' }] }, 'INVALID_USERS'],
		['a user uid that is not a UUID', { users: [{ uid: '1234' }] }, 'INVALID_USERS'],
		['no target', { devices: [], users: [] }, 'NO_TARGETS'],
	])('answers 400 {code, details} for %s', async (_label, extra, code) => {
		const response = await post(V2, { workflowId: '#onboard_user_device', ...extra });
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ code, details: expect.any(String) });
	});
});

describe('wait-for-event trigger', () => {
	const trigger = (workflowUuid: string, executionUuid: string, json: unknown = {}) =>
		post(`/api/v1/workflows/workflows/${workflowUuid}/execution/${executionUuid}/trigger`, json);

	it('keeps executions waiting until the trigger resumes them, then lets them finish; answers [{requestUuid}]', async () => {
		const started = await (await post(V1, { workflowId: '#disk_cleanup_with_approval', devices: [COLLECTOR_1, 'e0000000-0000-4000-8000-000000000002'] })).json();
		for (let poll = 0; poll < 4; poll++) {
			expect((await statusRows(started.requestUuid)).map((row: any) => row.status)).toEqual(['waiting', 'waiting']);
		}
		const response = await trigger(APPROVAL_UUID, started.executionsUuids[0], { parameters: { approved_by: 'n8n' } });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual([{ requestUuid: expect.stringMatching(UUID) }]);
		const statuses = [];
		for (let poll = 0; poll < 3; poll++) statuses.push((await statusRows(started.requestUuid)).map((row: any) => row.status));
		expect(statuses).toEqual([
			['in_progress', 'waiting'],
			['in_progress', 'waiting'],
			['success', 'waiting'],
		]);
		expect(server.actions.executionsById.get(started.executionsUuids[0]).resumes).toEqual([{ approved_by: 'n8n' }]);
		const again = await trigger(APPROVAL_UUID, started.executionsUuids[0]);
		expect(again.status).toBe(400);
		expect(await again.json()).toEqual({ code: 'EXECUTION_NOT_WAITING', details: expect.any(String) });
	});

	it('refuses the trigger for an execution of a workflow without a wait step', async () => {
		const started = await (await post(V1, { workflowId: '#repair_teams', devices: [COLLECTOR_1] })).json();
		const response = await trigger('f2000000-0000-4000-8000-000000000001', started.executionsUuids[0]);
		expect(response.status).toBe(400);
		expect((await response.json()).code).toBe('EXECUTION_NOT_WAITING');
	});

	it.each([
		['a workflow UUID that is not a UUID', 'repair_teams', 'f3000000-0000-4000-8000-000000000001', {}, 'INVALID_UUID'],
		['an execution UUID that is not a UUID', APPROVAL_UUID, 'x', {}, 'INVALID_UUID'],
		['an unknown workflow', 'f2000000-0000-4000-8000-0000000000ff', 'f3000000-0000-4000-8000-000000000001', {}, 'WORKFLOW_NOT_FOUND'],
		['an unknown execution', APPROVAL_UUID, 'f3000000-0000-4000-8000-000000000001', {}, 'EXECUTION_NOT_FOUND'],
		['parameters that is not an object', APPROVAL_UUID, 'f3000000-0000-4000-8000-000000000001', { parameters: 'x' }, 'INVALID_PARAMS'],
		['an empty parameter value', APPROVAL_UUID, 'f3000000-0000-4000-8000-000000000001', { parameters: { a: '' } }, 'INVALID_PARAMS'],
	])('answers 400 {code, details} for %s', async (_label, workflowUuid, executionUuid, json, code) => {
		const response = await trigger(workflowUuid, executionUuid, json);
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ code, details: expect.any(String) });
	});

	it('answers 400 for an empty body (the body is required, {} is enough)', async () => {
		const started = await (await post(V1, { workflowId: '#disk_cleanup_with_approval', devices: [COLLECTOR_1] })).json();
		const path = `/api/v1/workflows/workflows/${APPROVAL_UUID}/execution/${started.executionsUuids[0]}/trigger`;
		const empty = await apiRequest(server, token, 'POST', path, { body: '' });
		expect(empty.status).toBe(400);
		expect((await empty.json()).code).toBe('INVALID_JSON');
		expect((await trigger(APPROVAL_UUID, started.executionsUuids[0], {})).status).toBe(200);
	});

	it('refuses an execution of another workflow', async () => {
		const started = await (await post(V1, { workflowId: '#disk_cleanup_with_approval', devices: [COLLECTOR_1] })).json();
		const response = await trigger('f2000000-0000-4000-8000-000000000001', started.executionsUuids[0]);
		expect(response.status).toBe(400);
		expect((await response.json()).code).toBe('EXECUTION_NOT_FOUND');
	});
});

describe('GET /api/v1/workflows', () => {
	const ids = async (query: string) => {
		const response = await get(`${LIST}?${query}`);
		expect(response.status).toBe(200);
		return (await response.json()).map((wf: any) => wf.id);
	};

	it('lists the workflows of one dependency and trigger method, API-enabled or not', async () => {
		expect(await ids('dependency=DEVICE&triggerMethod=API')).toEqual(['#repair_teams', '#disk_cleanup_with_approval', '#legacy_inventory_sync']);
		expect(await ids('dependency=DEVICE&triggerMethod=API&fetchOnlyActiveWorkflows=true')).toEqual(['#repair_teams', '#disk_cleanup_with_approval']);
		expect(await ids('dependency=DEVICE&triggerMethod=MANUAL')).toEqual(['#repair_teams', '#manual_disk_cleanup']);
		expect(await ids('dependency=DEVICE&triggerMethod=MANUAL_MULTIPLE')).toEqual(['#repair_teams', '#manual_disk_cleanup']);
		expect(await ids('dependency=USER&triggerMethod=API')).toEqual(['#password_expiry_reminder']);
		expect(await ids('dependency=USER&triggerMethod=SCHEDULER')).toEqual(['#password_expiry_reminder']);
		expect(await ids('dependency=USER_AND_DEVICE&triggerMethod=API')).toEqual(['#onboard_user_device']);
		expect(await ids('dependency=NONE&triggerMethod=API')).toEqual([]);
		expect(await ids('dependency=NONE&triggerMethod=SCHEDULER')).toEqual(['#weekly_license_review']);
	});

	it('gives each workflow the schema’s required properties, triggerMethods as an object of booleans', async () => {
		const [wf] = await (await get(`${LIST}?dependency=USER_AND_DEVICE&triggerMethod=API`)).json();
		expect(wf).toEqual({
			id: '#onboard_user_device',
			uuid: 'f2000000-0000-4000-8000-000000000003',
			name: 'Onboard user and device',
			description: expect.any(String),
			status: 'ACTIVE',
			lastUpdateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
			triggerMethods: { apiEnabled: true, manualEnabled: false, manualMultipleEnabled: false, schedulerEnabled: false },
			versions: [{ version: 1, status: 'ACTIVE', parameters: [{ id: 'site', options: ['Zürich', 'Lisboa', 'New York'], allowCustomValue: false }], hasDevice: true, hasUser: true }],
		});
	});

	it.each([
		['no filter', ''],
		['no triggerMethod', 'dependency=DEVICE'],
		['no dependency', 'triggerMethod=API'],
		['an unknown dependency', 'dependency=device&triggerMethod=API'],
		['an unknown trigger method', 'dependency=DEVICE&triggerMethod=WEBHOOK'],
		['a repeated dependency', 'dependency=DEVICE&dependency=USER&triggerMethod=API'],
		['fetchOnlyActiveWorkflows that is not a boolean', 'dependency=DEVICE&triggerMethod=API&fetchOnlyActiveWorkflows=yes'],
	])('answers 400 {code, details} for %s', async (_label, query) => {
		const response = await get(`${LIST}?${query}`);
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ code: 'INVALID_FILTER', details: expect.any(String) });
	});
});

describe('GET /api/v1/workflows/details', () => {
	it('answers an array with the workflow, by nqlId or by nql-id', async () => {
		for (const name of ['nqlId', 'nql-id']) {
			const response = await get(`${DETAILS}?${name}=${encodeURIComponent('#repair_teams')}`);
			expect(response.status).toBe(200);
			expect((await response.json()).map((wf: any) => [wf.id, wf.uuid])).toEqual([['#repair_teams', 'f2000000-0000-4000-8000-000000000001']]);
		}
	});

	it('answers an empty array for an unknown NQL ID, and 400 without one', async () => {
		const unknown = await get(`${DETAILS}?nqlId=${encodeURIComponent('#nope')}`);
		expect(unknown.status).toBe(200);
		expect(await unknown.json()).toEqual([]);
		const missing = await get(DETAILS);
		expect(missing.status).toBe(400);
		expect(await missing.json()).toEqual({ code: 'MISSING_NQL_ID', details: expect.any(String) });
	});
});

describe('authorization', () => {
	it.each([
		['POST', V1],
		['POST', V2],
		['POST', `/api/v1/workflows/workflows/${APPROVAL_UUID}/execution/f3000000-0000-4000-8000-000000000001/trigger`],
		['GET', `${LIST}?dependency=DEVICE&triggerMethod=API`],
		['GET', `${DETAILS}?nqlId=%23repair_teams`],
	])('%s %s answers 403 {code, details} naming the Workflows API permission to a client without it', async (method, path) => {
		const other = await fetchToken(server, { clientId: 'no-wf', clientSecret: 'secret-no-wf' });
		const response = await apiRequest(server, other, method, path, method === 'POST' ? { json: { workflowId: '#repair_teams', devices: [COLLECTOR_1] } } : {});
		expect(response.status).toBe(403);
		expect(await response.json()).toEqual({ code: 'FORBIDDEN', details: expect.stringContaining('Workflows API') });
	});

	it('answers 401 with no body without a valid token', async () => {
		const response = await apiRequest(server, 'expired', 'POST', V2, { json: {} });
		expect(response.status).toBe(401);
		expect(await response.text()).toBe('');
	});
});
