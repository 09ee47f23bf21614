/**
 * Nexthink Actions, Workflow resource, through n8n-core's real engine (both generations) against
 * the local server: the wire format of Run (v1 and v2), Resume, Get and Get Many; grouping,
 * deduplication and the pairing of execution IDs; checks before any request; 400/403 messages with
 * the Workflows API's `details`; the three "On Error" settings; tool mode.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { WRITES_OFF_NOTE } from '../../../nodes/Nexthink/shared/toolMode';
import { nexthinkCredentials, type RunNodeOptions } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { locator, mapperValue, paired, runActions } from './helpers';

const { startNexthinkServer } = require('../../server');

jest.setTimeout(30_000);

const V1 = '/api/v1/workflows/execute';
const V2 = '/api/v2/workflows/execute';
const LIST = '/api/v1/workflows';
const DETAILS = '/api/v1/workflows/details';
const C1 = 'e0000000-0000-4000-8000-000000000001';
const C2 = 'e0000000-0000-4000-8000-000000000002';
const C3 = 'e0000000-0000-4000-8000-000000000003';
const D2 = 'd0000000-0000-4000-8000-000000000002';
const ALICE = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const BOB = 'S-1-5-21-1004336348-1177238915-682003330-1002';
const APPROVAL_UUID = 'f2000000-0000-4000-8000-000000000004';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer({
		clients: [
			{ clientId: 'nx-client', clientSecret: 'nx-secret-value', permissions: ['nql', 'enrichment', 'remoteActions', 'workflows', 'campaigns'] },
			{ clientId: 'no-wf', clientSecret: 'no-wf-secret', permissions: ['nql', 'enrichment', 'remoteActions', 'campaigns'] },
		],
	});
});

localServerHooks(() => server);


function runParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'workflow',
		operation: 'run',
		workflow: locator('#repair_teams'),
		workflowApiVersion: 'v2',
		workflowDevices: '={{ $json.device }}',
		workflowDeviceIdType: 'collectorUid',
		workflowUsers: '={{ $json.user }}',
		workflowUserIdType: 'sid',
		options: {},
		...extra,
	};
}

const run = (parameters: INodeParameters, items: IDataObject[], options?: Partial<RunNodeOptions>) => runActions(server, parameters, items, options);

const posts = (path: string) => server.requests.filter((r: any) => r.method === 'POST' && r.path === path);
const bodies = (path: string): IDataObject[] => posts(path).map((r: any) => JSON.parse(r.body));
const apiRequests = () => server.requests.filter((r: any) => r.path.startsWith('/api/'));
const outcome = (item: INodeExecutionData) => item.json.nexthinkWorkflow as IDataObject;
/** What the server recorded for an execution ID: the identifier it was created for. */
const targetOf = (executionId: string) => server.actions.executionsById.get(executionId)?.target.input;

describe('Run: wire format and outcomes', () => {
	it('v2: identifier objects of the chosen types, parameters from the mapper and by name, execution IDs paired to each target', async () => {
		const result = await run(
			runParameters({
				workflow: locator('#onboard_user_device'),
				workflowDeviceIdType: 'name',
				workflowUserIdType: 'upn',
				workflowParameters: mapperValue({ site: 'Lisboa' }),
				workflowOtherParameters: { parameter: [{ name: 'ticket', value: '={{ $json.ticket }}' }] },
			}),
			[
				{ device: 'LAPTOP-ZRH-001', user: 'alice.martin@example.com', ticket: 'INC-1' },
				{ device: 'DESKTOP-LIS-001, LAPTOP-ZRH-002', user: '', ticket: 'INC-1' },
			],
		);
		expect(result.error).toBeUndefined();
		const requests = posts(V2);
		expect(requests).toHaveLength(1);
		expect(requests[0].headers['content-type']).toMatch(/^application\/json/);
		expect(JSON.parse(requests[0].body)).toEqual({
			workflowId: '#onboard_user_device',
			devices: [{ name: 'LAPTOP-ZRH-001' }, { name: 'DESKTOP-LIS-001' }, { name: 'LAPTOP-ZRH-002' }],
			users: [{ upn: 'alice.martin@example.com' }],
			params: { site: 'Lisboa', ticket: 'INC-1' },
		});
		const [first, second] = result.items.map(outcome);
		expect(first.requestId).toMatch(UUID);
		expect(second.requestId).toBe(first.requestId);
		expect(first).toMatchObject({ status: 'triggered', workflowId: '#onboard_user_device', apiVersion: 'v2', requestIds: [first.requestId], duplicates: [] });
		const targets = [...(first.targets as IDataObject[]), ...(second.targets as IDataObject[])];
		expect(targets.map((target) => [target.type, target.name ?? target.upn])).toEqual([
			['device', 'LAPTOP-ZRH-001'],
			['user', 'alice.martin@example.com'],
			['device', 'DESKTOP-LIS-001'],
			['device', 'LAPTOP-ZRH-002'],
		]);
		// every execution ID is the one Nexthink created for that very target
		for (const target of targets) {
			expect(target.executionId).toMatch(UUID);
			const ids = Object.fromEntries(Object.entries(target).filter(([key]) => !['type', 'executionId', 'requestId'].includes(key)));
			expect(targetOf(target.executionId as string)).toEqual(ids);
		}
		expect(first.executionIds).toEqual((first.targets as IDataObject[]).map((target) => target.executionId));
		expect(result.items.map(paired)).toEqual([0, 1]);
	});

	it('v2: identifier objects from an expression, device UIDs and user UIDs', async () => {
		const result = await run(runParameters({ workflowDeviceIdType: 'uid', workflowUserIdType: 'uid' }), [
			{ device: [{ collectorUid: C1, name: 'LAPTOP-ZRH-001' }, D2], user: 'a0000000-0000-4000-8000-000000000002' },
		]);
		expect(result.error).toBeUndefined();
		expect(bodies(V2)).toEqual([
			{ workflowId: '#repair_teams', devices: [{ collectorUid: C1, name: 'LAPTOP-ZRH-001' }, { uid: D2 }], users: [{ uid: 'a0000000-0000-4000-8000-000000000002' }] },
		]);
	});

	it('v1: Collector UIDs and SIDs as strings, both lists sent, no params when there are none', async () => {
		const result = await run(runParameters({ workflowApiVersion: 'v1', workflow: { __rl: true, mode: 'id', value: 'password_expiry_reminder' } }), [
			{ user: `${ALICE}\n${BOB}` },
			{ device: C1 },
		]);
		expect(result.error).toBeUndefined();
		expect(bodies(V1)).toEqual([{ workflowId: '#password_expiry_reminder', devices: [C1], users: [ALICE, BOB] }]);
		expect(posts(V2)).toEqual([]);
		const [first, second] = result.items.map(outcome);
		expect(first.targets).toEqual([
			{ type: 'user', sid: ALICE, requestId: first.requestId, executionId: expect.stringMatching(UUID) },
			{ type: 'user', sid: BOB, requestId: first.requestId, executionId: expect.stringMatching(UUID) },
		]);
		expect(targetOf((first.executionIds as string[])[1])).toBe(BOB);
		expect(targetOf((second.executionIds as string[])[0])).toBe(C1);
	});
});

describe('Run: grouping, duplicates and the 10,000-target limit', () => {
	it('sends items with the same parameters together, others apart, each duplicate once', async () => {
		const result = await run(runParameters({ workflowOtherParameters: { parameter: [{ name: 'reason', value: '={{ $json.reason }}' }] } }), [
			{ device: C1, reason: 'slow' },
			{ device: C2, reason: 'crash' },
			{ device: [C1.toUpperCase(), C3], reason: 'slow' },
			{ device: `${C3} ${C3}`, reason: 'slow' },
		]);
		expect(result.error).toBeUndefined();
		expect(bodies(V2)).toEqual([
			{ workflowId: '#repair_teams', devices: [{ collectorUid: C1 }, { collectorUid: C3 }], users: [], params: { reason: 'slow' } },
			{ workflowId: '#repair_teams', devices: [{ collectorUid: C2 }], users: [], params: { reason: 'crash' } },
		]);
		const [a, b, c, d] = result.items.map(outcome);
		expect(a.requestId).not.toBe(b.requestId);
		const [aTarget] = a.targets as IDataObject[];
		expect(c.targets).toEqual([
			{ type: 'device', collectorUid: C1.toUpperCase(), requestId: a.requestId, executionId: aTarget.executionId, sentWithItem: 0 },
			expect.objectContaining({ collectorUid: C3, requestId: a.requestId }),
		]);
		expect(d).toMatchObject({ requestId: a.requestId, duplicates: [C3], targets: [expect.objectContaining({ collectorUid: C3, sentWithItem: 2 })] });
	});

	it('splits a group over requests of at most 10,000 devices and refuses an item with more', async () => {
		const uids = (from: number, count: number) => Array.from({ length: count }, (_, i) => `e1000000-0000-4000-8000-${(from + i).toString(16).padStart(12, '0')}`);
		const result = await run(runParameters({ workflowApiVersion: 'v1' }), [{ device: uids(0, 6000) }, { device: uids(6000, 6000) }, { device: uids(0, 10) }]);
		expect(result.error).toBeUndefined();
		expect(bodies(V1).map((body) => (body.devices as string[]).length)).toEqual([6000, 6000]);
		const [first, second, third] = result.items.map(outcome);
		expect(first.requestId).not.toBe(second.requestId);
		expect(third.requestId).toBe(first.requestId);

		server.clearRequests();
		const tooMany = await run(runParameters({ workflowApiVersion: 'v1' }), [{ device: uids(0, 10_001) }]);
		expect(tooMany.error?.message).toContain('names 10001 devices; the Workflows API takes at most 10000');
		expect(apiRequests()).toEqual([]);
	});
});

describe('Run: every input is checked before any request', () => {
	it.each([
		['a device name in v1', { workflowApiVersion: 'v1' }, { device: 'LAPTOP-ZRH-001' }, 'Devices', 'A device identifier is not valid: Collector UID "LAPTOP-ZRH-001"'],
		['a UPN in v1', { workflowApiVersion: 'v1' }, { user: 'alice.martin@example.com' }, 'Users', 'SID "alice.martin@example.com"'],
		['a bad UPN in v2', { workflowUserIdType: 'upn' }, { user: 'alice' }, 'Users', 'UPN "alice"'],
		['a bad device UID in an identifier object', {}, { device: [{ uid: 'nope' }] }, 'Devices', 'device UID "nope"'],
		['an unknown key in an identifier object', {}, { device: [{ hostname: 'x' }] }, 'Devices', 'has the key "hostname"'],
		['no target at all', {}, { device: '', user: null }, 'Devices', 'No target: "Devices" and "Users" are both empty'],
		['an empty workflow', { workflow: locator('={{ $json.wf }}') }, { device: C1, wf: ' ' }, 'Workflow', 'No workflow is selected'],
		['a parameter given twice', { workflowParameters: mapperValue({ reason: 'a' }), workflowOtherParameters: { parameter: [{ name: 'reason', value: 'b' }] } }, { device: C1 }, 'Other Parameters', 'given in both'],
	])('refuses %s, naming the field (Continue) or the item (Stop Workflow), before any request', async (_label, extra, item, field, message) => {
		const stopped = await run(runParameters(extra as INodeParameters), [item]);
		expect(stopped.error?.message).toContain('Item 0 cannot be sent');
		expect(stopped.error?.message).toContain(message);
		expect(apiRequests()).toEqual([]);

		const continued = await run(runParameters(extra as INodeParameters), [item], { onError: 'continueRegularOutput' });
		expect(outcome(continued.items[0])).toEqual({ status: 'failed', error: { field, message: expect.stringContaining(message) } });
		expect(apiRequests()).toEqual([]);
	});

	it('Continue: bad items get their error, the valid ones are sent', async () => {
		const result = await run(runParameters(), [{ device: C1 }, { device: 'not-a-uid' }, { user: ALICE }], { onError: 'continueRegularOutput' });
		expect(bodies(V2)).toEqual([{ workflowId: '#repair_teams', devices: [{ collectorUid: C1 }], users: [{ sid: ALICE }] }]);
		expect(result.items.map((item) => [paired(item), outcome(item).status])).toEqual([
			[0, 'triggered'],
			[1, 'failed'],
			[2, 'triggered'],
		]);
	});
});

describe('Run: API errors', () => {
	it('403 without the permission names the "Workflows API" permission and passes the code and details', async () => {
		const credentials = { nexthinkApi: { ...nexthinkCredentials(server), clientId: 'no-wf', clientSecret: 'no-wf-secret' } };
		const result = await run(runParameters(), [{ device: C1 }], { credentials });
		expect(result.error?.message).toContain('(HTTP 403): Not authorized: the API credential does not have the Workflows API permission [code FORBIDDEN]');
		expect(result.error?.description).toContain('"Workflows API" permission');
		expect(JSON.stringify(result.run.data)).not.toContain('no-wf-secret');
	});

	it('403 for a workflow without its API trigger: says so; its other requests are not sent, other workflows are', async () => {
		const result = await run(
			runParameters({ workflow: locator('={{ $json.wf }}'), workflowOtherParameters: { parameter: [{ name: 'n', value: '={{ $json.n }}' }] } }),
			[
				{ device: C1, wf: '#manual_disk_cleanup', n: '1' },
				{ device: C2, wf: '#manual_disk_cleanup', n: '2' },
				{ device: C3, wf: '#repair_teams', n: '1' },
			],
			{ onError: 'continueRegularOutput' },
		);
		expect(result.error).toBeUndefined();
		expect(bodies(V2).map((body) => body.workflowId)).toEqual(['#manual_disk_cleanup', '#repair_teams']);
		const [first, second, third] = result.items.map(outcome);
		expect((first.error as IDataObject).message).toContain('cannot be triggered through the API: tick API in its trigger options [code WORKFLOW_NOT_API_ENABLED]');
		expect((first.error as IDataObject).description).toContain('"API" trigger ticked');
		expect((second.error as IDataObject).message).toMatch(/^Not sent: an earlier request of this run was refused/);
		expect(third.status).toBe('triggered');
	});

	it('401 after a token renewal: no further request of the run is sent, every item says so', async () => {
		server.injectFault({ path: V2, status: 401, times: 10 });
		const result = await run(runParameters({ workflow: locator('={{ $json.wf }}') }), [
			{ device: C1, wf: '#repair_teams' },
			{ device: C2, wf: '#onboard_user_device' },
		], { onError: 'continueRegularOutput' });
		// the first request went out again with a fresh token (how often depends on the n8n generation), the other never
		expect(new Set(bodies(V2).map((body) => body.workflowId))).toEqual(new Set(['#repair_teams']));
		expect(server.requests.filter((r: any) => r.path.endsWith('/token')).length).toBeGreaterThanOrEqual(2);
		const [first, second] = result.items.map(outcome);
		expect(first).toMatchObject({ status: 'failed', error: { httpCode: '401' } });
		expect(second).toMatchObject({ status: 'failed', error: { httpCode: '401', message: expect.stringMatching(/^Not sent: an earlier request of this run was refused/) } });
	});

	it('400 passes the code and details: an inactive workflow, an unknown one', async () => {
		const inactive = await run(runParameters({ workflow: locator('#legacy_inventory_sync') }), [{ device: C1 }]);
		expect(inactive.error?.message).toContain('(HTTP 400): Workflow #legacy_inventory_sync is inactive [code WORKFLOW_INACTIVE]');
		expect(inactive.error?.description).toContain('an inactive workflow');
		const unknown = await run(runParameters({ workflow: locator('#nope') }), [{ device: C1 }]);
		expect(unknown.error?.message).toContain('No workflow with the NQL ID #nope [code WORKFLOW_NOT_FOUND]');
	});

	it('never sends execute twice: not after a 503, nor after a 2xx without the request ID', async () => {
		server.injectFault({ path: V2, status: 503, body: { code: 'DOWN', details: 'maintenance' } });
		const refused = await run(runParameters(), [{ device: C1 }]);
		expect(refused.error?.message).toContain('(HTTP 503): maintenance [code DOWN]');
		expect(posts(V2)).toHaveLength(1);

		server.clearRequests();
		server.injectFault({ path: V2, status: 200, body: { requestUuid: 'x' } });
		const bad = await run(runParameters(), [{ device: C1 }], { onError: 'continueRegularOutput' });
		expect(posts(V2)).toHaveLength(1);
		expect((outcome(bad.items[0]).error as IDataObject).message).toContain('unexpected answer (HTTP 200, application/json)');
		expect((outcome(bad.items[0]).error as IDataObject).description).toContain('The workflow may have been triggered');
	});

	it('a run request without an answer in the Request Timeout, or refused with 429, is not sent again', async () => {
		// the server answers after 3 s; the node gives up after 0.5 s (no wall-clock assertion)
		server.injectFault({ path: V1, delayMs: 3000 });
		const result = await run(runParameters({ workflowApiVersion: 'v1', options: { requestTimeoutSeconds: 0.5 } }), [{ device: C1 }]);
		expect(result.error?.message).toContain('could not get an answer from Nexthink');
		expect(result.error?.description).toContain('The workflow may have been triggered');
		expect(posts(V1)).toHaveLength(1);

		server.clearRequests();
		server.injectFault({ path: V2, status: 429, headers: { 'retry-after': '1' }, body: { code: 'TOO_MANY', details: 'slow down' } });
		const limited = await run(runParameters(), [{ device: C1 }]);
		expect(limited.error?.message).toContain('(HTTP 429): slow down [code TOO_MANY]');
		expect(posts(V2)).toHaveLength(1);
	});

	it('an answer with fewer execution IDs than targets: request ID kept, execution IDs not guessed', async () => {
		server.injectFault({ path: V2, status: 200, body: { requestUuid: 'r-1', executionsUuids: ['x-1'] } });
		const result = await run(runParameters(), [{ device: [C1, C2] }]);
		expect(result.error).toBeUndefined();
		expect(outcome(result.items[0])).toMatchObject({ status: 'triggered', requestId: 'r-1', executionIds: [], executionIdsPaired: false });
		expect((outcome(result.items[0]).targets as IDataObject[])[0]).toEqual({ type: 'device', collectorUid: C1, requestId: 'r-1' });
	});

	it('Stop Workflow after a request ran: the error names the request already made', async () => {
		const result = await run(runParameters({ workflow: locator('={{ $json.wf }}') }), [
			{ device: C1, wf: '#repair_teams' },
			{ device: C2, wf: '#nope' },
		]);
		expect(result.error?.message).toContain('[code WORKFLOW_NOT_FOUND]');
		expect(posts(V2)).toHaveLength(2);
		const made = [...server.actions.requests.values()].filter((request: any) => request.objectId === '#repair_teams').pop();
		expect(result.error?.description).toContain(`1 earlier request of this run did run (request ID ${made.requestId})`);
	});
});

describe('Run: On Error pairing', () => {
	const ITEMS = [
		{ device: C1, wf: '#repair_teams' },
		{ device: 'bad', wf: '#repair_teams' },
		{ device: C2, wf: '#weekly_license_review' },
		{ device: C3, wf: '#repair_teams' },
	];
	const params = () => runParameters({ workflow: locator('={{ $json.wf }}') });

	it('Continue (using error output): failed items on the error output, each paired to its input', async () => {
		const result = await run(params(), ITEMS, { onError: 'continueErrorOutput' });
		expect(result.error).toBeUndefined();
		const [main, errors] = result.outputs;
		expect(main.map((item) => [paired(item), item.json.device, outcome(item).status])).toEqual([
			[0, C1, 'triggered'],
			[3, C3, 'triggered'],
		]);
		expect(errors.map(paired)).toEqual([1, 2]);
		expect(errors[0].json.device).toBe('bad');
		expect(JSON.stringify(errors[0].json)).toContain('Item 1: A device identifier is not valid');
		expect(JSON.stringify(errors[1].json)).toContain('WORKFLOW_NOT_API_ENABLED');
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
});

describe('Run and Resume as an AI tool', () => {
	const asTool = { typeName: 'n8n-nodes-nexthink.nexthinkActionsTool' };

	it('Run only checks and reports, unless "Allow Writes When Used as a Tool" is on', async () => {
		const checked = await run(runParameters(), [{ device: C1 }, { device: C1 }], asTool);
		expect(checked.error).toBeUndefined();
		expect(apiRequests()).toEqual([]);
		expect(outcome(checked.items[0])).toEqual({
			status: 'validated',
			workflowId: '#repair_teams',
			apiVersion: 'v2',
			requestIds: [],
			executionIds: [],
			targets: [{ type: 'device', collectorUid: C1 }],
			duplicates: [],
			note: WRITES_OFF_NOTE,
		});
		expect((outcome(checked.items[1]).targets as IDataObject[])[0].sentWithItem).toBe(0);
		const bad = await run(runParameters(), [{ device: 'PC-1' }], asTool);
		expect(bad.error?.message).toContain('not valid');
		const written = await run(runParameters({ options: { allowWritesAsTool: true } }), [{ device: C1 }], asTool);
		expect(outcome(written.items[0]).status).toBe('triggered');
		expect(posts(V2)).toHaveLength(1);
	});

	it('Resume only checks, unless allowed', async () => {
		const checked = await run(resumeParameters({ executionUuid: C1 }), [{}], asTool);
		expect(checked.error).toBeUndefined();
		expect(checked.items[0].json.nexthinkWorkflowResume).toEqual({ status: 'validated', workflowUuid: APPROVAL_UUID, executionUuid: C1, parameters: { approved: 'yes' }, note: WRITES_OFF_NOTE });
		expect(apiRequests()).toEqual([]);
	});
});

function resumeParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'workflow',
		operation: 'resume',
		workflowUuid: APPROVAL_UUID,
		executionUuid: '={{ $json.nexthinkWorkflow.executionIds[0] }}',
		resumeParameters: { parameter: [{ name: 'approved', value: 'yes' }] },
		options: {},
		...extra,
	};
}

describe('Resume', () => {
	it('sends the wait-for-event trigger to the execution Run Workflow reported; a second resume is refused with code and details', async () => {
		const started = await run(runParameters({ workflow: locator('#disk_cleanup_with_approval') }), [{ device: C1 }]);
		const executionId = (outcome(started.items[0]).executionIds as string[])[0];
		server.clearRequests();

		const resumed = await run(resumeParameters(), started.items.map((item) => item.json));
		expect(resumed.error).toBeUndefined();
		const [request] = posts(`/api/v1/workflows/workflows/${APPROVAL_UUID}/execution/${executionId}/trigger`);
		expect(JSON.parse(request.body)).toEqual({ parameters: { approved: 'yes' } });
		expect(resumed.items[0].json.nexthinkWorkflowResume).toEqual({
			status: 'resumed',
			workflowUuid: APPROVAL_UUID,
			executionUuid: executionId,
			parameters: { approved: 'yes' },
			requestId: expect.stringMatching(UUID),
			requestIds: [expect.stringMatching(UUID)],
		});
		expect(server.actions.executionsById.get(executionId).resumes).toEqual([{ approved: 'yes' }]);

		const again = await run(resumeParameters(), started.items.map((item) => item.json));
		expect(again.error?.message).toContain(`(HTTP 400): Execution ${executionId} is not waiting for an event [code EXECUTION_NOT_WAITING]`);
		expect(again.error?.description).toContain('an execution that is not waiting');
	});

	it('On Error: Stop Workflow names the resumes already made; Continue (using error output) pairs the failed item', async () => {
		const started = await run(runParameters({ workflow: locator('#disk_cleanup_with_approval') }), [{ device: C1 }, { device: C2 }]);
		const [first, second] = (outcome(started.items[0]).executionIds as string[]).concat(outcome(started.items[1]).executionIds as string[]);
		const items = [{ execution: first }, { execution: first }, { execution: second }];
		const parameters = resumeParameters({ executionUuid: '={{ $json.execution }}' });

		const stopped = await run(parameters, items);
		expect(stopped.error?.message).toContain('[code EXECUTION_NOT_WAITING]');
		const [made] = stopped.error?.description?.match(/request ID [0-9a-f-]{36}/) ?? [];
		expect(made).toBeDefined();
		expect(stopped.error?.description).toContain('1 earlier request of this run did run');
		expect(server.actions.executionsById.get(second).resumes).toEqual([]);

		const continued = await run(parameters, items.slice(1), { onError: 'continueErrorOutput' });
		const [main, errors] = continued.outputs;
		expect(main.map((item) => [paired(item), (item.json.nexthinkWorkflowResume as IDataObject).status])).toEqual([[1, 'resumed']]);
		expect(errors.map(paired)).toEqual([0]);
		expect(JSON.stringify(errors[0].json)).toContain('EXECUTION_NOT_WAITING');
	});

	it('checks the UUIDs and parameters before any request', async () => {
		const notUuid = await run(resumeParameters({ workflowUuid: '#disk_cleanup_with_approval' }), [{ nexthinkWorkflow: { executionIds: [C1] } }]);
		expect(notUuid.error?.message).toContain('Workflow UUID must be a UUID (the workflow\'s "uuid" from Get Workflow, not its NQL ID), got "#disk_cleanup_with_approval"');
		const empty = await run(resumeParameters({ resumeParameters: { parameter: [{ name: 'approved', value: '' }] } }), [{ nexthinkWorkflow: { executionIds: [C1] } }]);
		expect(empty.error?.message).toContain('Parameter "approved" is empty');
		const noExecution = await run(resumeParameters(), [{}], { onError: 'continueRegularOutput' });
		expect(noExecution.items[0].json.error).toContain('Execution UUID must be a UUID');
		expect(apiRequests()).toEqual([]);
	});
});

describe('Get and Get Many', () => {
	it('Get: GET details?nqlId=, the workflow as the item; an unknown NQL ID fails naming it', async () => {
		const result = await run({ resource: 'workflow', operation: 'get', workflow: { __rl: true, mode: 'id', value: 'repair_teams' } }, [{}]);
		expect(result.error).toBeUndefined();
		const request = server.requests.find((r: any) => r.path === DETAILS);
		expect([request.method, request.query]).toEqual(['GET', { nqlId: '#repair_teams' }]);
		expect(result.items[0].json).toMatchObject({ id: '#repair_teams', uuid: 'f2000000-0000-4000-8000-000000000001', triggerMethods: { apiEnabled: true } });

		const unknown = await run({ resource: 'workflow', operation: 'get', workflow: locator('#nope') }, [{}]);
		expect(unknown.error?.message).toBe('Getting workflow #nope failed: Nexthink has no workflow with this NQL ID');
		expect(unknown.error?.description).toContain('Copy NQL ID');
	});

	it('Get Many: by default one call per dependency with trigger method API, merged, each workflow once', async () => {
		const result = await run({ resource: 'workflow', operation: 'getMany', returnAll: true }, [{}]);
		expect(result.error).toBeUndefined();
		expect(server.requests.filter((r: any) => r.path === LIST).map((r: any) => r.query)).toEqual([
			{ dependency: 'DEVICE', triggerMethod: 'API' },
			{ dependency: 'USER', triggerMethod: 'API' },
			{ dependency: 'USER_AND_DEVICE', triggerMethod: 'API' },
			{ dependency: 'NONE', triggerMethod: 'API' },
		]);
		expect(result.items.map((item) => item.json.id)).toEqual([
			'#repair_teams',
			'#disk_cleanup_with_approval',
			'#legacy_inventory_sync',
			'#password_expiry_reminder',
			'#onboard_user_device',
		]);
	});

	it('Get Many: several trigger methods are merged without duplicates; active only; limit', async () => {
		const both = await run(
			{ resource: 'workflow', operation: 'getMany', returnAll: true, filters: { triggerMethods: ['API', 'MANUAL'], dependencies: ['DEVICE'], activeOnly: true } },
			[{}],
		);
		expect(server.requests.filter((r: any) => r.path === LIST).map((r: any) => r.query)).toEqual([
			{ dependency: 'DEVICE', triggerMethod: 'API', fetchOnlyActiveWorkflows: 'true' },
			{ dependency: 'DEVICE', triggerMethod: 'MANUAL', fetchOnlyActiveWorkflows: 'true' },
		]);
		expect(both.items.map((item) => item.json.id)).toEqual(['#repair_teams', '#disk_cleanup_with_approval', '#manual_disk_cleanup']);
		const two = await run({ resource: 'workflow', operation: 'getMany', returnAll: false, limit: 2 }, [{}]);
		expect(two.items).toHaveLength(2);
	});

	it('Get Many: a 2xx that is not a list fails with "unexpected answer"; 403 names the permission', async () => {
		server.injectFault({ path: LIST, status: 200, body: {} });
		const bad = await run({ resource: 'workflow', operation: 'getMany', returnAll: true }, [{}]);
		expect(bad.error?.message).toContain('unexpected answer (HTTP 200, application/json)');
		const credentials = { nexthinkApi: { ...nexthinkCredentials(server), clientId: 'no-wf', clientSecret: 'no-wf-secret' } };
		const forbidden = await run({ resource: 'workflow', operation: 'getMany', returnAll: true }, [{}], { credentials });
		expect(forbidden.error?.description).toContain('"Workflows API" permission');
	});
});
