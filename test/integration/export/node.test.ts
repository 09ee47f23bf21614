/**
 * The Nexthink Export node through n8n-core's engine, over real HTTP against the local API server.
 */
import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
const { csvRecords: referenceCsvRows } = require('../../helpers/csvReference');
import { N8N_CORE_VERSION, nexthinkCredentials, runNode, startNode, type RunNodeOptions } from '../../helpers/harness';
import { FAST_WAIT, localServerHooks } from '../../helpers/localServer';
import { DATA_WORK_TIMEOUT_MS, REAL_WAITS_TIMEOUT_MS } from '../../helpers/timeouts';

const { startNexthinkServer, generateDeviceRows, DEVICE_COLUMNS } = require('../../server');

/**
 * Fast polling so tests do not wait the production 2 s for the first poll. Later polls are always
 * at least 1 s apart (the node's floor), so most test queries complete on the first poll
 * (`completeAfterPolls: 0`); the wait loop itself is tested with queries that take longer.
 */
const FIRST_POLL = { completeAfterPolls: 0 };

let server: any;

const TRICKY_ROWS = [
	['PC-001', 'plain', '1'],
	['PC-002', 'comma, inside', '2'],
	['PC-003', 'quote " inside', '3'],
	['PC-004', 'line\nbreak and\r\nCRLF', '4'],
	['PC-005', 'Zürich 東京 🚀', '5'],
	['PC-006', '', '007'],
];

beforeAll(async () => {
	server = await startNexthinkServer();
	server.addQuery({ id: '#tricky', header: ['device.name', 'device.note', 'device.#count'], rows: TRICKY_ROWS, ...FIRST_POLL });
	server.addQuery({ id: '#empty_result', header: ['device.name', 'device.uid'], rows: [], ...FIRST_POLL });
	server.addQuery({ id: '#devices_by_os', header: ['device.name', 'os'], parameters: ['os'], rows: (p: any) => [['PC-9', p.os]], ...FIRST_POLL });
	server.addQuery({ id: '#truncated', header: ['device.name'], rows: [['a'], ['b'], ['c'], ['d']], truncateAt: 2 });
	server.addQuery({ id: '#broken_query', header: ['x'], rows: [], fail: { errorDescription: 'Field device.nme does not exist' }, ...FIRST_POLL });
	server.addQuery({ id: '#invalid_query', header: ['x'], rows: [], fail: { httpStatus: 400, message: 'Invalid NQL: unexpected token' }, ...FIRST_POLL });
	server.addQuery({ id: '#never_done', header: ['x'], rows: [], completeAfterMs: 3_600_000 });
	server.addQuery({ id: '#inventory_200k', header: DEVICE_COLUMNS, rows: () => generateDeviceRows(200_000, 7), ...FIRST_POLL });
	server.addQuery({ id: '#inventory_500', header: DEVICE_COLUMNS, rows: () => generateDeviceRows(500, 7), ...FIRST_POLL });
});
localServerHooks(() => server);

function run(parameters: Record<string, unknown>, extra: Partial<RunNodeOptions> = {}) {
	return runNode({
		nodeType: new NexthinkExport(),
		parameters: { advancedOptions: FAST_WAIT, ...parameters } as never,
		credentials: { nexthinkApi: nexthinkCredentials(server) },
		...extra,
	});
}

const calls = (path: string | RegExp, method?: string) =>
	server.requests.filter(
		(r: any) => (typeof path === 'string' ? r.path === path : path.test(r.path)) && (method === undefined || r.method === method),
	);
const startCalls = () => calls('/api/v1/nql/export');
const statusCalls = () => calls(/^\/api\/v1\/nql\/status\//);
const fileCalls = () => calls(/^\/files\//);
const lastExportId = () => [...server.exports.keys()].pop();

describe(`Nexthink Export on n8n-core ${N8N_CORE_VERSION}`, () => {
	describe.each(['GZIP', 'ZSTD', 'NONE'])('Export with %s compression', (compression) => {
		it('outputs exactly the rows of the server\'s CSV, keys as in the header, paired to the input', async () => {
			const { items, error } = await run({ queryId: 'tricky', compression });
			expect(error).toBeUndefined();
			const expected = referenceCsvRows(server.csvFor(lastExportId()));
			expect(expected).toHaveLength(TRICKY_ROWS.length);
			expect(items.map((i) => i.json)).toEqual(expected);
			expect(items.every((i) => (i.pairedItem as any).item === 0)).toBe(true);
			expect(startCalls()).toHaveLength(1);
			expect(JSON.parse(startCalls()[0].body)).toEqual({ queryId: '#tricky', compression });
		});
	});

	it('sends parameters (without $) as strings in the POST body, and the custom log tag header', async () => {
		const { items, error } = await run({
			queryId: '#devices_by_os',
			queryParameters: { parameter: [{ name: '$os', value: 'Windows 11' }] },
			options: { logTag: 'nightly-inventory' }, advancedOptions: FAST_WAIT,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([{ 'device.name': 'PC-9', os: 'Windows 11' }]);
		expect(JSON.parse(startCalls()[0].body)).toEqual({ queryId: '#devices_by_os', parameters: { os: 'Windows 11' }, compression: 'GZIP' });
		expect(startCalls()[0].headers['x-platform-log-custom-tag']).toBe('nightly-inventory');
	});

	it('accepts parameters as JSON and sends numbers as strings', async () => {
		const { error } = await run({ queryId: 'devices_by_os', parametersInput: 'json', queryParametersJson: '{"os": 11}' });
		expect(error).toBeUndefined();
		expect(JSON.parse(startCalls()[0].body).parameters).toEqual({ os: '11' });
	});

	it('starts with GET when asked: each parameter its own query key, the # percent-encoded', async () => {
		const { items, error } = await run({
			queryId: 'devices_by_os',
			queryParameters: { parameter: [{ name: 'os', value: 'macOS 15' }] },
			advancedOptions: { ...FAST_WAIT, startMethod: 'GET' },
		});
		expect(error).toBeUndefined();
		expect(items[0].json.os).toBe('macOS 15');
		const [start] = calls('/api/v1/nql/export', 'GET');
		expect(start.query).toEqual({ queryId: '#devices_by_os', os: 'macOS 15', compression: 'GZIP' });
	});

	it.each([
		[{ queryId: 'All Devices' }, /characters a query ID cannot have: "A" " " "D".*Query IDs are lower case/],
		[{ queryId: '#a' }, /too short/],
		[{ queryId: '={{ $json.missing ?? "" }}' }, /query ID is empty/],
		[{ queryId: 'x'.repeat(300) }, /at most 254 \(255 with the # in front\)/],
		[{ queryId: 'ok_query', options: { logTag: 't'.repeat(256) } }, /custom log tag is 256 characters long/],
		[{ queryId: 'ok_query', queryParameters: { parameter: [{ name: '', value: 'x' }] } }, /has no name/],
		[{ queryId: 'ok_query', parametersInput: 'json', queryParametersJson: '[1]' }, /must be an object/],
	])('rejects bad input %j before any request', async (parameters, message) => {
		const { error } = await run(parameters);
		expect(error?.message).toMatch(message);
		expect(server.requests).toHaveLength(0);
	});

	it('outputs an empty result (header-only file) as no items, without error', async () => {
		const { items, error } = await run({ queryId: 'empty_result' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(0);
	});

	it('converts types on request: exact numbers, and empty to null; 007 stays text', async () => {
		const { items } = await run({ queryId: 'tricky', options: { convertTypes: true }, advancedOptions: FAST_WAIT });
		expect(items[0].json['device.#count']).toBe(1);
		expect(items[5].json['device.note']).toBeNull();
		expect(items[5].json['device.#count']).toBe('007');
	});

	// waits 2 s: #truncated completes on the third poll, and polls are at least 1 s apart
	it('emits the rows of a truncated (206) export and reports the truncation in the metadata', async () => {
		const { items, error } = await run({ queryId: 'truncated', options: { includeMetadata: 'separateItem' }, advancedOptions: FAST_WAIT });
		expect(error).toBeUndefined();
		expect(items.slice(0, -1).map((i) => i.json['device.name'])).toEqual(['a', 'b']);
		expect(items.at(-1)!.json).toEqual({ exportId: lastExportId(), queryId: '#truncated', rowCount: 2, truncated: true, moreRowsAvailable: false });
	}, REAL_WAITS_TIMEOUT_MS);

	// waits 2 s: #truncated completes on the third poll, and polls are at least 1 s apart
	it('fails on a truncated export when asked to', async () => {
		const { error } = await run({ queryId: 'truncated', options: { onTruncated: 'fail' }, advancedOptions: FAST_WAIT });
		expect(error.message).toMatch(/was truncated.*HTTP 206/);
		expect(fileCalls()).toHaveLength(0);
	}, REAL_WAITS_TIMEOUT_MS);

	it('fails with the errorDescription of an ERROR export', async () => {
		const { error } = await run({ queryId: 'broken_query' });
		expect(error.message).toMatch(/The export of #broken_query \(.*\) failed: Field device.nme does not exist/);
	});

	it('fails with the API message when the status call answers 400', async () => {
		const { error } = await run({ queryId: 'invalid_query' });
		expect(error.message).toMatch(/failed: Invalid NQL: unexpected token/);
	});

	it('turns a failed export into an error item under continue-on-fail and goes on with the next item', async () => {
		const { items, error } = await run(
			{ queryId: '={{ $json.q }}' },
			{ items: [{ json: { q: 'broken_query' } }, { json: { q: 'tricky' } }], onError: 'continueRegularOutput' },
		);
		expect(error).toBeUndefined();
		expect(items[0].json.error).toMatch(/Field device.nme does not exist/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items.slice(1)).toHaveLength(TRICKY_ROWS.length);
		expect(items.slice(1).every((i) => (i.pairedItem as any).item === 1)).toBe(true);
	});

	it('reports an unknown query (404) with a hint', async () => {
		const { error } = await run({ queryId: 'no_such_query' });
		expect(error.message).toMatch(/Starting the export of #no_such_query failed \(HTTP 404\)/);
		expect(error.description).toMatch(/NQL API queries/);
	});

	it('retries status calls on 503 without ever sending a second start request', async () => {
		server.injectFault({ method: 'GET', path: /^\/api\/v1\/nql\/status\//, status: 503, times: 2 });
		const { items, error } = await run({ queryId: 'tricky' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(TRICKY_ROWS.length);
		expect(startCalls()).toHaveLength(1);
		expect(statusCalls()).toHaveLength(3); // two refused, then COMPLETED
	}, REAL_WAITS_TIMEOUT_MS);

	it('downloads without an Authorization header', async () => {
		await run({ queryId: 'tricky' });
		expect(fileCalls()).toHaveLength(1);
		expect(fileCalls()[0].headers.authorization).toBeUndefined();
	});

	it('refreshes an expired results URL with one status call and downloads once more', async () => {
		server.injectFault({ method: 'GET', path: /^\/files\//, status: 403, body: '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>' });
		const { items, error } = await run({ queryId: 'tricky' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(TRICKY_ROWS.length);
		expect(fileCalls()).toHaveLength(2);
		expect(statusCalls()).toHaveLength(2); // COMPLETED, then one for the fresh URL
	});

	it('refreshes an expired results URL within the Request Timeout: a status call refused with a later Retry-After is not waited for', async () => {
		// the file is held until the wait's status call has answered, so the next status fault hits the refresh only
		let release = () => {};
		const held = server.injectFault({
			method: 'GET',
			path: /^\/files\//,
			status: 403,
			body: '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
			holdUntil: new Promise<void>((resolve) => (release = resolve)),
		});
		const running = startNode({
			nodeType: new NexthinkExport(),
			parameters: { queryId: 'tricky', options: { ...FAST_WAIT, requestTimeoutSeconds: 5 } } as never,
			credentials: { nexthinkApi: nexthinkCredentials(server) },
		});
		while (held.hits === 0) await new Promise((resolve) => setTimeout(resolve, 10));
		server.injectFault({ method: 'GET', path: /^\/api\/v1\/nql\/status\//, status: 503, headers: { 'retry-after': '60' }, times: Infinity });
		release();
		const { error } = await running.result;
		expect(error?.message).toMatch(/^Getting the status of export .+ failed \(HTTP 503\)/);
		expect(error?.description).toMatch(/Nexthink asks to retry after/);
		expect(statusCalls()).toHaveLength(2); // COMPLETED, then the refresh, not sent again after 60 s
		expect(fileCalls()).toHaveLength(1);
	});

	it('retries a download that broke off, and outputs each row once', async () => {
		server.injectFault({ method: 'GET', path: /^\/files\//, dropAfterBytes: 20 });
		const { items, error } = await run({ queryId: 'tricky', compression: 'NONE' });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(referenceCsvRows(server.csvFor(lastExportId())));
		expect(fileCalls()).toHaveLength(2);
	});

	it('fails clearly, without partial rows, when the compressed file is corrupt', async () => {
		server.injectFault({ method: 'GET', path: /^\/files\//, corrupt: true, times: 2 });
		const { items, error } = await run({ queryId: 'inventory_200k', compression: 'GZIP', options: { maxRows: 0 }, advancedOptions: FAST_WAIT });
		expect(error.message).toMatch(/results file could not be read/);
		expect(items).toHaveLength(0);
	});

	// waits 4.4 s: polls at 0.02, 1.02, 2.02 and 3.02 s (1 s apart at least); the second answer (IN_PROGRESS)
	// has over 3 s to come back on a busy machine
	it('stops waiting at the maximum wait and says how to continue', async () => {
		const { error } = await run({ queryId: 'never_done', options: { maxWaitSeconds: 4.4 }, advancedOptions: FAST_WAIT });
		// on a busy machine the last status call may still be in flight when the wait runs out: the message
		// then says so after the status (nql/followExport.ts), which is the same outcome
		expect(error.message).toMatch(/did not complete within 4.4 seconds \(last status IN_PROGRESS(\)|; the last status call got no answer before the maximum wait ran out\))/);
		expect(error.description).toMatch(/Maximum Wait.*Get Status.*Wait node/);
		expect(startCalls()).toHaveLength(1);
		expect(fileCalls()).toHaveLength(0);
	}, REAL_WAITS_TIMEOUT_MS);

	// waits 4 s: polls at 0.02, 1.02, 2.02 and 3.02 s; the second answer (IN_PROGRESS) has about 3 s to come back
	it('returns the last status with waitTimedOut when asked to', async () => {
		const { items, error } = await run({ queryId: 'never_done', options: { maxWaitSeconds: 4, onTimeout: 'returnStatus' }, advancedOptions: FAST_WAIT });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ exportId: lastExportId(), status: 'IN_PROGRESS', waitTimedOut: true, queryId: '#never_done' });
	}, REAL_WAITS_TIMEOUT_MS);

	it('reads Maximum Wait in seconds and names the unit when it is bad', async () => {
		const bad = await run({ queryId: 'never_done', options: { maxWaitSeconds: -1 }, advancedOptions: FAST_WAIT });
		expect(bad.error.message).toBe('Item 0 cannot be sent: Maximum Wait must be a number of seconds of 0 or more, got -1.');
	});

	it('stops waiting at once when the execution is cancelled', async () => {
		const running = startNode({
			nodeType: new NexthinkExport(),
			parameters: { queryId: 'never_done', advancedOptions: { firstPollSeconds: 0.05, maxPollIntervalSeconds: 30 } } as never,
			credentials: { nexthinkApi: nexthinkCredentials(server) },
		});
		while (statusCalls().length < 3) await new Promise((r) => setTimeout(r, 10));
		running.cancel();
		const outcome = await Promise.race([running.result.then(() => 'ended'), new Promise((r) => setTimeout(() => r('still waiting'), 10_000))]);
		expect(outcome).toBe('ended');
		const count = statusCalls().length;
		await new Promise((r) => setTimeout(r, 300));
		expect(statusCalls()).toHaveLength(count);
	}, REAL_WAITS_TIMEOUT_MS);

	it('outputs the file as binary data with the right name and MIME type', async () => {
		const { items, error } = await run({ queryId: 'tricky', compression: 'GZIP', options: { output: 'file' }, advancedOptions: FAST_WAIT });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const binary = items[0].binary!.data;
		expect(binary.fileName).toBe(`${lastExportId()}.csv.gz`);
		expect(binary.mimeType).toBe('application/gzip');
		// the file was not parsed, so the rows are not counted
		expect(items[0].json).toMatchObject({ exportId: lastExportId(), rowCount: null });
	});

	it('hands Output File to n8n\'s binary data as a stream, complete, also after a broken download', async () => {
		// n8n's BinaryDataService.store receives what the node gave prepareBinaryData: a Buffer when the
		// node collected the file itself, a Readable when it streamed it
		const { BinaryDataService } = require('n8n-core');
		const store = jest.spyOn(BinaryDataService.prototype, 'store');
		try {
			server.injectFault({ method: 'GET', path: /^\/files\//, dropAfterBytes: 3000 });
			const { items, error } = await run({ queryId: 'inventory_200k', compression: 'ZSTD', options: { output: 'file' }, advancedOptions: FAST_WAIT });
			expect(error).toBeUndefined();
			expect(fileCalls()).toHaveLength(2);
			const binary = items[0].binary!.data;
			expect(binary.fileName).toBe(`${lastExportId()}.csv.zst`);
			expect(binary.mimeType).toBe('application/zstd');
			const data = Buffer.from(binary.data, 'base64');
			const expected = require('node:child_process').execFileSync('zstd', ['-q', '-c'], { input: server.csvFor(lastExportId()), maxBuffer: 1 << 28 });
			expect(data.equals(expected)).toBe(true);
			const handedOver = store.mock.calls.map((call) => call[1]);
			expect(handedOver.length).toBeGreaterThan(0);
			expect(handedOver.every((value) => !Buffer.isBuffer(value) && typeof (value as any).pipe === 'function')).toBe(true);
		} finally {
			store.mockRestore();
		}
	}, 30_000); // downloads a 200,000-row file twice

	it('says when n8n could not store the file, apart from a damaged or broken download', async () => {
		const { BinaryDataService } = require('n8n-core');
		const store = jest.spyOn(BinaryDataService.prototype, 'store').mockRejectedValue(new Error('no space left on device'));
		try {
			const { items, error } = await run({ queryId: 'tricky', compression: 'GZIP', options: { output: 'file' }, advancedOptions: FAST_WAIT });
			expect(items).toHaveLength(0);
			expect(error.message).toBe('The results file could not be stored as binary data: no space left on device');
			expect(error.description).toMatch(/N8N_DEFAULT_BINARY_DATA_MODE=filesystem/);
			expect(fileCalls()).toHaveLength(1);
		} finally {
			store.mockRestore();
		}
	});

	it('outputs rows and the file together, the file on the first row', async () => {
		const { items } = await run({ queryId: 'tricky', compression: 'NONE', options: { output: 'rowsAndFile', binaryPropertyName: 'csv' }, advancedOptions: FAST_WAIT });
		expect(items).toHaveLength(TRICKY_ROWS.length);
		expect(items[0].binary!.csv.fileName).toBe(`${lastExportId()}.csv`);
		expect(items[0].binary!.csv.mimeType).toBe('text/csv');
	});

	it('stops parsing at Max Rows with Rows and File, and still keeps the whole file', async () => {
		// the line after the rows that are read is malformed: parsing it would fail the item
		const file = require('node:zlib').gzipSync('device.name,device.note\nPC-1,a\nPC-2,b\nPC-3,c\nbroken"line\n' + 'PC-4,d\n'.repeat(50_000));
		server.injectFault({ method: 'GET', path: /^\/files\//, status: 200, headers: { 'content-type': 'application/gzip' }, body: file });
		const { items, error } = await run({ queryId: 'tricky', compression: 'GZIP', options: { output: 'rowsAndFile', maxRows: 2 }, advancedOptions: FAST_WAIT });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([
			{ 'device.name': 'PC-1', 'device.note': 'a' },
			{ 'device.name': 'PC-2', 'device.note': 'b' },
		]);
		expect(Buffer.from(items[0].binary!.data.data, 'base64').equals(file)).toBe(true);
	});

	it('caps rows with Max Rows and puts metadata on each row when asked', async () => {
		const { items } = await run({ queryId: 'tricky', options: { maxRows: 2, includeMetadata: 'eachRow' }, advancedOptions: FAST_WAIT });
		expect(items).toHaveLength(2);
		expect(items[1].json.nexthinkExport).toEqual({ exportId: lastExportId(), queryId: '#tricky', rowCount: 2, truncated: false, moreRowsAvailable: true });
	});

	it('emits few rows by default when an AI agent runs it as a tool', async () => {
		const { items } = await run({ queryId: 'inventory_500', compression: 'ZSTD', options: { maxRowsAsTool: 5 }, advancedOptions: FAST_WAIT }, { typeName: 'n8n-nodes-nexthink.nexthinkExportTool' });
		// the note on the rows left out comes first (test/integration/agentTool.test.ts)
		expect(items).toHaveLength(6);
		expect(items[0].json).toMatchObject({ rowsShown: 5, moreRowsNotCounted: true });
		expect(items[5].json['device.name']).toBe([...generateDeviceRows(5, 7)][4][0]);
	});

	it('delivers a 200,000-row export complete and in order', async () => {
		const { items, error } = await run({ queryId: 'inventory_200k', compression: 'ZSTD' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(200_000);
		const expected = [...generateDeviceRows(200_000, 7)];
		for (const index of [0, 1, 99_999, 199_999]) {
			expect(items[index].json).toEqual(Object.fromEntries(DEVICE_COLUMNS.map((c: string, k: number) => [c, expected[index][k] ?? ''])));
		}
		const names = items.map((i) => i.json['device.name']);
		expect(names).toEqual(expected.map((row: string[]) => row[0]));
	}, DATA_WORK_TIMEOUT_MS);

	describe('Start Export, Get Status and Download Results', () => {
		it('starts only and outputs the export ID', async () => {
			const { items } = await run({ operation: 'startExport', queryId: 'tricky', compression: 'ZSTD' });
			expect(items[0].json).toEqual({ exportId: lastExportId(), queryId: '#tricky', compression: 'ZSTD' });
			expect(statusCalls()).toHaveLength(0);
		});

		it('reports each status as data, then downloads by export ID', async () => {
			const started = await run({ operation: 'startExport', queryId: 'truncated' });
			const exportId = started.items[0].json.exportId;
			const statuses = [];
			for (let i = 0; i < 3; i++) {
				const { items } = await run({ operation: 'getStatus', exportId });
				statuses.push(items[0].json);
			}
			expect(statuses.map((s) => s.status)).toEqual(['SUBMITTED', 'IN_PROGRESS', 'COMPLETED']);
			expect(statuses[2]).toMatchObject({ exportId, httpStatus: 206, truncated: true, errorDescription: null });
			expect(statuses[2].resultsFileUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//);

			const byId = await run({ operation: 'downloadResults', exportId });
			expect(byId.items.map((i) => i.json['device.name'])).toEqual(['a', 'b']);
			const byUrl = await run({ operation: 'downloadResults', resultsSource: 'url', resultsFileUrl: statuses[2].resultsFileUrl });
			expect(byUrl.items.map((i) => i.json['device.name'])).toEqual(['a', 'b']);
		});

		it('knows the query ID in Download Results when the input item carries it (Start Export, Get Status), and says why not otherwise', async () => {
			const started = await run({ operation: 'startExport', queryId: 'truncated' });
			const exportId = started.items[0].json.exportId as string;
			let status = started;
			for (let i = 0; i < 3; i++) {
				status = await run({ operation: 'getStatus', exportId: '={{ $json.exportId }}' }, { items: [{ json: status.items[0].json }] });
			}
			expect(status.items[0].json).toMatchObject({ exportId, status: 'COMPLETED', queryId: '#truncated' });
			const metadataOnly = { includeMetadata: 'separateItem', output: 'file' };

			const known = await run({ operation: 'downloadResults', exportId: '={{ $json.exportId }}', options: metadataOnly }, { items: [{ json: status.items[0].json }] });
			expect(known.items.at(-1)!.json).toEqual({ exportId, queryId: '#truncated', rowCount: null, truncated: true, moreRowsAvailable: false });

			// the same export ID typed in, with an input item that says nothing of the query
			const unknown = await run({ operation: 'downloadResults', exportId, options: metadataOnly });
			expect(unknown.items.at(-1)!.json).toMatchObject({ exportId, queryId: null });
			expect(unknown.items.at(-1)!.json.queryIdNote).toMatch(/do not name the query.*input item carries the same exportId with its queryId/);

			// an item about another export does not lend its query ID
			const other = await run(
				{ operation: 'downloadResults', exportId, options: metadataOnly },
				{ items: [{ json: { exportId: 'another-export', queryId: '#other_query' } }] },
			);
			expect(other.items.at(-1)!.json.queryId).toBeNull();
		});

		it('outputs ERROR and HTTP 400 as data, and fails on an unknown export ID', async () => {
			const failed = await run({ operation: 'startExport', queryId: 'broken_query' });
			const invalid = await run({ operation: 'startExport', queryId: 'invalid_query' });
			for (let i = 0; i < 3; i++) {
				await run({ operation: 'getStatus', exportId: failed.items[0].json.exportId });
				await run({ operation: 'getStatus', exportId: invalid.items[0].json.exportId });
			}
			const error = await run({ operation: 'getStatus', exportId: failed.items[0].json.exportId });
			expect(error.items[0].json).toMatchObject({ status: 'ERROR', errorDescription: 'Field device.nme does not exist', httpStatus: 200 });
			const badRequest = await run({ operation: 'getStatus', exportId: invalid.items[0].json.exportId });
			expect(badRequest.items[0].json).toMatchObject({ status: 'ERROR', errorDescription: 'Invalid NQL: unexpected token', httpStatus: 400 });
			const unknown = await run({ operation: 'getStatus', exportId: 'no-such-export' });
			expect(unknown.error.message).toMatch(/HTTP 404/);
			expect(unknown.error.description).toMatch(/No export has this ID/);
		});

		it('fails Download Results for an export that is not complete yet', async () => {
			const started = await run({ operation: 'startExport', queryId: 'never_done' });
			const { error } = await run({ operation: 'downloadResults', exportId: started.items[0].json.exportId });
			expect(error.message).toMatch(/has not completed yet \(status SUBMITTED\)/);
		});
	});
});
