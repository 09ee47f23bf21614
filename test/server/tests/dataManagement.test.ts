/**
 * The local Nexthink server: the Data Management API's device deletions: the 202 with one status per
 * device in request order, the correlation headers, the documented error codes, the 100-device
 * limit, the permission check, and the switches for what the references leave open.
 */
export {};

const { startNexthinkServer } = require('..');
const { fetchToken, apiRequest } = require('../client');

const DELETIONS = '/api/v1/data-management/device/deletions';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KNOWN = { uid: 'd0000000-0000-4000-8000-000000000001', name: 'LAPTOP-ZRH-001', collectorUid: 'e0000000-0000-4000-8000-000000000001' };
const REQUEST_ID = '11111111-1111-4111-8111-111111111111';

let server: any;
let token: string;

beforeAll(async () => {
	server = await startNexthinkServer({
		clients: [
			{ clientId: 'all', clientSecret: 'secret-all', permissions: ['nql', 'dataManagement', 'spark'] },
			{ clientId: 'no-dm', clientSecret: 'secret-no-dm', permissions: ['nql', 'spark'] },
		],
	});
	token = await fetchToken(server);
});

afterAll(async () => {
	await server.close();
});

beforeEach(() => {
	server.clearRequests();
	server.deletions.requests.length = 0;
	server.deletions.failing.clear();
	Object.assign(server.options, {
		maxDevicesPerDeletion: 100,
		dataManagementEnabled: true,
		emptyTenant: false,
		deletionUidField: 'uid',
		deletionUnknownDevice: 'SCHEDULED',
		deletionNameMismatch: 'ignored',
		deletionMalformedUid: 'INVALID',
		deletionAnswerOrder: 'request',
	});
});

const remove = (json: unknown, headers: Record<string, string> = {}, bearer = token) => apiRequest(server, bearer, 'POST', DELETIONS, { json, headers });
const uidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('POST /api/v1/data-management/device/deletions', () => {
	it('answers 202 with each device\'s status in request order, scheduledCount, and echoes x-request-id', async () => {
		server.deletions.failing.add(uidOf(2));
		const devices = [
			{ uid: KNOWN.uid, name: KNOWN.name },
			{ uid: 'not-a-uuid', name: 'OLD-PC' },
			{ uid: uidOf(2), name: 'BROKEN' },
		];
		const response = await remove({ devices }, { 'x-request-id': REQUEST_ID });
		expect(response.status).toBe(202);
		expect(response.headers.get('x-request-id')).toBe(REQUEST_ID);
		expect(response.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
		expect(await response.json()).toEqual({
			scheduledCount: 1,
			status: 'ACCEPTED',
			devices: [
				{ ...devices[0], status: 'SCHEDULED' },
				{ ...devices[1], status: 'INVALID' },
				{ ...devices[2], status: 'FAILED' },
			],
		});
		expect(server.deletions.requests).toEqual([expect.objectContaining({ requestId: REQUEST_ID, clientId: 'all' })]);
		expect(server.deletions.scheduled).toEqual([{ ...devices[0], status: 'SCHEDULED' }]);
	});

	it('generates an x-request-id when none is sent', async () => {
		const response = await remove({ devices: [{ uid: KNOWN.uid, name: KNOWN.name }] });
		expect(response.status).toBe(202);
		expect(response.headers.get('x-request-id')).toMatch(UUID);
	});

	it('takes 100 devices and refuses 101 with BATCH_SIZE_EXCEEDED, scheduling nothing', async () => {
		const hundred = Array.from({ length: 100 }, (_, i) => ({ uid: uidOf(i), name: `PC-${i}` }));
		const ok = await remove({ devices: hundred });
		expect(ok.status).toBe(202);
		expect((await ok.json()).scheduledCount).toBe(100);
		const tooMany = await remove({ devices: [...hundred, { uid: uidOf(100), name: 'PC-100' }] });
		expect(tooMany.status).toBe(400);
		expect(await tooMany.json()).toEqual({ code: 'BATCH_SIZE_EXCEEDED', message: expect.stringContaining('101') });
		expect(server.deletions.requests).toHaveLength(1);
	});

	it.each([
		['a missing devices array', {}, 'EMPTY_REQUEST'],
		['an empty devices array', { devices: [] }, 'EMPTY_REQUEST'],
		['a blank uid', { devices: [{ uid: ' ', name: 'PC' }] }, 'INVALID_REQUEST'],
		['a blank name', { devices: [{ uid: KNOWN.uid, name: '' }] }, 'INVALID_REQUEST'],
		['a name that is not text', { devices: [{ uid: KNOWN.uid, name: 7 }] }, 'INVALID_REQUEST'],
		['a body that is not an object', [1], 'INVALID_REQUEST'],
	])('answers 400 for %s', async (_what, json, code) => {
		const response = await remove(json, { 'x-request-id': REQUEST_ID });
		expect(response.status).toBe(400);
		expect(response.headers.get('x-request-id')).toBe(REQUEST_ID);
		expect(await response.json()).toEqual({ code, message: expect.any(String) });
	});

	it('answers 400 INVALID_REQUEST to a body that is not JSON', async () => {
		const response = await apiRequest(server, token, 'POST', DELETIONS, { body: '{not json', headers: { 'content-type': 'application/json' } });
		expect(response.status).toBe(400);
		expect((await response.json()).code).toBe('INVALID_REQUEST');
	});

	it('answers 400 EMPTY_TENANT and 403 FEATURE_NOT_ENABLED behind their switches', async () => {
		server.options.emptyTenant = true;
		const tenant = await remove({ devices: [{ uid: KNOWN.uid, name: KNOWN.name }] });
		expect(tenant.status).toBe(400);
		expect((await tenant.json()).code).toBe('EMPTY_TENANT');
		server.options.emptyTenant = false;
		server.options.dataManagementEnabled = false;
		const feature = await remove({ devices: [{ uid: KNOWN.uid, name: KNOWN.name }] });
		expect(feature.status).toBe(403);
		expect((await feature.json()).code).toBe('FEATURE_NOT_ENABLED');
		expect(server.deletions.requests).toEqual([]);
	});

	it('answers 401 without a body to a missing token and 403 to a credential without the Data management permission', async () => {
		const unauthorized = await remove({ devices: [{ uid: KNOWN.uid, name: KNOWN.name }] }, {}, 'not-a-token');
		expect(unauthorized.status).toBe(401);
		expect(await unauthorized.text()).toBe('');
		const other = await fetchToken(server, { clientId: 'no-dm', clientSecret: 'secret-no-dm' });
		const forbidden = await remove({ devices: [{ uid: KNOWN.uid, name: KNOWN.name }] }, {}, other);
		expect(forbidden.status).toBe(403);
		expect(await forbidden.json()).toEqual({ code: 'FEATURE_NOT_ENABLED', message: expect.stringContaining('permission') });
	});

	it('answers a strict validator\'s 422 for a malformed uid behind deletionMalformedUid', async () => {
		server.options.deletionMalformedUid = '422';
		const response = await remove({ devices: [{ uid: KNOWN.uid, name: KNOWN.name }, { uid: 'nope', name: 'X' }] });
		expect(response.status).toBe(422);
		expect(server.deletions.requests).toEqual([]);
	});

	it('reads uid as device.uid or device.collector.uid, and answers unknown devices and other names as switched', async () => {
		const statuses = async (devices: unknown[]) => (await (await remove({ devices })).json()).devices.map((device: any) => device.status);
		server.options.deletionUnknownDevice = 'FAILED';
		expect(await statuses([{ uid: KNOWN.uid, name: KNOWN.name }, { uid: KNOWN.collectorUid, name: KNOWN.name }])).toEqual(['SCHEDULED', 'FAILED']);
		server.options.deletionUidField = 'collectorUid';
		expect(await statuses([{ uid: KNOWN.uid, name: KNOWN.name }, { uid: KNOWN.collectorUid, name: KNOWN.name }])).toEqual(['FAILED', 'SCHEDULED']);
		server.options.deletionNameMismatch = 'FAILED';
		expect(await statuses([{ uid: KNOWN.collectorUid, name: 'SOMEONE-ELSE' }])).toEqual(['FAILED']);
	});

	it('lists the devices in reverse behind deletionAnswerOrder', async () => {
		server.options.deletionAnswerOrder = 'reversed';
		const body = await (await remove({ devices: [{ uid: uidOf(1), name: 'A' }, { uid: uidOf(2), name: 'B' }] })).json();
		expect(body.devices.map((device: any) => device.name)).toEqual(['B', 'A']);
	});
});
