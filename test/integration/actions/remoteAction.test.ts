/**
 * Nexthink Actions, Remote Action resource, through n8n-core's real engine (both generations)
 * against the local server: the wire format of Run, Get and Get Many, grouping and deduplication,
 * checks before any request, 400/403/404 messages, the three "On Error" settings, and tool mode.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { WRITES_OFF_NOTE } from '../../../nodes/Nexthink/shared/toolMode';
import { nexthinkCredentials, type RunNodeOptions, type RunNodeResult } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { locator, mapperValue, paired, runActions } from './helpers';

const { startNexthinkServer } = require('../../server');

jest.setTimeout(30_000);

const EXECUTE = '/api/v1/act/execute';
const C1 = 'e0000000-0000-4000-8000-000000000001';
const C2 = 'e0000000-0000-4000-8000-000000000002';
const C3 = 'e0000000-0000-4000-8000-000000000003';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer({
		clients: [
			{ clientId: 'nx-client', clientSecret: 'nx-secret-value', permissions: ['nql', 'enrichment', 'remoteActions', 'workflows', 'campaigns'] },
			{ clientId: 'no-ra', clientSecret: 'no-ra-secret', permissions: ['nql', 'enrichment', 'workflows', 'campaigns'] },
		],
	});
});

localServerHooks(() => server);

const RESTART = { ServiceName: 'Spooler', StartType: 'Manual' };

function runParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'remoteAction',
		operation: 'run',
		remoteAction: locator('#restart_service'),
		collectorUids: '={{ $json.collector }}',
		scriptInputs: mapperValue(RESTART),
		options: {},
		...extra,
	};
}

const run = (parameters: INodeParameters, items: IDataObject[], options?: Partial<RunNodeOptions>) => runActions(server, parameters, items, options);

function executeBodies(): IDataObject[] {
	return server.requests.filter((r: any) => r.method === 'POST' && r.path === EXECUTE).map((r: any) => JSON.parse(r.body));
}

const outcome = (item: INodeExecutionData) => item.json.nexthinkRemoteAction as IDataObject;

describe('Run: wire format and outcomes', () => {
	it('sends the documented ExecutionRequest and gives each item its request ID', async () => {
		const result = await run(
			runParameters({ options: { expiresInMinutes: 120, externalSource: 'n8n', reason: 'High CPU', externalReference: 'INC-1' } }),
			[{ collector: C1 }, { collector: C2 }],
		);
		expect(result.error).toBeUndefined();
		const requests = server.requests.filter((r: any) => r.path === EXECUTE);
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].headers['content-type']).toMatch(/^application\/json/);
		expect(requests[0].headers.authorization).toMatch(/^Bearer /);
		expect(JSON.parse(requests[0].body)).toEqual({
			remoteActionId: '#restart_service',
			devices: [C1, C2],
			params: RESTART,
			expiresInMinutes: 120,
			triggerInfo: { externalSource: 'n8n', reason: 'High CPU', externalReference: 'INC-1' },
		});
		const requestId = outcome(result.items[0]).requestId as string;
		expect(requestId).toMatch(UUID);
		expect(server.actions.requests.get(requestId).objectId).toBe('#restart_service');
		expect(result.items.map((item) => [paired(item), item.json.collector, outcome(item).status, outcome(item).requestId])).toEqual([
			[0, C1, 'triggered', requestId],
			[1, C2, 'triggered', requestId],
		]);
		expect(outcome(result.items[1])).toMatchObject({
			remoteActionId: '#restart_service',
			requestIds: [requestId],
			expiresInMinutes: 120,
			devices: [{ collectorUid: C2, requestId }],
			duplicates: [],
		});
	});

	it('adds the # to an NQL ID typed without it, sends no triggerInfo when none is set and 60 minutes by default', async () => {
		const result = await run(runParameters({ remoteAction: { __rl: true, mode: 'id', value: 'clear_teams_cache' }, scriptInputs: mapperValue({}) }), [
			{ collector: C1 },
		]);
		expect(result.error).toBeUndefined();
		expect(executeBodies()).toEqual([{ remoteActionId: '#clear_teams_cache', devices: [C1], params: {}, expiresInMinutes: 60 }]);
	});

	it('runs a remote action without inputs when Script Inputs was never touched (its default value)', async () => {
		const parameters = runParameters({ remoteAction: locator('#get_battery_health') });
		delete parameters.scriptInputs;
		const result = await run(parameters, [{ collector: C1 }]);
		expect(result.error).toBeUndefined();
		expect(executeBodies()).toEqual([{ remoteActionId: '#get_battery_health', devices: [C1], params: {}, expiresInMinutes: 60 }]);
	});

	it('takes a list per item and several UIDs in one text', async () => {
		const result = await run(runParameters(), [{ collector: [C1, C2] }, { collector: `${C3}, ${C1.toUpperCase()}` }]);
		expect(result.error).toBeUndefined();
		expect(executeBodies().map((body) => body.devices)).toEqual([[C1, C2, C3]]);
		expect(outcome(result.items[1]).devices).toEqual([
			{ collectorUid: C3, requestId: outcome(result.items[0]).requestId },
			{ collectorUid: C1.toUpperCase(), requestId: outcome(result.items[0]).requestId, sentWithItem: 0 },
		]);
	});
});

describe('Run: grouping, duplicates and the 10,000-device limit', () => {
	it('sends items with the same inputs together, others apart, each duplicate once', async () => {
		const result = await run(runParameters({ scriptInputs: mapperValue({ ServiceName: '={{ $json.service }}', StartType: 'Manual' }) }), [
			{ collector: C1, service: 'Spooler' },
			{ collector: C2, service: 'BITS' },
			{ collector: C1, service: 'Spooler' },
			{ collector: [C3, C3], service: 'Spooler' },
		]);
		expect(result.error).toBeUndefined();
		expect(executeBodies()).toEqual([
			{ remoteActionId: '#restart_service', devices: [C1, C3], params: { ServiceName: 'Spooler', StartType: 'Manual' }, expiresInMinutes: 60 },
			{ remoteActionId: '#restart_service', devices: [C2], params: { ServiceName: 'BITS', StartType: 'Manual' }, expiresInMinutes: 60 },
		]);
		const [a, b, c, d] = result.items.map(outcome);
		expect(a.requestId).not.toBe(b.requestId);
		expect(c).toMatchObject({ status: 'triggered', requestId: a.requestId, devices: [{ collectorUid: C1, requestId: a.requestId, sentWithItem: 0 }] });
		expect(d).toMatchObject({ requestId: a.requestId, devices: [{ collectorUid: C3, requestId: a.requestId }], duplicates: [C3] });
		expect(result.items.map(paired)).toEqual([0, 1, 2, 3]);
	});

	it('splits a group over requests of at most 10,000 devices and refuses an item with more', async () => {
		const uids = (from: number, count: number) =>
			Array.from({ length: count }, (_, i) => `e1000000-0000-4000-8000-${(from + i).toString(16).padStart(12, '0')}`);
		const result = await run(runParameters(), [{ collector: uids(0, 6000) }, { collector: uids(6000, 6000) }, { collector: uids(0, 3000) }]);
		expect(result.error).toBeUndefined();
		expect(executeBodies().map((body) => (body.devices as string[]).length)).toEqual([6000, 6000]);
		const [first, second, third] = result.items.map(outcome);
		expect(first.requestId).not.toBe(second.requestId);
		expect(third.requestId).toBe(first.requestId);

		server.clearRequests();
		const tooMany = await run(runParameters(), [{ collector: uids(0, 10_001) }]);
		expect(tooMany.error?.message).toContain('10001 devices');
		expect(executeBodies()).toEqual([]);
	});
});

describe('Run: every input is checked before any request', () => {
	const BAD = [
		{ collector: C1 },
		{ collector: 'LAPTOP-42' },
		{ collector: '' },
	];

	it('Stop Workflow: names the item and field, sends nothing', async () => {
		const result = await run(runParameters(), BAD);
		expect(result.error?.message).toBe(
			'2 items cannot be sent; the first is item 1: A Collector UID is not a UUID: "LAPTOP-42". Remote actions target devices by their Collector UID (device.collector.uid, e.g. 3fa85f64-5717-4562-b3fc-2c963f66afa6), not by device name or device.uid',
		);
		expect(result.error?.description).toContain('Nothing was sent to Nexthink');
		expect(result.error?.description).toContain('Item 2: No target device: "Collector UIDs" is empty');
		expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toEqual([]);
	});

	it.each([
		['expiry 59', { expiresInMinutes: 59 }, 'Expires After (Minutes) must be a whole number from 60 to 10080 (7 days), got number 59'],
		['expiry 10,081', { expiresInMinutes: 10_081 }, 'Expires After (Minutes) must be a whole number from 60 to 10080 (7 days), got number 10081'],
		['a reason of 501 characters', { reason: 'x'.repeat(501) }, 'Reason is 501 characters long; Nexthink accepts at most 500'],
		['Request Timeout 0', { requestTimeoutSeconds: 0 }, 'Request Timeout must be a number of seconds above 0'],
	])('refuses %s before any request', async (_label, options, message) => {
		const result = await run(runParameters({ options }), [{ collector: C1 }]);
		expect(result.error?.message).toContain(message);
		expect(executeBodies()).toEqual([]);
	});

	it('refuses an empty remote action and a script input given as an object', async () => {
		const empty = await run(runParameters({ remoteAction: locator('={{ $json.ra }}') }), [{ collector: C1, ra: ' ' }]);
		expect(empty.error?.message).toContain('No remote action is selected');
		const objectInput = await run(runParameters({ scriptInputs: mapperValue({ ServiceName: '={{ $json.obj }}', StartType: 'Manual' }) }), [
			{ collector: C1, obj: { a: 1 } },
		]);
		expect(objectInput.error?.message).toContain('Script input "ServiceName" must be text, got an object');
		expect(executeBodies()).toEqual([]);
	});

	it('Continue: bad items get their error, the valid ones are sent', async () => {
		const result = await run(runParameters(), BAD, { onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(executeBodies().map((body) => body.devices)).toEqual([[C1]]);
		expect(result.items.map((item) => [paired(item), outcome(item).status])).toEqual([
			[0, 'triggered'],
			[1, 'failed'],
			[2, 'failed'],
		]);
		expect(outcome(result.items[1]).error).toMatchObject({ field: 'Collector UIDs', message: expect.stringContaining('"LAPTOP-42"') });
	});
});

describe('Run: API errors', () => {
	it('403 without the permission names the "Remote Actions API" permission and passes the code', async () => {
		const credentials = { nexthinkApi: { ...nexthinkCredentials(server), clientId: 'no-ra', clientSecret: 'no-ra-secret' } };
		const result = await run(runParameters(), [{ collector: C1 }], { credentials });
		expect(result.error?.message).toContain('(HTTP 403)');
		expect(result.error?.message).toContain('[code FORBIDDEN]');
		expect(result.error?.description).toContain('"Remote Actions API" permission');
		expect(JSON.stringify(result.run.data)).not.toContain('no-ra-secret');
	});

	it('403 for a remote action without its API checkbox: says so; its other requests are not sent, other remote actions are', async () => {
		const result = await run(
			runParameters({
				remoteAction: locator('={{ $json.ra }}'),
				scriptInputs: mapperValue({}),
				options: { expiresInMinutes: '={{ $json.expiry }}' },
			}),
			[
				{ collector: C1, ra: '#reset_network_stack', expiry: 60 },
				{ collector: C2, ra: '#reset_network_stack', expiry: 120 },
				{ collector: C3, ra: '#clear_teams_cache', expiry: 60 },
			],
			{ onError: 'continueRegularOutput' },
		);
		expect(result.error).toBeUndefined();
		expect(executeBodies().map((body) => body.remoteActionId)).toEqual(['#reset_network_stack', '#clear_teams_cache']);
		const [first, second, third] = result.items.map(outcome);
		expect(first.status).toBe('failed');
		expect((first.error as IDataObject).message).toContain('[code REMOTE_ACTION_NOT_API_ENABLED]');
		expect((first.error as IDataObject).description).toContain('"API" checkbox');
		expect(second.status).toBe('failed');
		expect((second.error as IDataObject).message).toMatch(/^Not sent: an earlier request of this run was refused/);
		expect(third.status).toBe('triggered');
	});

	it('400 passes the API code and message (a value the input does not allow)', async () => {
		// the node's own check against the details refuses such a value first (scriptInputs.test.ts):
		// here Nexthink refuses a value the details allowed, e.g. after the remote action changed
		server.injectFault({ path: EXECUTE, status: 400, body: { code: 'INVALID_PARAMS', message: 'params.StartType must be one of Automatic, Disabled' } });
		const result = await run(runParameters(), [{ collector: C1 }]);
		expect(result.error?.message).toMatch(/\(HTTP 400\): .*\[code INVALID_PARAMS\]/);
		expect(result.error?.description).toContain('a value it does not allow');
	});

	it('an unknown remote action fails on its details (404 with its code) before any run request', async () => {
		const result = await run(runParameters({ remoteAction: locator('#nope'), scriptInputs: mapperValue({}) }), [{ collector: C1 }]);
		expect(result.error?.message).toContain('[code REMOTE_ACTION_NOT_FOUND]');
		expect(result.error?.description).toContain('Nothing was sent');
		expect(executeBodies()).toEqual([]);
	});

	it('never sends execute twice: not after a 503, nor after a 2xx that is not the documented answer', async () => {
		server.injectFault({ path: EXECUTE, status: 503, body: { message: 'down' } });
		const refused = await run(runParameters(), [{ collector: C1 }]);
		expect(refused.error?.message).toContain('(HTTP 503)');
		expect(executeBodies()).toHaveLength(1);

		server.clearRequests();
		server.injectFault({ path: EXECUTE, status: 200, body: '<html>login</html>', contentType: 'text/html' });
		const html = await run(runParameters(), [{ collector: C1 }], { onError: 'continueRegularOutput' });
		expect(executeBodies()).toHaveLength(1);
		const failed = outcome(html.items[0]);
		expect(failed.status).toBe('failed');
		expect((failed.error as IDataObject).message).toContain('unexpected answer (HTTP 200, text/html)');
		expect((failed.error as IDataObject).description).toContain('may have been triggered');
	});

	it('a run request without an answer in the Request Timeout is not sent again and may have run', async () => {
		// the server answers after 3 s; the node gives up after 0.5 s (no wall-clock assertion)
		server.injectFault({ path: EXECUTE, delayMs: 3000 });
		const result = await run(runParameters({ options: { requestTimeoutSeconds: 0.5 } }), [{ collector: C1 }]);
		expect(result.error?.message).toContain('could not get an answer from Nexthink');
		expect(result.error?.description).toContain('The remote action may have been triggered');
		expect(executeBodies()).toHaveLength(1);

		server.clearRequests();
		server.injectFault({ path: EXECUTE, status: 429, headers: { 'retry-after': '1' }, body: { code: 'TOO_MANY', message: 'slow down' } });
		const limited = await run(runParameters(), [{ collector: C1 }]);
		expect(limited.error?.message).toContain('(HTTP 429): slow down [code TOO_MANY]');
		expect(executeBodies()).toHaveLength(1);
	});

	it('Stop Workflow after a request ran: the error names the request IDs already made', async () => {
		const before = new Set(server.actions.requests.keys());
		const result = await run(
			runParameters({ remoteAction: locator('={{ $json.ra }}'), scriptInputs: mapperValue({}) }),
			[
				{ collector: C1, ra: '#clear_teams_cache' },
				// its details can be read (so the script inputs check passes); its run is refused
				{ collector: C2, ra: '#reset_network_stack' },
			],
		);
		expect(result.error?.message).toContain('[code REMOTE_ACTION_NOT_API_ENABLED]');
		const made = executeBodies();
		expect(made).toHaveLength(2);
		const created = [...server.actions.requests.keys()].filter((id) => !before.has(id));
		expect(created).toHaveLength(1);
		const [requestId] = created;
		expect(result.error?.description).toContain('1 earlier request of this run did run');
		expect(result.error?.description).toContain(String(requestId));
	});
});

describe('Run: On Error pairing', () => {
	const ITEMS = [
		{ collector: C1, ra: '#clear_teams_cache' },
		{ collector: 'not-a-uid', ra: '#clear_teams_cache' },
		{ collector: C2, ra: '#reset_network_stack' },
		{ collector: C3, ra: '#clear_teams_cache' },
	];
	const params = () => runParameters({ remoteAction: locator('={{ $json.ra }}'), scriptInputs: mapperValue({}) });

	it('Continue (using error output): failed items on the error output, each paired to its input', async () => {
		const result = await run(params(), ITEMS, { onError: 'continueErrorOutput' });
		expect(result.error).toBeUndefined();
		const [main, errors] = result.outputs;
		expect(main.map((item) => [paired(item), item.json.collector, outcome(item).status])).toEqual([
			[0, C1, 'triggered'],
			[3, C3, 'triggered'],
		]);
		expect(errors.map(paired)).toEqual([1, 2]);
		expect(errors[0].json.collector).toBe('not-a-uid');
		expect(String((errors[0].json.error as IDataObject).message ?? errors[0].json.error)).toContain('Item 1: A Collector UID is not a UUID');
		expect(JSON.stringify(errors[1].json)).toContain('REMOTE_ACTION_NOT_API_ENABLED');
	});

	it('Continue (regular output): one item per input, in order', async () => {
		const result = await run(params(), ITEMS, { onError: 'continueRegularOutput' });
		expect(result.outputs).toHaveLength(1);
		expect(result.items.map((item) => [paired(item), outcome(item).status])).toEqual([
			[0, 'triggered'],
			[1, 'failed'],
			[2, 'failed'],
			[3, 'triggered'],
		]);
	});

	it('Stop Workflow: the bad item stops the run before any request', async () => {
		const result = await run(params(), ITEMS);
		expect(result.error?.message).toContain('Item 1 cannot be sent');
		expect(executeBodies()).toEqual([]);
	});
});

describe('Run as an AI tool', () => {
	const asTool = { typeName: 'n8n-nodes-nexthink.nexthinkActionsTool' };

	it('only checks and reports, unless "Allow Writes When Used as a Tool" is on', async () => {
		const checked = await run(runParameters(), [{ collector: C1 }, { collector: C1 }], asTool);
		expect(checked.error).toBeUndefined();
		expect(executeBodies()).toEqual([]);
		expect(outcome(checked.items[0])).toEqual({
			status: 'validated',
			remoteActionId: '#restart_service',
			requestIds: [],
			expiresInMinutes: 60,
			devices: [{ collectorUid: C1 }],
			duplicates: [],
			note: WRITES_OFF_NOTE,
		});
		expect(outcome(checked.items[1]).devices).toEqual([{ collectorUid: C1, sentWithItem: 0 }]);

		const bad = await run(runParameters(), [{ collector: 'PC-1' }], asTool);
		expect(bad.error?.message).toContain('not a UUID');

		const written = await run(runParameters({ options: { allowWritesAsTool: true } }), [{ collector: C1 }], asTool);
		expect(outcome(written.items[0]).status).toBe('triggered');
		expect(executeBodies()).toHaveLength(1);
	});
});

describe('Get and Get Many', () => {
	it('Get: GET details?nql-id=, the remote action as the item', async () => {
		const result = await run({ resource: 'remoteAction', operation: 'get', remoteAction: locator('#restart_service') }, [{}]);
		expect(result.error).toBeUndefined();
		const request = server.requests.find((r: any) => r.path === '/api/v1/act/remote-action/details');
		expect(request.method).toBe('GET');
		expect(request.query).toEqual({ 'nql-id': '#restart_service' });
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ id: '#restart_service', targeting: { apiEnabled: true } });
		expect((result.items[0].json.scriptInfo as IDataObject).inputs).toHaveLength(2);
	});

	it('Get: 404 passes the code and message, with a hint', async () => {
		const result = await run({ resource: 'remoteAction', operation: 'get', remoteAction: locator('#nope') }, [{}]);
		expect(result.error?.message).toContain('Getting remote action #nope failed (HTTP 404)');
		expect(result.error?.message).toContain('[code REMOTE_ACTION_NOT_FOUND]');
		expect(result.error?.description).toContain('Copy NQL ID');
	});

	it('Get Many: API-enabled only by default, all on request, limit', async () => {
		const enabled = await run({ resource: 'remoteAction', operation: 'getMany', returnAll: true }, [{}]);
		const all = await run({ resource: 'remoteAction', operation: 'getMany', returnAll: true, filters: { apiEnabledOnly: false } }, [{}]);
		const two = await run({ resource: 'remoteAction', operation: 'getMany', returnAll: false, limit: 2, filters: { apiEnabledOnly: false } }, [{}]);
		const ids = (result: RunNodeResult) => result.items.map((item) => item.json.id);
		expect(ids(enabled)).toEqual(['#restart_service', '#kill_runaway_process', '#clear_teams_cache', '#get_battery_health']);
		expect(ids(all)).toEqual(expect.arrayContaining(['#collect_crash_dumps', '#reset_network_stack']));
		expect(ids(all)).toHaveLength(6);
		expect(ids(two)).toHaveLength(2);
		const lists = server.requests.filter((r: any) => r.path === '/api/v1/act/remote-action');
		expect(lists.map((r: any) => [r.method, r.query])).toEqual([
			['GET', {}],
			['GET', {}],
			['GET', {}],
		]);
	});

	it('Get Many: a 2xx that is not a list fails with "unexpected answer"', async () => {
		server.injectFault({ path: '/api/v1/act/remote-action', status: 200, body: {} });
		const result = await run({ resource: 'remoteAction', operation: 'getMany', returnAll: true }, [{}]);
		expect(result.error?.message).toContain('unexpected answer (HTTP 200, application/json)');
	});

	it('Get Many: 403 names the permission', async () => {
		const credentials = { nexthinkApi: { ...nexthinkCredentials(server), clientId: 'no-ra', clientSecret: 'no-ra-secret' } };
		const result = await run({ resource: 'remoteAction', operation: 'getMany', returnAll: true }, [{}], { credentials });
		expect(result.error?.description).toContain('"Remote Actions API" permission');
	});
});
