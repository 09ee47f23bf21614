/**
 * The local Nexthink server: synchronous execute v1/v2, content negotiation, UTC rendering, typed
 * JSON values and the row limit.
 */
export {};

const { startNexthinkServer } = require('..');
const { fetchToken, apiRequest } = require('../client');

let server: any;
let token: string;

beforeAll(async () => {
	server = await startNexthinkServer({ executeRowLimit: 5, instanceUtcOffsetMinutes: 90 });
	server.addQuery({
		id: '#typed',
		header: ['device.name', 'device.last_seen', 'device.memory', 'device.online'],
		rows: [
			['PC, one', '2026-11-23T10:15:00.000Z', '16', 'true'],
			['PC-2', '', '', 'false'],
		],
		columnTypes: { 'device.last_seen': 'timestamp', 'device.memory': 'number', 'device.online': 'boolean' },
		nql: 'devices | where device.name == $name and device.entity == $entity | list device.name',
		parameters: ['name'],
	});
	server.addQuery({ id: '#many', header: ['n'], rows: () => Array.from({ length: 12 }, (_, i) => [String(i)]) });
	server.addQuery({ id: '#broken', header: ['n'], rows: [], fail: { errorDescription: 'Query execution timed out' } });
	server.addQuery({ id: '#invalid', header: ['n'], rows: [], fail: { httpStatus: 400, message: 'Invalid NQL' } });
	token = await fetchToken(server);
});

afterAll(async () => {
	await server.close();
});

const execute = (version: number, json: unknown, headers: Record<string, string> = {}) =>
	apiRequest(server, token, 'POST', `/api/v${version}/nql/execute`, { json, headers });
const typed = { queryId: '#typed', parameters: { name: 'PC "1"', unused: 'x' } };

describe('execute v1', () => {
	it('answers headers, rows as arrays, typed values and the executed query with parameters substituted', async () => {
		const response = await execute(1, typed, { 'x-utc-times': 'true' });
		expect(response.status).toBe(200);
		const body = await response.json();
		expect(body).toEqual({
			queryId: '#typed',
			executedQuery: 'devices | where device.name == "PC \\"1\\"" and device.entity == $entity | list device.name',
			rows: 2,
			executionDateTime: { year: expect.any(Number), month: expect.any(Number), day: expect.any(Number), hour: expect.any(Number), minute: expect.any(Number), second: expect.any(Number) },
			headers: ['device.name', 'device.last_seen', 'device.memory', 'device.online'],
			data: [
				['PC, one', '2026-11-23T10:15:00.000Z', 16, true],
				['PC-2', null, null, false],
			],
		});
		const { year, month, day, hour, minute, second } = body.executionDateTime;
		expect(Math.abs(Date.UTC(year, month - 1, day, hour, minute, second) - Date.now())).toBeLessThan(5000);
	});

	it('renders timestamps and the execution time in the instance time zone without x-utc-times', async () => {
		const body = await (await execute(1, typed)).json();
		expect(body.data[0][1]).toBe('2026-11-23T11:45:00.000+01:30');
		const { year, month, day, hour, minute, second } = body.executionDateTime;
		expect(Math.abs(Date.UTC(year, month - 1, day, hour, minute, second) - 90 * 60_000 - Date.now())).toBeLessThan(5000);
	});
});

describe('execute v2', () => {
	it('answers rows as objects keyed by column and an ISO executionDateTime without zone', async () => {
		const response = await execute(2, typed, { 'x-utc-times': 'true', accept: 'application/json' });
		expect(response.status).toBe(200);
		const body = await response.json();
		expect(body).toEqual({
			queryId: '#typed',
			executedQuery: expect.stringContaining('"PC \\"1\\""'),
			rows: 2,
			executionDateTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
			data: [
				{ 'device.name': 'PC, one', 'device.last_seen': '2026-11-23T10:15:00.000Z', 'device.memory': 16, 'device.online': true },
				{ 'device.name': 'PC-2', 'device.last_seen': null, 'device.memory': null, 'device.online': false },
			],
		});
		expect(Math.abs(Date.parse(`${body.executionDateTime}Z`) - Date.now())).toBeLessThan(5000);
	});

	it('cuts the rows at executeRowLimit silently', async () => {
		const body = await (await execute(2, { queryId: '#many' })).json();
		expect(body.rows).toBe(5);
		expect(body.data.map((row: Record<string, string>) => row.n)).toEqual(['0', '1', '2', '3', '4']);
	});
});

describe('content negotiation', () => {
	it.each([1, 2])('v%i answers CSV for Accept text/csv', async (version) => {
		const response = await execute(version, typed, { accept: 'text/csv', 'x-utc-times': 'true' });
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('text/csv');
		expect(await response.text()).toBe(
			'device.name,device.last_seen,device.memory,device.online\n"PC, one",2026-11-23T10:15:00.000Z,16,true\nPC-2,,,false\n',
		);
	});

	it.each([
		['*/*', 'application/json'],
		['application/json, text/plain, */*', 'application/json'],
		['text/csv;q=0.9, application/json;q=0.5', 'text/csv'],
		['text/*', 'text/csv'],
		['', 'application/json'],
	])('Accept %p gives %s', async (accept, type) => {
		const response = await execute(2, typed, { accept });
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe(type);
	});

	it.each(['application/xml', 'text/html', 'application/json;q=0'])('answers 406 without a body for Accept %p', async (accept) => {
		const response = await execute(1, typed, { accept });
		expect(response.status).toBe(406);
		expect(await response.text()).toBe('');
	});
});

describe('errors', () => {
	it('answers 404 without a body for an unknown query', async () => {
		const response = await execute(2, { queryId: '#nothing_here' });
		expect(response.status).toBe(404);
		expect(await response.text()).toBe('');
	});

	it.each([
		['an invalid queryId', { queryId: 'typed' }, 'queryId'],
		['a missing parameter', { queryId: '#typed' }, 'parameters'],
		['a non-string parameter', { queryId: '#typed', parameters: { name: 1 } }, 'parameters'],
	])('answers 400 for %s', async (_label, json, source) => {
		const response = await execute(2, json);
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ message: expect.any(String), code: 400, source });
	});

	it('ignores a compression member, which execute does not have', async () => {
		expect((await execute(2, { queryId: '#many', compression: 'BROTLI' })).status).toBe(200);
	});

	it('answers a failing query with 500 or its HTTP status and the error response', async () => {
		const broken = await execute(2, { queryId: '#broken' });
		expect(broken.status).toBe(500);
		expect(await broken.json()).toEqual({ message: 'Query execution timed out', code: 500, source: 'query' });
		const invalid = await execute(1, { queryId: '#invalid' });
		expect(invalid.status).toBe(400);
		expect(await invalid.json()).toEqual({ message: 'Invalid NQL', code: 400, source: 'query' });
	});
});
