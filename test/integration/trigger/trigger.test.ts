/**
 * The Nexthink Trigger in n8n-core's poll context (n8n 2.x and 1.x, see test/helpers/pollHarness.ts),
 * over real HTTP against the local API server, whose device estate the tests change between polls:
 * baseline, new/changed/removed/duplicate rows, Fetch Test Event, and polls that fail or overlap.
 */
import * as zlib from 'node:zlib';

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
	server.options.queryColumnNames = 'qualified';
	server.options.emptyResult = 'header';
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
		'Trigger on All Rows at First Poll outputs every row as new on the first poll; Trigger On filters every poll, the first included',
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
			const executes = server.requests.filter((r: any) => r.path === '/api/v1/nql/execute');
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
		'fails, keeping the state, when the key column is not in the result, listing the columns that arrived',
		async () => {
			const t = trigger({ queryMethod: 'execute', keyColumns: 'device.id' });
			const { error } = await t.poll();
			expect(error?.message).toMatch(
				/^Key Column "device.id" is not among the columns of the Execute Query answer for #estate, so it is not the query's result \(30 rows\)\. The columns that arrived: "device\.name", "device\.uid",/,
			);
			expect(t.staticData().state).toBeUndefined();
			expect(t.staticData().lock).toBeUndefined();
		},
		REAL_WAITS_TIMEOUT_MS,
	);
});

/** A trigger with its baseline recorded, the estate changed since; the state it recorded, as JSON. */
async function baseline(parameters: Record<string, unknown> = {}) {
	const t = trigger({ options: { maxWaitSeconds: 20 }, ...parameters });
	expect(await t.poll()).toEqual({ items: null });
	const state = JSON.stringify(t.staticData().state);
	const changes = changeEstate();
	return { t, state, changes };
}

/** The failed poll kept the state; once the server answers well again, the next poll reports the changes since the baseline, and the one after nothing. */
async function expectRecovery(t: ReturnType<typeof trigger>, state: string, changes: ReturnType<typeof changeEstate>) {
	expect(JSON.stringify(t.staticData().state)).toBe(state);
	expect(t.staticData().lock).toBeUndefined();
	server.clearFaults();
	server.options.emptyResult = 'header';
	const { items, error } = await t.poll();
	expect(error).toBeUndefined();
	expect(summary(items)).toEqual([
		['changed', changes.changed],
		['new', changes.added],
		['removed', changes.removed],
	]);
	expect(await t.poll()).toEqual({ items: null });
}

describe('Nexthink Trigger under faults: a failed poll keeps the last good state, the next good poll reports every change since', () => {

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
			expect(error?.message).toMatch(/^Export .+ of #estate did not complete within 5 seconds \(last status (SUBMITTED|IN_PROGRESS)(; the last status call got no answer before the maximum wait ran out)?\)$/);
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

/** The uids of the estate's rows. */
const uids = (rows: string[][]) => rows.map((row) => row[UID]);

describe.each([['export'], ['execute']])('Nexthink Trigger through %s: a poll counts only when its answer is the query\'s result', (queryMethod) => {
	it.each([
		['no text at all (a compressed file of nothing; execute: no headers)', 'no-header'],
		...(queryMethod === 'export' ? [['zero bytes', 'zero-bytes']] : []),
	])(
		'an empty answer without columns after a result with rows fails the poll instead of removing every row: %s',
		async (_label, emptyResult) => {
			const { t, state, changes } = await baseline({ queryMethod });
			const kept = estate;
			estate = [];
			server.options.emptyResult = emptyResult;
			const { items, error } = await t.poll();
			expect(items).toBeNull();
			expect(error?.message).toMatch(
				emptyResult === 'zero-bytes'
					? /^The results file could not be read: .*the file is empty/
					: /names no columns \(no header row\) and holds 0 rows: it does not show the query's result, and comparing it would report 30 rows as removed\. Nothing was compared\.$/,
			);
			if (emptyResult === 'no-header') expect(error?.description).toMatch(/keeps the state of its last good poll/);
			estate = kept;
			await expectRecovery(t, state, changes);
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'an answer without the key column fails the poll, listing the columns that arrived',
		async () => {
			const { t, state, changes } = await baseline({ queryMethod });
			if (queryMethod === 'export') {
				server.injectFault({ path: /^\/files\//, status: 200, body: zlib.gzipSync('device.name,device.entity\n'), headers: { 'content-type': 'application/gzip' } });
			} else {
				server.addQuery({ ...QUERY, header: DEVICE_COLUMNS.filter((column: string) => column !== 'device.uid'), rows: () => [] });
			}
			const { error } = await t.poll();
			expect(error?.message).toMatch(/^Key Column "device\.uid" is not among the columns of the (results file of export .+|Execute Query answer for #estate), so it is not the query's result \(0 rows\)\. The columns that arrived: "device\.name", /);
			server.addQuery(QUERY);
			await expectRecovery(t, state, changes);
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'a header-only answer is the query\'s empty result: every row is removed (Maximum Removed per Poll, docs/trigger.md, guards against it)',
		async () => {
			const t = trigger({ queryMethod });
			await t.poll();
			const before = uids(estate);
			estate = [];
			const { items, error } = await t.poll();
			expect(error).toBeUndefined();
			expect(summary(items)).toEqual(before.map((uid) => ['removed', uid]));
		},
		REAL_WAITS_TIMEOUT_MS,
	);

	it(
		'an empty answer without columns counts as empty where it cannot remove anything: the first poll, then after an empty result',
		async () => {
			server.options.emptyResult = 'no-header';
			const kept = estate;
			estate = [];
			const t = trigger({ queryMethod });
			expect(await t.poll()).toEqual({ items: null });
			expect(t.staticData().state).toMatchObject({ keys: [] });
			expect(await t.poll()).toEqual({ items: null });
			estate = kept.slice(0, 2);
			expect(summary((await t.poll()).items)).toEqual(uids(estate).map((uid) => ['new', uid]));
		},
		REAL_WAITS_TIMEOUT_MS,
	);
});

describe('Nexthink Trigger: results files that are not the query\'s result', () => {
	it(
		'a proxy\'s one-line HTML login page as the results file fails the poll, showing its start; the next good poll reports the real changes once',
		async () => {
			const { t, state, changes } = await baseline();
			const page = `<html><head><title>Corporate proxy: sign in</title></head><body>${'<p>Your session expired. Sign in again.</p>'.repeat(100)}</body></html>`;
			server.injectFault({ path: /^\/files\//, status: 200, contentType: 'text/html', body: page });
			const { items, error } = await t.poll();
			expect(items).toBeNull();
			expect(error?.message).toBe(
				`Key Column "device.uid" is not among the columns of the results file of export ${[...server.exports.keys()].pop()}, so it is not the query's result (0 rows). The columns that arrived: "${page.slice(0, 100)}…". Nothing was compared.`,
			);
			expect(error?.description).toMatch(/^A proxy or login page may have answered instead of Nexthink/);
			await expectRecovery(t, state, changes);
		},
		REAL_WAITS_TIMEOUT_MS,
	);
});

describe.each([['export'], ['execute']])('Nexthink Trigger through %s: column names as Nexthink writes them', (queryMethod) => {
	describe.each([['qualified'], ['short']])('answers that name columns %s', (spelling) => {
		it(
			'short Key and Compare Columns find their columns: new, changed and removed rows, keyed by the column as it arrived',
			async () => {
				server.options.queryColumnNames = spelling;
				const uidColumn = spelling === 'short' ? 'uid' : 'device.uid';
				const osColumn = spelling === 'short' ? 'operating_system.name' : 'device.operating_system.name';
				const t = trigger({ queryMethod, keyColumns: 'uid', options: { compareColumns: 'operating_system.name' } });
				expect(await t.poll()).toEqual({ items: null });
				const { added, changed, previousOs, removed } = changeEstate();
				const { items, error } = await t.poll();
				expect(error).toBeUndefined();
				expect((items ?? []).map((item) => [(item.json as any).nexthinkTrigger.change, item.json[uidColumn]])).toEqual([
					['changed', changed],
					['new', added],
					['removed', removed],
				]);
				expect((items?.[0].json as any).nexthinkTrigger).toMatchObject({
					key: { [uidColumn]: changed },
					previous: { [osColumn]: previousOs },
					changedColumns: [osColumn],
				});
				expect(items?.[2].json).toEqual({ [uidColumn]: removed, nexthinkTrigger: expect.objectContaining({ change: 'removed' }) });
			},
			REAL_WAITS_TIMEOUT_MS,
		);
	});

	it(
		'a fully-qualified Key Column against short answers fails, listing the columns that arrived',
		async () => {
			server.options.queryColumnNames = 'short';
			const t = trigger({ queryMethod });
			const { error } = await t.poll();
			expect(error?.message).toMatch(/^Key Column "device\.uid" is not among the columns of .+\. The columns that arrived: "name", "uid", "entity", "operating_system\.name",/);
			expect(t.staticData().state).toBeUndefined();
		},
		REAL_WAITS_TIMEOUT_MS,
	);
});

describe('Nexthink Trigger: Maximum Removed per Poll', () => {
	it(
		'a poll that removes more rows than allowed fails and keeps the state; raised, the next poll reports them once',
		async () => {
			const parameters = (options: Record<string, unknown>) => ({ queryMethod: 'execute', emit: ['removed'], options });
			const t = trigger(parameters({ maxRemoved: 5 }));
			await t.poll();
			const state = JSON.stringify(t.staticData().state);
			const gone = uids(estate.splice(0, 10));
			const { items, error } = await t.poll();
			expect(items).toBeNull();
			expect(error?.message).toBe(
				'10 of the previous 30 rows (33 %) vanished at once, more than the trigger may report as removed in one poll (Maximum Removed per Poll: 5). Nothing was reported.',
			);
			expect(error?.description).toMatch(/^If these rows are really gone, raise "Maximum Removed per Poll"/);
			expect(JSON.stringify(t.staticData().state)).toBe(state);

			// the share: 10 of 30 is more than 20 %
			const byShare = trigger(parameters({ maxRemovedPercent: 20 }));
			Object.assign(byShare.staticData(), JSON.parse(JSON.stringify(t.staticData())));
			expect((await byShare.poll()).error?.message).toMatch(/^10 of the previous 30 rows \(33 %\) .*\(Maximum Removed per Poll \(%\): 20\)/);

			// the user raises the limit: the removals are reported once
			const raised = trigger(parameters({ maxRemoved: 10 }));
			Object.assign(raised.staticData(), JSON.parse(JSON.stringify(t.staticData())));
			expect(summary((await raised.poll()).items)).toEqual(gone.map((uid) => ['removed', uid]));
			expect(await raised.poll()).toEqual({ items: null });
		},
		REAL_WAITS_TIMEOUT_MS,
	);
});

describe('Nexthink Trigger: a stale poll never writes', () => {
	it(
		'a poll that outlived its lock while a newer poll wrote is dropped with a log line: each change reported once',
		async () => {
			const t = trigger({ options: { maxWaitSeconds: 20 } });
			await t.poll();
			const first = changeEstate();
			// the slow poll's results file is held until the test lets it go: no timing involved
			let release = () => {};
			const held = server.injectFault({ path: /^\/files\//, holdUntil: new Promise<void>((resolve) => (release = resolve)) });
			const slow = t.poll();
			while (held.hits === 0) await new Promise((resolve) => setTimeout(resolve, 50));
			// its lock runs out (as when a poll takes longer than its lock allows): the next scheduled poll runs
			(t.staticData().lock as any).until = Date.now() - 1;
			const secondAdded = [...generateDeviceRows(1, 98)][0] as string[];
			estate.push(secondAdded);
			const [secondRemoved] = estate.splice(10, 1);
			const newer = await t.poll();
			expect(newer.error).toBeUndefined();
			expect(summary(newer.items)).toEqual([
				['changed', first.changed],
				['new', first.added],
				['new', secondAdded[UID]],
				['removed', first.removed],
				['removed', secondRemoved[UID]],
			]);
			const written = JSON.stringify(t.staticData().state);
			release();
			// the older poll read the file of its own export (taken before the second changes): it writes and emits nothing
			expect(await slow).toEqual({ items: null });
			expect(JSON.stringify(t.staticData().state)).toBe(written);
			expect(t.logged).toContainEqual(expect.stringMatching(/^Nexthink Trigger: the poll that started at .+ is dropped: another poll wrote the state while it ran/));
			// nothing changed since the newer poll: nothing reported a second time
			expect(await t.poll()).toEqual({ items: null });
		},
		REAL_WAITS_TIMEOUT_MS,
	);
});
