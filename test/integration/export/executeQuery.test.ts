/**
 * The Execute Query operation through n8n-core's engine against the local API server.
 */
import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { gzipBomb } from '../../helpers/bombs';
import { N8N_CORE_VERSION, nexthinkCredentials, runNode, type RunNodeOptions } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { DATA_WORK_TIMEOUT_MS, REAL_WAITS_TIMEOUT_MS } from '../../helpers/timeouts';

const { startNexthinkServer } = require('../../server');

let server: any;

const SEEN = '2026-11-23T10:15:00.000Z';

beforeAll(async () => {
	server = await startNexthinkServer({ executeRowLimit: 1000 });
	server.addQuery({
		id: '#device_lookup',
		header: ['device.name', 'device.hardware.memory', 'device.last_seen', 'device.note'],
		parameters: ['name'],
		nql: 'devices | where device.name == $name | list device.name, device.hardware.memory, device.last_seen',
		columnTypes: { 'device.hardware.memory': 'number', 'device.last_seen': 'timestamp' },
		rows: (p: any) => [[p.name, '16384', SEEN, 'a, "quoted" note']],
	});
	server.addQuery({
		id: '#many_devices',
		header: ['device.name'],
		rows: () => Array.from({ length: 1500 }, (_, i) => [`PC-${String(i).padStart(4, '0')}`]),
	});
});
localServerHooks(() => server);

const executeCalls = () => server.requests.filter((r: any) => /\/nql\/execute$/.test(r.path));

function run(parameters: Record<string, unknown>, extra: Partial<RunNodeOptions> = {}) {
	return runNode({
		nodeType: new NexthinkExport(),
		parameters: {
			operation: 'executeQuery',
			queryId: 'device_lookup',
			queryParameters: { parameter: [{ name: 'name', value: 'PC-42' }] },
			...parameters,
		} as never,
		credentials: { nexthinkApi: nexthinkCredentials(server) },
		...extra,
	});
}

describe(`Execute Query on n8n-core ${N8N_CORE_VERSION}`, () => {
	it('posts {queryId, parameters} to v2 and outputs the data objects with their keys as returned', async () => {
		const { items, error } = await run({});
		expect(error).toBeUndefined();
		expect(executeCalls()).toHaveLength(1);
		const [call] = executeCalls();
		expect(call.path).toBe('/api/v2/nql/execute');
		expect(JSON.parse(call.body)).toEqual({ queryId: '#device_lookup', parameters: { name: 'PC-42' } });
		expect(call.headers['x-utc-times']).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			'device.name': 'PC-42',
			'device.hardware.memory': 16384,
			'device.last_seen': '2026-11-23T11:15:00.000+01:00',
			'device.note': 'a, "quoted" note',
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('renews an expired token after one 401 on its streamed request, and reads the answer', async () => {
		const { items, error } = await run({}, { credentials: { nexthinkApi: { ...nexthinkCredentials(server), accessToken: 'stale-token' } } });
		expect(error).toBeUndefined();
		expect(items[0].json['device.name']).toBe('PC-42');
		expect(server.requests.map((r: any) => r.path)).toEqual(['/api/v2/nql/execute', '/oauth2/default/v1/token', '/api/v2/nql/execute']);
		expect(executeCalls()[0].headers.authorization).toBe('Bearer stale-token');
	});

	it('asks for UTC timestamps with x-utc-times', async () => {
		const { items } = await run({ options: { utcTimestamps: true } });
		expect(executeCalls()[0].headers['x-utc-times']).toBe('true');
		expect(items[0].json['device.last_seen']).toBe(SEEN);
	});

	it('turns the v1 headers and data arrays into the same items', async () => {
		const v1 = await run({ options: { apiVersion: 'v1' } });
		const v2 = await run({});
		expect(executeCalls().map((c: any) => c.path)).toEqual(['/api/v1/nql/execute', '/api/v2/nql/execute']);
		expect(v1.items.map((i) => i.json)).toEqual(v2.items.map((i) => i.json));
	});

	it('asks for CSV with Accept: text/csv and parses it with the project\'s CSV parser', async () => {
		const { items, error } = await run({ options: { responseFormat: 'csv' } });
		expect(error).toBeUndefined();
		expect(executeCalls()[0].headers.accept).toBe('text/csv');
		expect(items[0].json).toEqual({
			'device.name': 'PC-42',
			'device.hardware.memory': '16384',
			'device.last_seen': '2026-11-23T11:15:00.000+01:00',
			'device.note': 'a, "quoted" note',
		});
		const typed = await run({ options: { responseFormat: 'csv', convertTypes: true } });
		expect(typed.items[0].json['device.hardware.memory']).toBe(16384);
	});

	it('outputs the metadata as a separate item or on each row', async () => {
		const separate = await run({ options: { includeMetadata: 'separateItem' } });
		expect(separate.items).toHaveLength(2);
		expect(separate.items[1].json).toMatchObject({
			queryId: '#device_lookup',
			executedQuery: 'devices | where device.name == "PC-42" | list device.name, device.hardware.memory, device.last_seen',
			rows: 1,
			mayBeIncomplete: false,
		});
		// Nexthink sends the instance's wall-clock time without a zone (the local server: UTC+1); the node names the zone
		const executedAt = separate.items[1].json.executionDateTime as string;
		expect(executedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+01:00$/);
		expect(Math.abs(Date.parse(executedAt) - Date.now())).toBeLessThan(60_000);
		const eachRow = await run({ options: { includeMetadata: 'eachRow' } });
		expect(eachRow.items).toHaveLength(1);
		expect(eachRow.items[0].json.nexthinkQuery).toMatchObject({ queryId: '#device_lookup', rows: 1 });
	});

	it('outputs executionDateTime with its zone: Z with UTC Timestamps, the instance offset otherwise, also from v1', async () => {
		const utc = await run({ options: { includeMetadata: 'separateItem', utcTimestamps: true } });
		const utcValue = utc.items[1].json.executionDateTime as string;
		expect(utcValue).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
		expect(Math.abs(Date.parse(utcValue) - Date.now())).toBeLessThan(60_000);
		const v1 = await run({ options: { includeMetadata: 'separateItem', apiVersion: 'v1' } });
		const v1Value = v1.items[1].json.executionDateTime as string;
		expect(v1Value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+01:00$/);
		expect(Math.abs(Date.parse(v1Value) - Date.now())).toBeLessThan(60_000);
	});

	it('says the result may be incomplete when the row limit is reached', async () => {
		const { items, run: execution } = await run({
			queryId: 'many_devices',
			queryParameters: {},
			options: { includeMetadata: 'separateItem' },
		});
		expect(items).toHaveLength(1001);
		expect(items[1000].json).toMatchObject({ rows: 1000, mayBeIncomplete: true });
		const hints = JSON.stringify(execution.data.resultData.runData.Node[0]);
		expect(hints).toMatch(/may be incomplete\. Use the Export operation/);
	});

	it('validates the query ID like the export operations, before any request', async () => {
		const { error } = await run({ queryId: 'Device-Lookup' });
		expect(error.message).toMatch(/characters a query ID cannot have/);
		expect(server.requests).toHaveLength(0);
	});

	it('retries this read-only call on 503 and 500', async () => {
		server.injectFault({ method: 'POST', path: '/api/v2/nql/execute', status: 503 });
		server.injectFault({ method: 'POST', path: '/api/v2/nql/execute', status: 500, body: { message: 'boom', code: 500 } });
		const { items, error } = await run({});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(executeCalls()).toHaveLength(3);
	}, REAL_WAITS_TIMEOUT_MS);

	it.each([
		[404, undefined, /HTTP 404/, /NQL API queries/],
		[403, { message: 'Not authorized to execute queries', code: 403, source: 'authorization' }, /Not authorized to execute queries/, /NQL API/],
		[406, undefined, /HTTP 406/, /format/],
	])('explains HTTP %s', async (status, body, message, description) => {
		server.injectFault({ method: 'POST', path: '/api/v2/nql/execute', status, body });
		const { error } = await run({});
		expect(error.message).toMatch(message);
		expect(error.description).toMatch(description);
		expect(executeCalls()).toHaveLength(1);
	});

	it('gives an error item per failing input under continue-on-fail', async () => {
		const { items, error } = await run(
			{ queryId: '={{ $json.q }}' },
			{ items: [{ json: { q: 'no_such_query' } }, { json: { q: 'device_lookup' } }], onError: 'continueRegularOutput' },
		);
		expect(error).toBeUndefined();
		expect(items[0].json.error).toMatch(/HTTP 404/);
		expect(items[1].json['device.name']).toBe('PC-42');
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe(`Execute Query answers are bounded while they arrive, on n8n-core ${N8N_CORE_VERSION}`, () => {
	const MB = 1024 * 1024;

	/** Serves `bomb` as the next execute answer, sent with Content-Encoding: gzip as a gateway may. */
	function serveGzipAnswer(bomb: Buffer, contentType: string): void {
		expect(bomb.length).toBeLessThan(3 * MB);
		server.injectFault({ method: 'POST', path: '/api/v2/nql/execute', status: 200, contentType, headers: { 'content-encoding': 'gzip' }, body: bomb });
	}

	it.each([
		['one JSON text of 2 GiB', 'application/json', gzipBomb(Buffer.alloc(16 * MB, 'x'), 128, '{"data":[{"device.name":"'), {}, /the execute answer is larger than 64 MB \(counted after decompression\)\. If it is genuine, raise "Max Answer Size \(MB\)"/],
		['64 MB of empty JSON objects', 'application/json', gzipBomb(Buffer.from('{},'.repeat(1024 * 1024)), 21, '{"data":['), {}, /the execute answer holds more than 1,000,000 values, far more than the about 1,000 rows Nexthink returns/],
		['512 MB of short CSV rows', 'text/csv', gzipBomb(Buffer.from('PC-1,fine\n'.repeat(1600 * 1024)), 32, 'device.name,device.note\n'), { responseFormat: 'csv' }, /the execute answer holds more than 1,000,000 values/],
		['2 GiB of one CSV field', 'text/csv', gzipBomb(Buffer.alloc(16 * MB, 'x'), 128), { responseFormat: 'csv' }, /^The results file was not read: A field starting on line 2 .* longer than 16 MB/],
	])(
		'a ~2 MB answer sent with Content-Encoding: gzip that inflates to %s fails at once while memory stays low',
		async (_what, contentType, bomb, options, message) => {
			serveGzipAnswer(bomb, contentType);
			const rssBefore = process.memoryUsage().rss;
			let peak = rssBefore;
			const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
			const { items, error } = await run({ options });
			clearInterval(sampler);
			peak = Math.max(peak, process.memoryUsage().rss);
			expect(items).toHaveLength(0);
			expect(error.message).toMatch(message);
			if (!/^The results file/.test(error.message)) expect(error.message).toMatch(/^Executing #device_lookup was stopped: /);
			expect(executeCalls()).toHaveLength(1);
			expect(peak - rssBefore).toBeLessThan(300 * MB);
		},
		DATA_WORK_TIMEOUT_MS,
	);

	it('a CSV answer compressed without a Content-Encoding header is bounded by Max Answer Size too', async () => {
		const bomb = gzipBomb(Buffer.from(`${'x'.repeat(1023)}\n`.repeat(16 * 1024)), 32, 'device.name\n'); // 512 MB of 1 KB rows
		expect(bomb.length).toBeLessThan(3 * MB);
		server.injectFault({ method: 'POST', path: '/api/v2/nql/execute', status: 200, contentType: 'text/csv', body: bomb });
		const { error } = await run({ options: { responseFormat: 'csv' } });
		expect(error.message).toMatch(/^Executing #device_lookup was stopped: the execute answer is larger than 64 MB/);
	}, DATA_WORK_TIMEOUT_MS);

	it('Max Answer Size applies to a genuine answer too, and 0 lifts it', async () => {
		const parameters = { queryId: 'many_devices', queryParameters: {} };
		const small = await run({ ...parameters, advancedOptions: { maxAnswerMB: 0.01 } });
		expect(small.error.message).toMatch(/^Executing #many_devices was stopped: the execute answer is larger than 0\.0\d+ MB/);
		const unbounded = await run({ ...parameters, advancedOptions: { maxAnswerMB: 0 } });
		expect(unbounded.error).toBeUndefined();
		expect(unbounded.items).toHaveLength(1000);
		const bad = await run({ advancedOptions: { maxAnswerMB: -1 } });
		expect(bad.error.message).toBe('Item 0 cannot be sent: Max Answer Size (MB) must be a number, 0 (no limit) or more.');
		expect(executeCalls()).toHaveLength(2);
	});

	it.each([
		['JSON', {}],
		['CSV', { responseFormat: 'csv' }],
	])('a %s answer that stops arriving midway fails within about the Request Timeout', async (_format, options) => {
		server.injectFault({ method: 'POST', path: '/api/v2/nql/execute', stallAfterBytes: 10 });
		const started = Date.now();
		const { items, error } = await run({ options: { ...options, requestTimeoutSeconds: 1 } });
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/^Executing #device_lookup /);
		expect(error.message).toMatch(/timed out|Request Timeout/);
		expect(Date.now() - started).toBeLessThan(REAL_WAITS_TIMEOUT_MS / 2);
	}, REAL_WAITS_TIMEOUT_MS);

	it('quotes the API\'s JSON error body of a streamed request', async () => {
		server.injectFault({ method: 'POST', path: '/api/v2/nql/execute', status: 400, body: { message: 'Parameter $name is missing', code: 400 } });
		const { error } = await run({ options: { responseFormat: 'csv' } });
		expect(error.message).toMatch(/Parameter \$name is missing/);
	});
});
