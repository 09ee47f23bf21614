/**
 * Nexthink Actions, Device → Delete (Data Management API), through n8n-core's real engine (both
 * generations) against the local server: batches of at most 100 with their own x-request-id, one
 * outcome per item from the per-device answer (SCHEDULED / INVALID / FAILED) under the three "On
 * Error" settings, the checks before any request, Maximum Devices per Run, Preview, every fault
 * class (each request sent once), no secret in the output, and tool mode.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { REFUSED_RUN_REQUEST } from '../../../nodes/Nexthink/actions/shared/apiCalls';
import { nexthinkCredentials, type RunNodeOptions } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { expectNoSecret, secretsSeenBy, serialised } from '../../helpers/secrets';
import { paired, runActions, serverWithClientLacking } from './helpers';

jest.setTimeout(30_000);

const DELETIONS = '/api/v1/data-management/device/deletions';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CLIENT_SECRET = 'nx-secret-value-that-must-stay-hidden';

let server: any;

beforeAll(async () => {
	server = await serverWithClientLacking('dataManagement', CLIENT_SECRET);
});

localServerHooks(() => server);

beforeEach(() => {
	server.deletions.requests.length = 0;
	server.deletions.failing.clear();
	Object.assign(server.options, { maxDevicesPerDeletion: 100, dataManagementEnabled: true, deletionMalformedUid: 'INVALID', deletionAnswerOrder: 'request' });
});

const uidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const devices = (count: number, from = 0): IDataObject[] => Array.from({ length: count }, (_, i) => ({ 'device.uid': uidOf(from + i), 'device.name': `PC-${from + i}` }));

function deleteParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'device',
		operation: 'delete',
		deviceUid: '={{ $json["device.uid"] }}',
		deviceName: '={{ $json["device.name"] }}',
		maxDevicesPerRun: 500,
		preview: false,
		options: {},
		...extra,
	};
}

const remove = (items: IDataObject[], extra: INodeParameters = {}, options?: Partial<RunNodeOptions>) => runActions(server, deleteParameters(extra), items, options);
const sent = () => server.requests.filter((r: any) => r.method === 'POST' && r.path === DELETIONS);
const outcome = (item: INodeExecutionData) => item.json.nexthinkDevice as IDataObject;

describe('Delete: batches, request IDs, one outcome per item', () => {
	it('sends 100 + 1 devices as two requests, each with its own x-request-id, and every item gets its outcome', async () => {
		const result = await remove(devices(101));
		expect(result.error).toBeUndefined();
		const requests = sent();
		expect(requests.map((r: any) => JSON.parse(r.body).devices.length)).toEqual([100, 1]);
		expect(JSON.parse(requests[0].body).devices[0]).toEqual({ uid: uidOf(0), name: 'PC-0' });
		expect(JSON.parse(requests[1].body)).toEqual({ devices: [{ uid: uidOf(100), name: 'PC-100' }] });
		const ids = requests.map((r: any) => r.headers['x-request-id']);
		expect(ids[0]).toMatch(UUID);
		expect(ids[1]).toMatch(UUID);
		expect(ids[0]).not.toBe(ids[1]);
		expect(result.items).toHaveLength(101);
		expect(result.items.map(paired)).toEqual(Array.from({ length: 101 }, (_, i) => i));
		expect(outcome(result.items[0])).toMatchObject({ status: 'scheduled', uid: uidOf(0), name: 'PC-0', requestId: ids[0], batch: 1, scheduledCount: 100, deviceStatus: 'SCHEDULED' });
		expect(outcome(result.items[0]).message).toContain('no status to poll');
		expect(outcome(result.items[100])).toMatchObject({ status: 'scheduled', requestId: ids[1], batch: 2, scheduledCount: 1 });
		expect(result.items[7].json['device.name']).toBe('PC-7');
		expect(server.deletions.scheduled).toHaveLength(101);
	});

	it('sends a device given by two items once; the second item shares its outcome', async () => {
		const result = await remove([...devices(2), devices(1)[0]]);
		expect(JSON.parse(sent()[0].body).devices).toHaveLength(2);
		expect(outcome(result.items[2])).toMatchObject({ status: 'scheduled', uid: uidOf(0), sentWithItem: 0, requestId: outcome(result.items[0]).requestId });
	});

	it('pairs devices by UID when the answer does not keep the request order', async () => {
		server.deletions.failing.add(uidOf(1));
		server.options.deletionAnswerOrder = 'reversed';
		const result = await remove(devices(3), {}, { onError: 'continueRegularOutput' });
		expect(result.items.map((item) => [outcome(item).uid, outcome(item).status])).toEqual([
			[uidOf(0), 'scheduled'],
			[uidOf(1), 'failed'],
			[uidOf(2), 'scheduled'],
		]);
	});
});

describe('Delete: mixed SCHEDULED / INVALID / FAILED under the three On Error settings', () => {
	const ITEMS = [...devices(1), { 'device.uid': 'not-a-uuid', 'device.name': 'OLD-PC' }, ...devices(1, 2)];
	const judge = { options: { letNexthinkJudgeUids: true } };
	beforeEach(() => server.deletions.failing.add(uidOf(2)));

	it('Continue: scheduled, invalid and failed items, each with the request ID', async () => {
		const result = await remove(ITEMS, judge, { onError: 'continueRegularOutput' });
		expect(JSON.parse(sent()[0].body).devices.map((device: IDataObject) => device.uid)).toEqual([uidOf(0), 'not-a-uuid', uidOf(2)]);
		const [scheduled, invalid, failed] = result.items.map(outcome);
		expect(scheduled).toMatchObject({ status: 'scheduled', scheduledCount: 1 });
		expect(invalid).toMatchObject({ status: 'invalid', deviceStatus: 'INVALID', uid: 'not-a-uuid', error: { message: expect.stringContaining('judged the UID malformed') } });
		expect(failed).toMatchObject({ status: 'failed', deviceStatus: 'FAILED', error: { message: expect.stringContaining('downstream error') } });
		expect(new Set(result.items.map((item) => outcome(item).requestId)).size).toBe(1);
	});

	it('Continue (using error output): the invalid and failed items go to the error output, paired', async () => {
		const result = await remove(ITEMS, judge, { onError: 'continueErrorOutput' });
		const [main, errors] = result.outputs;
		expect(main.map((item) => [paired(item), outcome(item).status])).toEqual([[0, 'scheduled']]);
		expect(errors.map(paired)).toEqual([1, 2]);
		expect(JSON.stringify(errors[0].json)).toContain('INVALID');
	});

	it('Stop Workflow: fails after the request, saying the others were scheduled and naming the request', async () => {
		const result = await remove(ITEMS, judge);
		expect(sent()).toHaveLength(1);
		expect(result.error?.message).toContain('Item 1: Nexthink skipped device OLD-PC');
		expect(result.error?.description).toContain('1 item scheduled, 2 items failed.');
		expect(result.error?.description).toContain(sent()[0].headers['x-request-id']);
	});
});

describe('Delete: checks before any request', () => {
	it.each([
		['a missing UID', { 'device.name': 'PC' }, 'No device UID'],
		['a malformed UID', { 'device.uid': 'PC-123', 'device.name': 'PC' }, 'The device UID "PC-123" is not a UUID'],
		['a blank name', { 'device.uid': uidOf(1), 'device.name': '  ' }, 'No device name'],
		['a UID that is an object', { 'device.uid': { a: 1 }, 'device.name': 'PC' }, 'Device UID must be text, got an object'],
	])('refuses %s, naming it, and sends nothing', async (_label, item, message) => {
		const result = await remove([...devices(2), item]);
		expect(result.error?.message).toContain('Item 2 cannot be sent');
		expect(result.error?.message).toContain(message);
		expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toEqual([]);
	});

	it('refuses the same UID with another name in a later item', async () => {
		const result = await remove([...devices(1), { 'device.uid': uidOf(0).toUpperCase(), 'device.name': 'OTHER' }], {}, { onError: 'continueRegularOutput' });
		expect(JSON.parse(sent()[0].body).devices).toHaveLength(1);
		expect(outcome(result.items[1])).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('"OTHER" here and "PC-0" in item 0') } });
	});

	it('Continue: a refused item fails alone, the others are sent', async () => {
		const result = await remove([{ 'device.uid': 'PC-123', 'device.name': 'PC' }, ...devices(1)], {}, { onError: 'continueErrorOutput' });
		expect(JSON.parse(sent()[0].body).devices).toEqual([{ uid: uidOf(0), name: 'PC-0' }]);
		expect(result.outputs[1].map(paired)).toEqual([0]);
	});
});

describe('Delete: Maximum Devices per Run', () => {
	it.each(['stopWorkflow', 'continueRegularOutput'] as const)('fails before any request naming both numbers (%s)', async (onError) => {
		const result = await remove(devices(6), { maxDevicesPerRun: 5 }, { onError });
		expect(result.error?.message).toContain('The input holds 6 devices to delete, more than Maximum Devices per Run (5)');
		expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toEqual([]);
	});

	it('counts distinct devices and defaults to 500', async () => {
		expect((await remove([...devices(5), ...devices(1)], { maxDevicesPerRun: 5 })).error).toBeUndefined();
		server.clearRequests();
		const parameters = deleteParameters();
		delete parameters.maxDevicesPerRun;
		const result = await runActions(server, parameters, devices(501));
		expect(result.error?.message).toContain('The input holds 501 devices to delete, more than Maximum Devices per Run (500)');
		expect(sent()).toEqual([]);
	});
});

describe('Delete: Preview', () => {
	it('sends nothing and returns exactly the requests a run sends, batch by batch', async () => {
		const items = [...devices(101), devices(1)[0]];
		const preview = await remove(items, { preview: true });
		expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toEqual([]);
		expect(preview.items).toHaveLength(2);
		const batches = preview.items.map((item) => item.json.nexthinkDeletionPreview as IDataObject);
		expect(batches.map((batch) => [batch.batch, batch.batches, batch.method, batch.path])).toEqual([
			[1, 2, 'POST', DELETIONS],
			[2, 2, 'POST', DELETIONS],
		]);
		expect(batches[0].items).toEqual([...Array.from({ length: 100 }, (_, i) => i), 101]);
		expect(preview.items[1].pairedItem).toEqual([{ item: 100 }]);
		expect(batches[0].note).toContain('nothing was sent');

		await remove(items);
		expect(sent().map((r: any) => JSON.parse(r.body))).toEqual(batches.map((batch) => batch.body));
	});

	it('lists the refused items after the batches under Continue', async () => {
		const result = await remove([{ 'device.uid': '', 'device.name': 'X' }, ...devices(1)], { preview: true }, { onError: 'continueRegularOutput' });
		expect(result.items.map((item) => Object.keys(item.json).includes('nexthinkDeletionPreview'))).toEqual([true, false]);
		expect(outcome(result.items[1])).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('No device UID') } });
		expect(sent()).toEqual([]);
	});

	it('Continue (using error output): the batches on the main output, the refused items on the error output', async () => {
		const result = await remove([{ 'device.uid': '', 'device.name': 'X' }, ...devices(2)], { preview: true }, { onError: 'continueErrorOutput' });
		const [main, errors] = result.outputs;
		expect(main.map((item) => (item.json.nexthinkDeletionPreview as IDataObject).items)).toEqual([[1, 2]]);
		expect(errors.map(paired)).toEqual([0]);
		expect(JSON.stringify(errors[0].json)).toContain('No device UID');
		expect(sent()).toEqual([]);
	});
});

describe('Delete: faults (each request sent once)', () => {
	const credentials = (clientId: string, clientSecret: string) => ({ nexthinkApi: { ...nexthinkCredentials(server), clientId, clientSecret } });

	it.each([
		['400 BATCH_SIZE_EXCEEDED', () => ((server.options.maxDevicesPerDeletion = 50), { items: devices(51) }), /\(HTTP 400\): .*\[code BATCH_SIZE_EXCEEDED\]/, /lower "Devices per Request"/],
		['403 FEATURE_NOT_ENABLED', () => (server.options.dataManagementEnabled = false), /\(HTTP 403\): .*\[code FEATURE_NOT_ENABLED\]/, /"Data management" permission/],
		[
			'422 of a strict validator',
			() => ((server.options.deletionMalformedUid = '422'), { items: [{ 'device.uid': 'x', 'device.name': 'X' }], extra: { options: { letNexthinkJudgeUids: true } } }),
			/\(HTTP 422\)/, /Let Nexthink Judge Malformed UIDs/],
		[
			'500 INTERNAL_ERROR',
			() => server.injectFault({ path: DELETIONS, status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' }, times: 5 }),
			/\(HTTP 500\): boom \[code INTERNAL_ERROR\]/,
			/may have queued these devices/,
		],
		['502', () => server.injectFault({ path: DELETIONS, status: 502, times: 5 }), /\(HTTP 502\)/, /may have queued these devices/],
		['503', () => server.injectFault({ path: DELETIONS, status: 503, times: 5 }), /\(HTTP 503\)/, new RegExp(REFUSED_RUN_REQUEST.replace(/[.,]/g, '.'))],
		['429', () => server.injectFault({ path: DELETIONS, status: 429, headers: { 'retry-after': '1' }, times: 5 }), /\(HTTP 429\)/, /still listed/],
		['a dropped connection', () => server.injectFault({ path: DELETIONS, drop: true, times: 5 }), /Deleting 1 device/, /may have queued these devices/],
		['a 202 without statuses', () => server.injectFault({ path: DELETIONS, status: 202, body: { status: 'ACCEPTED' } }), /unexpected answer \(HTTP 202, application\/json\)/, /may have queued/],
		['a 200 HTML page', () => server.injectFault({ path: DELETIONS, status: 200, body: '<html>login</html>', contentType: 'text/html' }), /unexpected answer \(HTTP 200, text\/html\)/, /proxy or login page may have answered/],
		['a batch status other than ACCEPTED', () => server.injectFault({ path: DELETIONS, status: 202, body: { status: 'REJECTED', devices: [] } }), /the batch status ACCEPTED \(it said "REJECTED"\) was missing/, /may have queued/],
	])('%s: a clear error, the request sent once', async (_label, arrange: () => unknown, message, description) => {
		const given = arrange() as { items?: IDataObject[]; extra?: INodeParameters } | undefined;
		const result = await remove(given?.items ?? devices(1), given?.extra);
		expect(sent()).toHaveLength(1);
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(description);
		expect(result.error?.message).toContain(sent()[0].headers['x-request-id']);
	});

	it('403 for a credential without the permission: the later batches are not sent, every item has its outcome', async () => {
		const result = await remove(devices(150), {}, { onError: 'continueRegularOutput', credentials: credentials('no-dataManagement', 'no-dataManagement-secret') });
		expect(sent()).toHaveLength(1);
		expect(result.items).toHaveLength(150);
		expect(outcome(result.items[0])).toMatchObject({ status: 'failed', error: { httpCode: '403' } });
		expect((outcome(result.items[120]).error as IDataObject).message).toContain('Not sent: an earlier request of this run was refused');
	});

	it('a 500 on the first batch under Continue: the second batch still goes, each item says what happened to its batch', async () => {
		server.injectFault({ path: DELETIONS, status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' } });
		const result = await remove(devices(101), {}, { onError: 'continueRegularOutput' });
		expect(sent()).toHaveLength(2);
		expect(outcome(result.items[0])).toMatchObject({ status: 'failed', requestId: sent()[0].headers['x-request-id'], error: { httpCode: '500' } });
		expect(outcome(result.items[100])).toMatchObject({ status: 'scheduled', requestId: sent()[1].headers['x-request-id'] });
	});

	it('Stop Workflow: a failed second batch names the first, which did run', async () => {
		server.options.deletionMalformedUid = '422';
		const items = [...devices(100), { 'device.uid': 'not-a-uuid', 'device.name': 'OLD-PC' }];
		const result = await remove(items, { options: { letNexthinkJudgeUids: true } });
		expect(sent()).toHaveLength(2);
		expect(result.error?.message).toContain('(HTTP 422)');
		expect(result.error?.description).toContain(`1 earlier request of this run did run (request ID ${sent()[0].headers['x-request-id']})`);
	});

	it.each([
		['a status the node does not know', { scheduledCount: 0, status: 'ACCEPTED', devices: [{ uid: uidOf(0), name: 'PC-0', status: 'QUEUED' }] }, 'the status "QUEUED"'],
		['an answer that leaves the device out', { scheduledCount: 1, status: 'ACCEPTED', devices: [{ uid: uidOf(9), name: 'PC-9', status: 'SCHEDULED' }] }, 'did not list device PC-0'],
	])('%s fails that item by name', async (_label, body, message) => {
		server.injectFault({ path: DELETIONS, status: 202, body });
		const result = await remove(devices(1), {}, { onError: 'continueRegularOutput' });
		expect(outcome(result.items[0])).toMatchObject({ status: 'failed', error: { message: expect.stringContaining(message) } });
	});

	it('keeps the x-request-id sent and adds the one Nexthink answered when they differ, with the trace ID', async () => {
		const answered = '22222222-2222-4222-8222-222222222222';
		const body = { scheduledCount: 1, status: 'ACCEPTED', devices: [{ uid: uidOf(0), name: 'PC-0', status: 'SCHEDULED' }] };
		server.injectFault({ path: DELETIONS, status: 202, body, headers: { 'x-request-id': answered, 'x-trace-id': 'trace-1' } });
		const result = await remove(devices(1));
		expect(outcome(result.items[0])).toMatchObject({ status: 'scheduled', requestId: sent()[0].headers['x-request-id'], answeredRequestId: answered, traceId: 'trace-1' });
	});

	it('an error page that echoes the request: no token or secret in the error or the run data', async () => {
		server.injectFault({ path: DELETIONS, status: 500, echoRequest: 'json' });
		const result = await remove(devices(2), {}, { onError: 'continueRegularOutput' });
		expect(sent()).toHaveLength(1);
		expectNoSecret(serialised(result.run), secretsSeenBy(server, [CLIENT_SECRET]));
		expect(serialised(result.items)).toContain('[redacted]');
	});
});

describe('Delete as an AI tool', () => {
	it('only previews unless "Allow Writes When Used as a Tool" is on', async () => {
		const asTool = { typeName: 'n8n-nodes-nexthink.nexthinkActionsTool' };
		const checked = await remove(devices(1), {}, asTool);
		expect(checked.items[0].json.nexthinkDeletionPreview).toMatchObject({ body: { devices: [{ uid: uidOf(0), name: 'PC-0' }] } });
		expect((checked.items[0].json.nexthinkDeletionPreview as IDataObject).note).toContain('Allow Writes When Used as a Tool');
		expect(sent()).toEqual([]);
		const deleted = await remove(devices(1), { options: { allowWritesAsTool: true } }, asTool);
		expect(outcome(deleted.items[0]).status).toBe('scheduled');
		expect(sent()).toHaveLength(1);
	});
});
