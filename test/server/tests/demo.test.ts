/**
 * The local Nexthink server: the device row generator, the demo estate and its queries, and the
 * command line entry point.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { DATA_WORK_TIMEOUT_MS } from '../../helpers/timeouts';

const { startNexthinkServer, generateDeviceRows, DEVICE_COLUMNS } = require('..');
const { fetchToken, apiRequest, runExport } = require('../client');

describe('generateDeviceRows', () => {
	it('gives the same rows for the same seed and different rows for another seed', () => {
		const a = [...generateDeviceRows(300, 7)];
		const b = [...generateDeviceRows(300, 7)];
		const c = [...generateDeviceRows(300, 8)];
		expect(a).toEqual(b);
		expect(a).not.toEqual(c);
	});

	it('gives 15 string columns per row, unique names and UUID-shaped unique uids', () => {
		const rows = [...generateDeviceRows(5000, 3)];
		expect(DEVICE_COLUMNS).toHaveLength(15);
		expect(rows).toHaveLength(5000);
		expect(rows.filter((row) => row.length !== 15 || row.some((value: unknown) => typeof value !== 'string'))).toEqual([]);
		const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
		expect(rows.map((row) => row[1]).filter((uid: string) => !uuid.test(uid))).toEqual([]);
		expect(new Set(rows.map((row) => row[0])).size).toBe(5000);
		expect(new Set(rows.map((row) => row[1])).size).toBe(5000);
	});

	it('includes values with commas, quotes, line breaks and non-ASCII text', () => {
		const values = [...generateDeviceRows(2000, 11)].flat();
		expect(values.some((value) => value.includes(','))).toBe(true);
		expect(values.some((value) => value.includes('"'))).toBe(true);
		expect(values.some((value) => value.includes('\n'))).toBe(true);
		expect(values.some((value) => [...value].some((char) => char.charCodeAt(0) > 127))).toBe(true);
	});

	it('is lazy: a billion rows cost nothing until read', () => {
		const rows = generateDeviceRows(1_000_000_000, 1);
		const first = rows.next().value;
		expect(first).toEqual([...generateDeviceRows(1, 1)][0]);
	});
});

describe('demo estate', () => {
	let server: any;
	let token: string;

	beforeAll(async () => {
		server = await startNexthinkServer({ demo: true, slowExportMs: 45_000 });
	});

	afterAll(async () => {
		await server.close();
	});

	beforeEach(async () => {
		token = await fetchToken(server);
	});

	it('holds thousands of devices and users, binaries and packages', () => {
		expect(server.inventory.devices.size).toBeGreaterThanOrEqual(2000);
		expect(server.inventory.users.size).toBeGreaterThanOrEqual(2000);
		expect(server.inventory.binaries.size).toBeGreaterThan(10);
		expect(server.inventory.packages.size).toBeGreaterThan(10);
		const upns = [...server.inventory.users.values()].map((user: { upn: string }) => user.upn);
		expect(new Set(upns).size).toBe(upns.length);
	});

	it('#all_devices lists the estate and shows enriched values', async () => {
		const someDevice = [...server.inventory.devices.values()].find((device: { attributes: Record<string, string> }) => device.attributes['device.name']);
		const response = await apiRequest(server, token, 'POST', '/api/v1/enrichment/data/fields', {
			json: {
				domain: 'demo',
				enrichments: [{ identification: [{ name: 'device/device/uid', value: someDevice.uid }], fields: [{ name: 'device/device/#asset_note', value: 'checked by the test' }] }],
			},
		});
		expect(response.status).toBe(200);
		const { exportId } = await runExport(server, token, { queryId: '#all_devices', compression: 'ZSTD' });
		const csv = server.csvFor(exportId);
		expect(csv.startsWith(`${DEVICE_COLUMNS.join(',')}\n`)).toBe(true);
		expect(csv).toContain(`${someDevice.name},${someDevice.uid},`);
		expect(csv).toContain('checked by the test');
	});

	it('#all_devices follows the estate between two exports: a device added, one changed, one removed', async () => {
		const uidsOf = (exportId: string) => [...server.exports.get(exportId).snapshotRows].map((row: string[]) => row[1]);
		const before = await runExport(server, token, { queryId: '#all_devices' });
		const [kept, removed] = [...server.inventory.devices.values()].filter((device: any) => device.attributes['device.name']);
		const added = server.inventory.addDevice({
			name: 'PC-NEW-0001',
			uid: '00000000-0000-4000-8000-00000000a001',
			attributes: { 'device.name': 'PC-NEW-0001', 'device.uid': '00000000-0000-4000-8000-00000000a001', 'device.operating_system.name': 'Windows 10 Pro 22H2' },
		});
		kept.attributes['device.operating_system.name'] = 'Windows 11 Pro 24H2';
		expect(server.inventory.remove('device', removed.uid.toUpperCase())).toBe(removed);
		expect(server.inventory.find('device/device/name', removed.name)).toBeUndefined();
		expect(server.inventory.remove('device', removed.uid)).toBeUndefined();
		const after = await runExport(server, token, { queryId: '#all_devices' });
		expect(uidsOf(after.exportId)).toContain(added.uid);
		expect(uidsOf(after.exportId)).not.toContain(removed.uid);
		expect(uidsOf(before.exportId)).toContain(removed.uid);
		const keptRow = [...server.exports.get(after.exportId).snapshotRows].find((row: string[]) => row[1] === kept.uid);
		expect(keptRow[DEVICE_COLUMNS.indexOf('device.operating_system.name')]).toBe('Windows 11 Pro 24H2');
		// the earlier export keeps the rows it started with
		expect(server.csvFor(before.exportId)).not.toContain('PC-NEW-0001');
	});

	it('#devices_by_os filters on $os with NQL wildcards, case-insensitively', async () => {
		const { exportId } = await runExport(server, token, { queryId: '#devices_by_os', parameters: { os: 'macos*' } });
		const export_ = server.exports.get(exportId);
		const rows = [...export_.snapshotRows];
		expect(rows.length).toBeGreaterThan(0);
		for (const row of rows) expect(row[3]).toMatch(/^macOS /);
		const missing = await apiRequest(server, token, 'POST', '/api/v1/nql/export', { json: { queryId: '#devices_by_os' } });
		expect(missing.status).toBe(400);
	});

	it('#vdi_devices lists only devices with virtualization fields', async () => {
		const body = await (await apiRequest(server, token, 'POST', '/api/v2/nql/execute', { json: { queryId: '#vdi_devices' } })).json();
		expect(body.rows).toBeGreaterThan(0);
		for (const row of body.data) expect(['shared', 'personal', 'pooled']).toContain(row['device.virtualization.type']);
	});

	it('#user_directory and #device_fields exist', async () => {
		for (const queryId of ['#user_directory', '#device_fields']) {
			const { status } = await runExport(server, token, { queryId });
			expect(status.status).toBe('COMPLETED');
		}
	});

	it('#big_device_inventory streams its file without building it first', async () => {
		const { status } = await runExport(server, token, { queryId: '#big_device_inventory' });
		const response = await fetch(status.resultsFileUrl);
		expect(response.status).toBe(200);
		const reader = (response.body as ReadableStream<Uint8Array>).getReader();
		const { value } = await reader.read();
		expect(Buffer.from(value as Uint8Array).toString('utf8').startsWith(`${DEVICE_COLUMNS.join(',')}\n`)).toBe(true);
		await reader.cancel();
	}, DATA_WORK_TIMEOUT_MS);

	it('#slow_export completes after slowExportMs', async () => {
		const { exportId } = await (await apiRequest(server, token, 'POST', '/api/v1/nql/export', { json: { queryId: '#slow_export' } })).json();
		const poll = async () => (await (await apiRequest(server, token, 'GET', `/api/v1/nql/status/${exportId}`)).json()).status;
		expect(await poll()).toBe('SUBMITTED');
		expect(await poll()).toBe('IN_PROGRESS');
		server.advanceClock(45_000);
		expect(await poll()).toBe('COMPLETED');
	});
});

describe('cli.js', () => {
	it('prints the connection details, serves the API and stops on SIGTERM', async () => {
		const child = spawn(process.execPath, [path.join(__dirname, '../cli.js'), '--port', '0', '--client-id', 'cli-client', '--client-secret', 'cli-secret', '--action-complete-after-polls', '0'], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
		try {
			const ready = await new Promise<any>((resolve, reject) => {
				let output = '';
				child.stdout.on('data', (chunk: Buffer) => {
					output += chunk.toString();
					const line = output.split('\n').find((candidate) => candidate.startsWith('NEXTHINK_SERVER_READY '));
					if (line) resolve(JSON.parse(line.slice('NEXTHINK_SERVER_READY '.length)));
				});
				child.once('exit', () => reject(new Error(`cli exited early: ${output}`)));
			});
			expect(ready).toEqual({
				baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
				tokenUrl: `${ready.baseUrl}/oauth2/default/v1/token`,
				clientId: 'cli-client',
				clientSecret: 'cli-secret',
			});
			const cliToken = await fetchToken(ready);
			expect((await apiRequest(ready, cliToken, 'GET', '/api/v1/nql/status/x')).status).toBe(404);
			// The CLI's client has every permission, the action APIs included.
			expect((await apiRequest(ready, cliToken, 'GET', '/api/v1/act/remote-action')).status).toBe(200);
			expect((await apiRequest(ready, cliToken, 'GET', '/api/v1/workflows?dependency=DEVICE&triggerMethod=API')).status).toBe(200);
			const campaign = await apiRequest(ready, cliToken, 'POST', '/api/v1/euf/campaign/trigger', { json: { campaignNqlId: '#it_satisfaction', userSid: ['S-1-5-21-1-2-3'], expiresInMinutes: 60 } });
			expect(campaign.status).toBe(200);
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
	});
});
