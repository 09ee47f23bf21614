/**
 * The Nexthink Trigger in n8n-core's poll context (n8n 2.x and 1.x, see test/helpers/pollHarness.ts),
 * over real HTTP against the local API server, whose device estate the tests change between polls:
 * baseline, new/changed/removed/duplicate rows, Fetch Test Event, and polls that fail or overlap.
 */
import { NexthinkTrigger } from '../../../nodes/Nexthink/trigger/NexthinkTrigger.node';
import { disposeHarness, nexthinkCredentials } from '../../helpers/harness';
import { pollingTrigger, type PollTriggerOptions } from '../../helpers/pollHarness';
import { REAL_WAITS_TIMEOUT_MS } from '../../helpers/timeouts';

const { startNexthinkServer, generateDeviceRows, DEVICE_COLUMNS } = require('../../server');

const UID = DEVICE_COLUMNS.indexOf('device.uid');
const NAME = DEVICE_COLUMNS.indexOf('device.name');
const OS = DEVICE_COLUMNS.indexOf('device.operating_system.name');

let server: any;
/** The estate the stored query #estate lists; tests change it between polls. */
let estate: string[][];
const QUERY = { id: '#estate', header: DEVICE_COLUMNS, snapshot: true, completeAfterPolls: 0, rows: () => estate };

beforeAll(async () => {
	server = await startNexthinkServer();
});
afterAll(async () => {
	await server.close();
	disposeHarness();
});
beforeEach(() => {
	estate = [...generateDeviceRows(30, 11)].map((row: string[]) => [...row]);
	server.addQuery(QUERY);
	server.clearFaults();
	server.clearRequests();
});

function trigger(parameters: Record<string, unknown>, extra: Partial<PollTriggerOptions> = {}) {
	return pollingTrigger({
		nodeType: new NexthinkTrigger(),
		parameters: { queryId: '#estate', keyColumns: 'device.uid', ...parameters } as never,
		credentials: { nexthinkApi: nexthinkCredentials(server) },
		...extra,
	});
}

const starts = () => server.requests.filter((r: any) => r.path === '/api/v1/nql/export').length;
const summary = (items: any[] | null) => (items ?? []).map((item) => [item.json.nexthinkTrigger.change, item.json['device.uid']]);

/** Adds a device, moves one to another OS, removes one; returns their uids. */
function changeEstate() {
	const added = [...generateDeviceRows(1, 99)][0] as string[];
	estate.push(added);
	const changed = estate[3];
	const previousOs = changed[OS];
	changed[OS] = 'Windows 11 Enterprise 24H2';
	const [removed] = estate.splice(7, 1);
	return { added: added[UID], changed: changed[UID], previousOs, removed: removed[UID] };
}

describe.each([['export'], ['execute']])('Nexthink Trigger, query run through %s', (queryMethod) => {
	it(
		'records a baseline on the first poll and emits nothing, then reports new, changed and removed devices',
		async () => {
			const t = trigger({ queryMethod, options: { compareColumns: 'device.operating_system.name' } });
			const first = await t.poll();
			expect(first).toEqual({ items: null });
			expect(t.staticData().state).toMatchObject({ keys: estate.map((row) => row[UID]) });
			expect(t.staticData().lock).toBeUndefined();

			const { added, changed, previousOs, removed } = changeEstate();
			const second = await t.poll();
			expect(second.error).toBeUndefined();
			expect(summary(second.items)).toEqual([
				['changed', changed],
				['new', added],
				['removed', removed],
			]);
			const [changedItem, newItem, removedItem] = (second.items ?? []).map((item) => item.json as any);
			expect(changedItem['device.operating_system.name']).toBe('Windows 11 Enterprise 24H2');
			expect(changedItem.nexthinkTrigger).toMatchObject({
				key: { 'device.uid': changed },
				previous: { 'device.operating_system.name': previousOs },
				changedColumns: ['device.operating_system.name'],
				queryId: '#estate',
			});
			expect(newItem['device.name']).toBe(estate[estate.length - 1][NAME]);
			expect(removedItem).toEqual({
				'device.uid': removed,
				nexthinkTrigger: expect.objectContaining({ change: 'removed', previous: { 'device.operating_system.name': expect.any(String) } }),
			});

			// nothing changed since: nothing emitted
			expect(await t.poll()).toEqual({ items: null });
		},
		REAL_WAITS_TIMEOUT_MS,
	);
});

describe('Nexthink Trigger', () => {
	it(
		'Fetch Test Event returns a few current rows marked as a sample and changes no state',
		async () => {
			const t = trigger({}, { mode: 'manual' });
			const { items, error } = await t.poll();
			expect(error).toBeUndefined();
			expect(items).toHaveLength(5);
			expect(items?.[0].json).toMatchObject({ 'device.uid': estate[0][UID], nexthinkTrigger: { change: 'sample', queryId: '#estate' } });
			expect(t.staticData()).toEqual({});
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'Emit All Rows on First Poll outputs every row as new on the first poll; Emit filters every poll, the first included',
		async () => {
			const t = trigger({ queryMethod: 'execute', emit: ['removed'], options: { emitAllOnFirstPoll: true } });
			expect(await t.poll()).toEqual({ items: null });
			const all = trigger({ queryMethod: 'execute', options: { emitAllOnFirstPoll: true } });
			const everything = await all.poll();
			expect(everything.items).toHaveLength(30);
			expect((everything.items?.[0].json as any).nexthinkTrigger).toMatchObject({ change: 'new', firstPoll: true });
			const { removed } = changeEstate();
			expect(summary((await t.poll()).items)).toEqual([['removed', removed]]);
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'reports a key on two rows as a duplicate, once, instead of merging them',
		async () => {
			const t = trigger({ queryMethod: 'execute', keyColumns: 'device.name' });
			await t.poll();
			const twin = [...estate[2]];
			twin[UID] = '00000000-0000-4000-8000-000000000002';
			estate.push(twin);
			const { items } = await t.poll();
			expect(items?.map((item) => (item.json as any).nexthinkTrigger.change)).toEqual(['duplicate']);
			expect((items?.[0].json as any).nexthinkTrigger).toMatchObject({ key: { 'device.name': twin[NAME] }, rowCount: 2 });
			expect(await t.poll()).toEqual({ items: null });
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'keeps working after n8n stores the state and reads it back (a restart)',
		async () => {
			const t = trigger({ queryMethod: 'execute' });
			await t.poll();
			t.restart();
			const { changed } = changeEstate();
			expect(summary((await t.poll()).items)).toContainEqual(['changed', changed]);
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'records a new baseline when the query or the key changes',
		async () => {
			const t = trigger({ queryMethod: 'execute' });
			await t.poll();
			changeEstate();
			const other = trigger({ queryMethod: 'execute', keyColumns: 'device.name' });
			// another trigger, same static data: a state of other settings is not compared
			Object.assign(other.staticData(), JSON.parse(JSON.stringify(t.staticData())));
			expect(await other.poll()).toEqual({ items: null });
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'sends the query parameters: a device moving into the queried OS is new there',
		async () => {
			server.addQuery({
				id: '#estate_by_os',
				header: DEVICE_COLUMNS,
				parameters: ['os'],
				snapshot: true,
				completeAfterPolls: 0,
				rows: (parameters: { os: string }) => estate.filter((row) => row[OS] === parameters.os),
			});
			const os = 'Windows 11 Enterprise 24H2';
			const t = trigger({ queryMethod: 'execute', queryId: 'estate_by_os', queryParameters: { parameter: [{ name: 'os', value: os }] } });
			expect(await t.poll()).toEqual({ items: null });
			const { changed } = changeEstate();
			expect(summary((await t.poll()).items)).toEqual([['new', changed]]);
			const executes = server.requests.filter((r: any) => r.path === '/api/v2/nql/execute');
			expect(JSON.parse(executes[executes.length - 1].body)).toEqual({ queryId: '#estate_by_os', parameters: { os } });
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'reads the credential at every poll: an API address changed while active applies from the next poll',
		async () => {
			const t = trigger({ queryMethod: 'execute' });
			await t.poll();
			const good = { ...t.credentialsHelper.store.nexthinkApi };
			t.credentialsHelper.store.nexthinkApi = { ...good, apiBaseUrl: 'http://127.0.0.1:1' };
			const { error } = await t.poll();
			expect(error?.message).toMatch(/ECONNREFUSED/);
			t.credentialsHelper.store.nexthinkApi = good;
			const { changed } = changeEstate();
			expect(summary((await t.poll()).items)).toContainEqual(['changed', changed]);
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'fails before any request on a bad setting, naming it',
		async () => {
			const t = trigger({ keyColumns: ' ' });
			const { error } = await t.poll();
			expect(error?.message).toBe('Key Columns is empty. Enter the column(s) that identify a row, as named in the result, e.g. device.uid.');
			expect(server.requests).toHaveLength(0);
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'fails, keeping the state, when the key column is not in the result',
		async () => {
			const t = trigger({ queryMethod: 'execute', keyColumns: 'device.id' });
			const { error } = await t.poll();
			expect(error?.message).toMatch(/^Key Column "device.id" is not a column of the query's result\. Its columns are: device\.name, device\.uid/);
			expect(t.staticData().state).toBeUndefined();
			expect(t.staticData().lock).toBeUndefined();
		},
		REAL_WAITS_TIMEOUT_MS,
	);
});

describe('Nexthink Trigger under faults: a failed poll keeps the last good state, the next good poll reports every change since', () => {
	async function baseline(parameters: Record<string, unknown> = {}) {
		const t = trigger({ options: { maxWaitSeconds: 20 }, ...parameters });
		expect(await t.poll()).toEqual({ items: null });
		const state = JSON.stringify(t.staticData().state);
		const changes = changeEstate();
		return { t, state, changes };
	}

	async function expectRecovery(t: ReturnType<typeof trigger>, state: string, changes: ReturnType<typeof changeEstate>) {
		expect(JSON.stringify(t.staticData().state)).toBe(state);
		expect(t.staticData().lock).toBeUndefined();
		server.clearFaults();
		const { items, error } = await t.poll();
		expect(error).toBeUndefined();
		expect(summary(items)).toEqual([
			['changed', changes.changed],
			['new', changes.added],
			['removed', changes.removed],
		]);
	}

	it(
		'a token that cannot be had',
		async () => {
			const { t, state, changes } = await baseline();
			server.expireAllTokens();
			server.injectFault({ path: '/oauth2/default/v1/token', status: 401, body: { error: 'invalid_client' }, times: Infinity });
			const { items, error } = await t.poll();
			expect(items).toBeNull();
			expect(error?.message).toMatch(/credential could not get a token/);
			await expectRecovery(t, state, changes);
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'an export that ends in ERROR',
		async () => {
			const { t, state, changes } = await baseline();
			server.addQuery({ ...QUERY, fail: { errorDescription: 'Nexthink is rebuilding its index' } });
			const { error } = await t.poll();
			expect(error?.message).toMatch(/^The export of #estate \(.+\) failed: Nexthink is rebuilding its index$/);
			server.addQuery(QUERY);
			await expectRecovery(t, state, changes);
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'status calls that keep answering 503 until the retries run out',
		async () => {
			const { t, state, changes } = await baseline();
			server.injectFault({ path: /^\/api\/v1\/nql\/status\//, status: 503, body: { message: 'down' }, times: Infinity });
			const { error } = await t.poll();
			expect(error?.message).toMatch(/^Getting the status of export [0-9a-f-]+ failed \(HTTP 503\): down$/);
			expect(starts()).toBe(2);
			await expectRecovery(t, state, changes);
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'an export that does not complete within Maximum Wait',
		async () => {
			// the first status check comes 2 s after the start: 5 s leave room for the baseline's export
			const { t, state, changes } = await baseline({ options: { maxWaitSeconds: 5 } });
			server.addQuery({ ...QUERY, completeAfterMs: 3_600_000 });
			const { error } = await t.poll();
			expect(error?.message).toMatch(/^Export .+ of #estate did not complete within 5 seconds \(last status (SUBMITTED|IN_PROGRESS)(; the last status call got no answer in time)?\)$/);
			expect(error?.description).toMatch(/Raise "Maximum Wait".*keeps the state of its last good poll/);
			server.addQuery(QUERY);
			await expectRecovery(t, state, changes);
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'an export truncated by the licence limit (its missing rows would look removed)',
		async () => {
			const { t, state, changes } = await baseline();
			server.addQuery({ ...QUERY, truncateAt: 10 });
			const { error } = await t.poll();
			expect(error?.message).toMatch(/^Export .+ of #estate was truncated/);
			server.addQuery(QUERY);
			await expectRecovery(t, state, changes);
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'Execute Query reaching its 1,000-row limit (rows beyond it would look removed)',
		async () => {
			const t = trigger({ queryMethod: 'execute' });
			estate = [...generateDeviceRows(1000, 12)].map((row: string[]) => [...row]);
			const { error } = await t.poll();
			expect(error?.message).toBe('#estate returned 1000 rows, the most Execute Query returns: the result may be incomplete, so the poll compares nothing');
			expect(t.staticData().state).toBeUndefined();
		},
		REAL_WAITS_TIMEOUT_MS,
	);
});

describe('Nexthink Trigger: overlapping polls', () => {
	it(
		'a poll that starts while an export runs does nothing: one export, one set of changes',
		async () => {
			const t = trigger({});
			await t.poll();
			const changes = changeEstate();
			server.addQuery({ ...QUERY, completeAfterMs: 2_500 });
			server.clearRequests();
			const slow = t.poll();
			// n8n starts the next scheduled poll without waiting for this one
			const overlapping = await t.poll();
			expect(overlapping).toEqual({ items: null });
			const { items, error } = await slow;
			expect(error).toBeUndefined();
			expect(starts()).toBe(1);
			expect(summary(items)).toEqual([
				['changed', changes.changed],
				['new', changes.added],
				['removed', changes.removed],
			]);
			expect(t.staticData().lock).toBeUndefined();
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'a lock left by a poll that never finished (n8n stopped) holds until it expires, then a poll runs',
		async () => {
			const t = trigger({ queryMethod: 'execute' });
			t.staticData().lock = { until: Date.now() + 3_600_000, since: '2026-11-26T09:00:00.000Z' };
			expect(await t.poll()).toEqual({ items: null });
			expect(server.requests).toHaveLength(0);
			t.staticData().lock = { until: Date.now() - 1, since: '2026-11-26T09:00:00.000Z' };
			expect(await t.poll()).toEqual({ items: null });
			expect(t.staticData().state).toBeDefined();
			expect(t.staticData().lock).toBeUndefined();
		},
		REAL_WAITS_TIMEOUT_MS,
	);
});
