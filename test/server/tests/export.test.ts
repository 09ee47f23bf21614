/**
 * The local Nexthink server: export start (POST and GET), status progression, 206/ERROR/400/429,
 * and the pre-signed results files with their compressions and faults.
 */
import { execFileSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { DATA_WORK_TIMEOUT_MS } from '../../helpers/timeouts';

const { startNexthinkServer, generateDeviceRows, DEVICE_COLUMNS } = require('..');
const { fetchToken, apiRequest, runExport } = require('../client');

const SMALL_ROWS = [
	['PC-1', 'plain'],
	['PC-2', 'comma, inside'],
	['PC-3', 'say "hi"'],
	['PC-4', 'two\nlines'],
	['PC-5', 'Zürich 東京'],
	['PC-6', ''],
];
const SMALL_CSV = 'device.name,note\nPC-1,plain\nPC-2,"comma, inside"\nPC-3,"say ""hi"""\nPC-4,"two\nlines"\nPC-5,Zürich 東京\nPC-6,\n';

let server: any;
let token: string;

beforeAll(async () => {
	server = await startNexthinkServer({ urlLifetimeSeconds: 900 });
	server.addQuery({ id: '#small', header: ['device.name', 'note'], rows: SMALL_ROWS });
	server.addQuery({ id: '#by_os', header: ['device.name'], parameters: ['os'], rows: (params: any) => [[`pc-${params.os}`]] });
	server.addQuery({ id: '#generated', header: [...DEVICE_COLUMNS], rows: () => generateDeviceRows(20000, 5), completeAfterPolls: 0 });
	// big enough for faults that act every few KiB of a compressed file, small enough to stay quick
	server.addQuery({ id: '#generated_2k', header: [...DEVICE_COLUMNS], rows: () => generateDeviceRows(2000, 5), completeAfterPolls: 0 });
});

afterAll(async () => {
	await server.close();
});

beforeEach(async () => {
	server.clearRequests();
	server.clearFaults();
	// Some tests move the server clock past a token's lifetime.
	token = await fetchToken(server);
});

const post = (json: unknown, headers: Record<string, string> = {}) => apiRequest(server, token, 'POST', '/api/v1/nql/export', { json, headers });
const get = (query: string) => apiRequest(server, token, 'GET', `/api/v1/nql/export?${query}`);
const status = (exportId: string) => apiRequest(server, token, 'GET', `/api/v1/nql/status/${exportId}`);

async function download(url: string, headers: Record<string, string> = {}) {
	const response = await fetch(url, { headers });
	return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

function decompress(bytes: Buffer, compression: string) {
	if (compression === 'GZIP') return gunzipSync(bytes).toString('utf8');
	if (compression === 'ZSTD') return execFileSync('zstd', ['-d', '-q', '-c'], { input: bytes, stdio: ['pipe', 'pipe', 'pipe'] }).toString('utf8');
	return bytes.toString('utf8');
}

describe('export start', () => {
	it('POST returns a UUID-like exportId and records the export with its tag', async () => {
		const response = await post({ queryId: '#by_os', parameters: { os: 'win' }, compression: 'GZIP' }, { 'x-platform-log-custom-tag': 'nightly-sync' });
		expect(response.status).toBe(200);
		const { exportId } = await response.json();
		expect(exportId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
		expect(server.exports.get(exportId)).toMatchObject({
			queryId: '#by_os',
			parameters: { os: 'win' },
			compression: 'GZIP',
			tag: 'nightly-sync',
			method: 'POST',
			status: 'SUBMITTED',
			polls: 0,
		});
	});

	it('POST without compression (or null) means NONE', async () => {
		for (const body of [{ queryId: '#small' }, { queryId: '#small', compression: null }]) {
			const { exportId } = await (await post(body)).json();
			expect(server.exports.get(exportId).compression).toBe('NONE');
		}
	});

	it('GET takes every other query key as a parameter, and also parameters=<JSON>', async () => {
		const exploded = await (await get('queryId=%23by_os&compression=ZSTD&os=mac')).json();
		expect(server.exports.get(exploded.exportId)).toMatchObject({ parameters: { os: 'mac' }, compression: 'ZSTD', method: 'GET' });
		const json = await (await get(`queryId=%23by_os&parameters=${encodeURIComponent('{"os":"linux"}')}`)).json();
		expect(server.exports.get(json.exportId).parameters).toEqual({ os: 'linux' });
	});

	it.each([
		['a missing queryId', { compression: 'NONE' }, 'queryId'],
		['a queryId without #', { queryId: 'small' }, 'queryId'],
		['a queryId with capitals', { queryId: '#Small' }, 'queryId'],
		['a queryId too short', { queryId: '#a' }, 'queryId'],
		['a queryId too long', { queryId: `#${'a'.repeat(255)}` }, 'queryId'],
		['a non-string queryId', { queryId: 42 }, 'queryId'],
		['an unknown compression', { queryId: '#small', compression: 'BROTLI' }, 'compression'],
		['a lowercase compression', { queryId: '#small', compression: 'gzip' }, 'compression'],
		['parameters as an array', { queryId: '#small', parameters: ['a'] }, 'parameters'],
		['parameters as a string', { queryId: '#small', parameters: 'os=win' }, 'parameters'],
		['a non-string parameter value', { queryId: '#small', parameters: { os: 7 } }, 'parameters'],
		['a body that is not an object', ['#small'], 'body'],
	])('POST answers 400 with the error response for %s', async (_label, body, source) => {
		const response = await post(body);
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ message: expect.any(String), code: 400, source });
	});

	it('answers 400 for malformed JSON', async () => {
		const response = await apiRequest(server, token, 'POST', '/api/v1/nql/export', { body: '{"queryId": ', headers: { 'content-type': 'application/json' } });
		expect(response.status).toBe(400);
		expect((await response.json()).source).toBe('body');
	});

	it.each([
		['a repeated queryId', 'queryId=%23small&queryId=%23small', 'queryId'],
		['a raw # cut off as a fragment', 'queryId=#small', 'queryId'],
		['a parameters value that is not JSON', 'queryId=%23small&parameters=os%3Dwin', 'parameters'],
		['a repeated parameter', 'queryId=%23by_os&os=a&os=b', 'parameters'],
	])('GET answers 400 for %s', async (_label, query, source) => {
		const response = await get(query);
		expect(response.status).toBe(400);
		expect((await response.json()).source).toBe(source);
	});

	it('accepts a 255-character tag and refuses 256', async () => {
		expect((await post({ queryId: '#small' }, { 'x-platform-log-custom-tag': 't'.repeat(255) })).status).toBe(200);
		const refused = await post({ queryId: '#small' }, { 'x-platform-log-custom-tag': 't'.repeat(256) });
		expect(refused.status).toBe(400);
		expect((await refused.json()).source).toBe('x-platform-log-custom-tag');
	});

	it('answers 404 without a body for an unknown query', async () => {
		const response = await post({ queryId: '#no_such_query' });
		expect(response.status).toBe(404);
		expect(await response.text()).toBe('');
	});

	it('answers 400 when a parameter the query expects is missing', async () => {
		const response = await post({ queryId: '#by_os', parameters: { other: 'x' } });
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ message: expect.stringContaining('$os'), code: 400, source: 'parameters' });
	});
});

describe('export status', () => {
	it('goes SUBMITTED → IN_PROGRESS → COMPLETED over polls, with a fresh signed URL on every completed call', async () => {
		server.addQuery({ id: '#three_polls', header: ['a'], rows: [['1']], completeAfterPolls: 2 });
		const { exportId } = await (await post({ queryId: '#three_polls', compression: 'GZIP' })).json();
		const answers = [];
		for (let i = 0; i < 3; i++) {
			const response = await status(exportId);
			answers.push([response.status, await response.json()]);
		}
		expect(answers[0]).toEqual([200, { status: 'SUBMITTED', resultsFileUrl: null, errorDescription: null }]);
		expect(answers[1]).toEqual([200, { status: 'IN_PROGRESS', resultsFileUrl: null, errorDescription: null }]);
		expect(answers[2][1]).toMatchObject({ status: 'COMPLETED', errorDescription: null });
		const url = new URL(answers[2][1].resultsFileUrl);
		expect(`${url.protocol}//${url.host}`).toBe(server.baseUrl);
		expect(url.pathname).toBe(`/files/${exportId}.csv.gz`);
		expect(url.searchParams.get('expires')).toMatch(/^\d+$/);
		expect(url.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);

		server.advanceClock(5000);
		const again = await (await status(exportId)).json();
		expect(again.status).toBe('COMPLETED');
		// The server clock runs on real time plus the advance, so a busy machine may add a second or more
		// between the two calls: the URL must move by the 5 s advance, plus at most a wide margin.
		const moved = Number(new URL(again.resultsFileUrl).searchParams.get('expires')) - Number(url.searchParams.get('expires'));
		expect(moved).toBeGreaterThanOrEqual(5);
		expect(moved).toBeLessThan(5 + 120);
		expect(server.exports.get(exportId).polls).toBe(4);
	});

	it('completes by time with completeAfterMs', async () => {
		server.addQuery({ id: '#timed', header: ['a'], rows: [['1']], completeAfterMs: 60_000 });
		const { exportId } = await (await post({ queryId: '#timed' })).json();
		expect((await (await status(exportId)).json()).status).toBe('SUBMITTED');
		expect((await (await status(exportId)).json()).status).toBe('IN_PROGRESS');
		server.advanceClock(60_000);
		expect((await (await status(exportId)).json()).status).toBe('COMPLETED');
	});

	it('answers 206 with COMPLETED and a cut file when the licence limit truncates the results', async () => {
		server.addQuery({ id: '#licensed', header: ['n'], rows: () => generateRange(10), truncateAt: 4, completeAfterPolls: 0 });
		const { exportId, httpStatus, status: body } = await runExport(server, token, { queryId: '#licensed' });
		expect(httpStatus).toBe(206);
		expect(body.status).toBe('COMPLETED');
		expect(server.csvFor(exportId)).toBe('n\n0\n1\n2\n3\n');
		expect((await download(body.resultsFileUrl)).bytes.toString()).toBe('n\n0\n1\n2\n3\n');
	});

	it('answers 200 when the results stay within the licence limit', async () => {
		server.addQuery({ id: '#within_licence', header: ['n'], rows: () => generateRange(4), truncateAt: 4, completeAfterPolls: 0 });
		const { httpStatus } = await runExport(server, token, { queryId: '#within_licence' });
		expect(httpStatus).toBe(200);
	});

	it('reports ERROR with the errorDescription of a failing export', async () => {
		server.addQuery({ id: '#fails', header: ['a'], rows: [], completeAfterPolls: 1, fail: { errorDescription: 'Query timed out' } });
		const { exportId } = await (await post({ queryId: '#fails' })).json();
		expect((await (await status(exportId)).json()).status).toBe('SUBMITTED');
		const response = await status(exportId);
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ status: 'ERROR', resultsFileUrl: null, errorDescription: 'Query timed out' });
	});

	it('answers HTTP 400 with the error response for an invalid query', async () => {
		server.addQuery({ id: '#invalid', header: ['a'], rows: [], completeAfterPolls: 0, fail: { httpStatus: 400, message: 'Invalid NQL' } });
		const { exportId } = await (await post({ queryId: '#invalid' })).json();
		const response = await status(exportId);
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ message: 'Invalid NQL', code: 400, source: 'query' });
	});

	it('answers 404 without a body for an unknown export id', async () => {
		const response = await status('00000000-0000-4000-8000-000000000000');
		expect(response.status).toBe(404);
		expect(await response.text()).toBe('');
	});
});

function* generateRange(count: number) {
	for (let i = 0; i < count; i++) yield [String(i)];
}

describe('daily status limit', () => {
	it('answers 429 with retry-after in seconds until the next UTC midnight, per client', async () => {
		const limited = await startNexthinkServer({
			statusDailyLimit: 2,
			clients: [
				{ clientId: 'a', clientSecret: 'sa', permissions: ['nql'] },
				{ clientId: 'b', clientSecret: 'sb', permissions: ['nql'] },
			],
		});
		try {
			const tokenA = await fetchToken(limited, { clientId: 'a', clientSecret: 'sa' });
			const tokenB = await fetchToken(limited, { clientId: 'b', clientSecret: 'sb' });
			const call = (t: string) => apiRequest(limited, t, 'GET', '/api/v1/nql/status/x');
			expect((await call(tokenA)).status).toBe(404);
			expect((await call(tokenA)).status).toBe(404);
			const refused = await call(tokenA);
			expect(refused.status).toBe(429);
			expect(await refused.text()).toBe('');
			const seconds = Number(refused.headers.get('retry-after'));
			const now = new Date();
			const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
			// Wide margin for a busy machine; modulo a day in case UTC midnight passed between the two reads.
			const gap = Math.abs(seconds - (midnight - now.getTime()) / 1000) % 86_400;
			expect(Math.min(gap, 86_400 - gap)).toBeLessThan(120);
			expect((await call(tokenB)).status).toBe(404);
		} finally {
			await limited.close();
		}
	});

	it('gives retry-after as an HTTP-date when asked, and lifts the limit after retryAfterSeconds', async () => {
		const limited = await startNexthinkServer({ statusDailyLimit: 1, retryAfterFormat: 'http-date', retryAfterSeconds: 30 });
		try {
			const t = await fetchToken(limited);
			const call = () => apiRequest(limited, t, 'GET', '/api/v1/nql/status/x');
			expect((await call()).status).toBe(404);
			const refused = await call();
			expect(refused.status).toBe(429);
			const header = refused.headers.get('retry-after') as string;
			expect(header).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
			expect(Math.abs(Date.parse(header) - Date.now() - 30_000)).toBeLessThan(20_000);
			limited.advanceClock(30_000);
			expect((await call()).status).toBe(404);
		} finally {
			await limited.close();
		}
	});
});

describe('results files', () => {
	it.each([
		['NONE', 'text/csv'],
		['GZIP', 'application/gzip'],
		['ZSTD', 'application/zstd'],
	])('serves %s as %s, decompressing to exactly csvFor()', async (compression, contentType) => {
		const { exportId, status: body } = await runExport(server, token, { queryId: '#small', compression });
		expect(server.csvFor(exportId)).toBe(SMALL_CSV);
		const { response, bytes } = await download(body.resultsFileUrl);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe(contentType);
		expect(response.headers.get('content-encoding')).toBeNull();
		expect(decompress(bytes, compression)).toBe(SMALL_CSV);
	});

	it('streams a generated export identically on every download', async () => {
		const { exportId, status: body } = await runExport(server, token, { queryId: '#generated', compression: 'GZIP' });
		const first = decompress((await download(body.resultsFileUrl)).bytes, 'GZIP');
		const second = decompress((await download(body.resultsFileUrl)).bytes, 'GZIP');
		expect(first).toBe(second);
		expect(first).toBe(server.csvFor(exportId));
		expect(first.startsWith(`${DEVICE_COLUMNS.join(',')}\n`)).toBe(true);
		expect(first.split('\n').filter((line) => line.startsWith('LT-') || line.startsWith('DT-') || line.startsWith('VD-'))).toHaveLength(20000);
	}, DATA_WORK_TIMEOUT_MS);

	it.each(['NONE', 'GZIP', 'ZSTD'])('builds a cacheFiles query’s %s file once and serves the same bytes to every export', async (compression) => {
		let generated = 0;
		server.addQuery({
			id: '#cached',
			header: ['device.name', 'note'],
			rows: () => {
				generated++;
				return SMALL_ROWS;
			},
			completeAfterPolls: 0,
			cacheFiles: true,
		});
		const first = await runExport(server, token, { queryId: '#cached', compression });
		const second = await runExport(server, token, { queryId: '#cached', compression });
		const generatedBeforeDownloads = generated;
		const firstBytes = (await download(first.status.resultsFileUrl)).bytes;
		const secondBytes = (await download(second.status.resultsFileUrl)).bytes;
		expect(decompress(firstBytes, compression)).toBe(SMALL_CSV);
		expect(secondBytes.equals(firstBytes)).toBe(true);
		expect(generated - generatedBeforeDownloads).toBe(1);
	});

	it('writes CRLF line endings when configured', async () => {
		const crlf = await startNexthinkServer({ csvLineEnding: '\r\n' });
		try {
			crlf.addQuery({ id: '#small', header: ['device.name', 'note'], rows: SMALL_ROWS, completeAfterPolls: 0 });
			const t = await fetchToken(crlf);
			const { status: body } = await runExport(crlf, t, { queryId: '#small' });
			const text = (await download(body.resultsFileUrl)).bytes.toString();
			expect(text).toBe('device.name,note\r\nPC-1,plain\r\nPC-2,"comma, inside"\r\nPC-3,"say ""hi"""\r\nPC-4,"two\nlines"\r\nPC-5,Zürich 東京\r\nPC-6,\r\n');
		} finally {
			await crlf.close();
		}
	});

	it('refuses a request carrying an Authorization header with 400 and an S3-like XML body', async () => {
		const { status: body } = await runExport(server, token, { queryId: '#small' });
		const { response, bytes } = await download(body.resultsFileUrl, { authorization: `Bearer ${token}` });
		expect(response.status).toBe(400);
		expect(response.headers.get('content-type')).toBe('application/xml');
		expect(bytes.toString()).toMatch(/<Code>InvalidArgument<\/Code><Message>Only one auth mechanism allowed/);
	});

	it('refuses an expired URL with 403 AccessDenied', async () => {
		const { status: body } = await runExport(server, token, { queryId: '#small' });
		server.advanceClock(900_000);
		const { response, bytes } = await download(body.resultsFileUrl);
		expect(response.status).toBe(403);
		expect(bytes.toString()).toMatch(/<Code>AccessDenied<\/Code><Message>Request has expired<\/Message>/);
	});

	it('refuses a tampered or unsigned URL with 403', async () => {
		const { status: body } = await runExport(server, token, { queryId: '#small' });
		const url = new URL(body.resultsFileUrl);
		url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
		const tampered = await download(url.toString());
		expect(tampered.response.status).toBe(403);
		expect(tampered.bytes.toString()).toContain('<Code>SignatureDoesNotMatch</Code>');
		const unsigned = await download(`${url.origin}${url.pathname}`);
		expect(unsigned.response.status).toBe(403);
		expect(unsigned.bytes.toString()).toContain('<Code>AccessDenied</Code>');
	});

	it('cuts a download after dropAfterBytes bytes', async () => {
		const { status: body } = await runExport(server, token, { queryId: '#generated_2k', compression: 'GZIP' });
		server.injectFault({ path: /^\/files\//, dropAfterBytes: 5000 });
		const response = await fetch(body.resultsFileUrl);
		expect(response.status).toBe(200);
		const reader = (response.body as ReadableStream<Uint8Array>).getReader();
		let received = 0;
		await expect(
			(async () => {
				for (;;) {
					const { done, value } = await reader.read();
					if (done) return;
					received += value.length;
				}
			})(),
		).rejects.toThrow();
		expect(received).toBe(5000);
		const full = await download(body.resultsFileUrl);
		expect(full.response.status).toBe(200);
	});

	it.each(['GZIP', 'ZSTD'])('corrupts a %s download so that decompression fails', async (compression) => {
		const { status: body } = await runExport(server, token, { queryId: '#generated_2k', compression });
		const clean = (await download(body.resultsFileUrl)).bytes;
		server.injectFault({ path: /^\/files\//, corrupt: true });
		const corrupted = (await download(body.resultsFileUrl)).bytes;
		expect(corrupted).toHaveLength(clean.length);
		expect(corrupted.equals(clean)).toBe(false);
		expect(() => decompress(corrupted, compression)).toThrow();
	});
});
