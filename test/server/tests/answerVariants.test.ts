/**
 * The local Nexthink server's switches for what Nexthink does not document: how answers spell the
 * column names (`queryColumnNames`) and what an empty result looks like (`emptyResult`), in export
 * files and execute answers; and the `holdUntil` fault that holds an answer until a test lets it go.
 */
import * as zlib from 'node:zlib';

export {};

const { startNexthinkServer } = require('..');
const { fetchToken, apiRequest, runExport } = require('../client');

let server: any;
let token: string;
let rows: string[][];

beforeAll(async () => {
	server = await startNexthinkServer();
	server.addQuery({ id: '#devices', header: ['device.name', 'device.operating_system.name', 'cpu_usage'], rows: () => rows });
	token = await fetchToken(server);
});
afterAll(async () => {
	await server.close();
});
beforeEach(() => {
	rows = [['PC-1', 'Windows 11', '12']];
	server.options.queryColumnNames = 'qualified';
	server.options.emptyResult = 'header';
});

/** The bytes of the results file of a new export of #devices. */
async function exportFile(compression: 'GZIP' | 'NONE'): Promise<Buffer> {
	const { exportId } = await runExport(server, token, { queryId: '#devices', compression });
	const status = await (await apiRequest(server, token, 'GET', `/api/v1/nql/status/${exportId}`)).json();
	return Buffer.from(await (await fetch(status.resultsFileUrl)).arrayBuffer());
}
const executeV1 = async () => await (await apiRequest(server, token, 'POST', '/api/v1/nql/execute', { json: { queryId: '#devices' } })).json();

describe('queryColumnNames', () => {
	it('short: every answer names the columns without their root object', async () => {
		server.options.queryColumnNames = 'short';
		expect(zlib.gunzipSync(await exportFile('GZIP')).toString()).toBe('name,operating_system.name,cpu_usage\nPC-1,Windows 11,12\n');
		expect((await executeV1()).headers).toEqual(['name', 'operating_system.name', 'cpu_usage']);
		const v2 = await (await apiRequest(server, token, 'POST', '/api/v2/nql/execute', { json: { queryId: '#devices' } })).json();
		expect(v2.data).toEqual([{ name: 'PC-1', 'operating_system.name': 'Windows 11', cpu_usage: '12' }]);
	});
});

describe('emptyResult', () => {
	it('header (default): a header-only file, execute lists the headers', async () => {
		rows = [];
		expect(zlib.gunzipSync(await exportFile('GZIP')).toString()).toBe('device.name,device.operating_system.name,cpu_usage\n');
		expect((await executeV1()).headers).toEqual(['device.name', 'device.operating_system.name', 'cpu_usage']);
	});

	it('no-header: a valid gzip file of nothing (plain: zero bytes), execute v1 without headers, CSV without text', async () => {
		server.options.emptyResult = 'no-header';
		rows = [];
		const gzip = await exportFile('GZIP');
		expect(gzip.length).toBeGreaterThan(0);
		expect(zlib.gunzipSync(gzip).length).toBe(0);
		expect(await exportFile('NONE')).toHaveLength(0);
		expect(await executeV1()).toMatchObject({ headers: [], data: [], rows: 0 });
		const csv = await apiRequest(server, token, 'POST', '/api/v2/nql/execute', { json: { queryId: '#devices' }, headers: { accept: 'text/csv' } });
		expect(await csv.text()).toBe('');
		// a result with rows keeps its header
		rows = [['PC-1', 'Windows 11', '12']];
		expect(zlib.gunzipSync(await exportFile('GZIP')).toString()).toMatch(/^device\.name,/);
	});

	it('zero-bytes: the file of an empty result is empty whatever the compression', async () => {
		server.options.emptyResult = 'zero-bytes';
		rows = [];
		expect(await exportFile('GZIP')).toHaveLength(0);
	});
});

describe('holdUntil fault', () => {
	it('holds the real answer until the promise settles', async () => {
		let release = () => {};
		const fault = server.injectFault({ path: '/api/v1/nql/execute', holdUntil: new Promise<void>((resolve) => (release = resolve)) });
		let answered = false;
		const pending = executeV1().then((body) => {
			answered = true;
			return body;
		});
		while (fault.hits === 0) await new Promise((resolve) => setTimeout(resolve, 20));
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(answered).toBe(false);
		release();
		expect((await pending).data).toEqual([['PC-1', 'Windows 11', '12']]);
	});
});
