/**
 * The Data Exporter channel over real HTTP (n8n-core 2.x and 1.x contexts): batches of 100,000 rows
 * in each of the three documented shapes, streamed by the test server's Nexthink side, become one
 * item per row with the batch's identity; the content types NDJSON may come with; the batch
 * object's other properties; empty and repeated batches; shapes it does not take.
 */
import { serveEventTrigger, type ServedTrigger } from '../../helpers/eventTriggerHarness';
import { disposeHarness } from '../../helpers/harness';
import { DATA_WORK_TIMEOUT_MS, FEW_N8N_RUNS_TIMEOUT_MS } from '../../helpers/timeouts';

const { exporterRows, send, sendExporterBatch } = require('../../server/outbound');

const TOKEN = 'nx-exporter-token-a81c0d4e6f2b9375';
const credentials = { authType: 'bearer', token: TOKEN };
const credential = { type: 'bearer', token: TOKEN };
const ROWS = 100_000;

jest.setTimeout(FEW_N8N_RUNS_TIMEOUT_MS);
afterAll(() => disposeHarness());

let trigger: ServedTrigger;
afterEach(async () => await trigger?.close());

describe('Data Exporter channel', () => {
	it.each([
		['ndjson', 'application/x-ndjson'],
		['array', 'application/json'],
		['records', 'application/json'],
	])(
		'splits a %s batch of 100,000 rows into one item per row, equal to what was sent',
		async (shape, contentType) => {
			// 100,000 device rows are about 59 MB: over n8n's default 16 MiB, so raised the way docs/event-trigger.md says
			trigger = await serveEventTrigger({ parameters: { mode: 'dataExporter', options: { maxBodySizeMb: 64 } }, credentials, payloadSizeMaxMb: 64 });
			const properties = shape === 'records' ? { exporter: 'daily devices', runAt: '2026-11-27T02:00:00Z' } : undefined;
			const answer = await sendExporterBatch({ url: trigger.url, credential, shape, rows: exporterRows(ROWS, 7), properties, contentType, chunked: true });
			expect([answer.status, answer.json]).toEqual([200, { status: 'ok', items: ROWS, duplicates: 0 }]);
			expect(trigger.executions).toHaveLength(1);
			const items = trigger.executions[0];
			expect(items).toHaveLength(ROWS);
			let index = 0;
			for (const expected of exporterRows(ROWS, 7)) {
				const { nexthinkBatch, ...row } = items[index].json as { nexthinkBatch: object };
				if (index % 9973 === 0 || index === ROWS - 1) {
					expect(row).toEqual(expected);
					expect(nexthinkBatch).toMatchObject({ rowCount: ROWS, shape, id: (items[0].json.nexthinkBatch as { id: string }).id });
				}
				index++;
			}
			if (properties) expect(items[0].json.nexthinkBatch).toMatchObject({ recordsProperty: 'records', properties });
		},
		DATA_WORK_TIMEOUT_MS,
	);

	it.each([['application/json'], ['text/plain'], [null], ['application/x-ndjson; charset=utf-8']])('reads NDJSON sent as %s, CRLF or LF', async (contentType) => {
		trigger = await serveEventTrigger({ parameters: { mode: 'dataExporter' }, credentials });
		for (const lineEnding of ['\n', '\r\n']) {
			const answer = await sendExporterBatch({ url: trigger.url, credential, shape: 'ndjson', rows: exporterRows(3), contentType, lineEnding });
			expect(answer.status).toBe(200);
		}
		expect(trigger.executions.map((items) => items.map((item) => item.json['device.name']))).toEqual([
			['VD-ZRH-0000001', expect.any(String), expect.any(String)],
			['VD-ZRH-0000001', expect.any(String), expect.any(String)],
		]);
	});

	it('takes the records array under any name, or the one the user names when there are several', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'dataExporter' }, credentials });
		const any = await sendExporterBatch({ url: trigger.url, credential, shape: 'records', recordsProperty: 'devices', rows: exporterRows(2) });
		expect(any.status).toBe(200);
		expect(trigger.executions[0][0].json.nexthinkBatch).toMatchObject({ recordsProperty: 'devices' });
		const ambiguous = await send({ url: trigger.url, credential, body: JSON.stringify({ devices: [{ a: 1 }], users: [{ b: 2 }] }) });
		expect(ambiguous.status).toBe(400);
		expect(ambiguous.json).toMatchObject({ error: 'unexpected_shape', message: expect.stringMatching(/several arrays of records \(devices, users\): set Records Property/) });
		await trigger.close();
		trigger = await serveEventTrigger({ parameters: { mode: 'dataExporter', options: { recordsProperty: 'users' } }, credentials });
		const named = await send({ url: trigger.url, credential, body: JSON.stringify({ devices: [{ a: 1 }], users: [{ b: 2 }, { b: 3 }] }) });
		expect(named.json).toMatchObject({ items: 2 });
		expect(trigger.executions[0].map((item) => item.json.b)).toEqual([2, 3]);
	});

	it('answers an empty batch 200 and starts nothing', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'dataExporter' }, credentials });
		for (const body of ['[]', '{"records":[]}', '']) {
			const answer = await send({ url: trigger.url, credential, body });
			expect([answer.status, answer.json]).toEqual([200, { status: 'ok', items: 0, duplicates: 0 }]);
		}
		expect(trigger.executions).toEqual([]);
	});

	it('ignores a batch sent again byte for byte, and one whose chosen properties repeat', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'dataExporter', dedupe: true }, credentials });
		const batch = { url: trigger.url, credential, shape: 'array', rows: [...exporterRows(5)] };
		expect((await sendExporterBatch(batch)).json).toEqual({ status: 'ok', items: 5, duplicates: 0 });
		expect((await sendExporterBatch(batch)).json).toEqual({ status: 'ok', items: 0, duplicates: 5 });
		expect(trigger.executions).toHaveLength(1);
		await trigger.close();
		trigger = await serveEventTrigger({ parameters: { mode: 'dataExporter', dedupe: true, dedupeFields: 'runAt' }, credentials });
		const first = await sendExporterBatch({ url: trigger.url, credential, shape: 'records', properties: { runAt: 'r1', sentAt: 'a' }, rows: exporterRows(2) });
		const again = await sendExporterBatch({ url: trigger.url, credential, shape: 'records', properties: { runAt: 'r1', sentAt: 'b' }, rows: exporterRows(2) });
		const next = await sendExporterBatch({ url: trigger.url, credential, shape: 'records', properties: { runAt: 'r2', sentAt: 'c' }, rows: exporterRows(2) });
		expect([first.json, again.json, next.json].map((json: { items: number }) => json.items)).toEqual([2, 0, 2]);
	});

	it('names a row that is not an object, and answers 401 to a wrong token before reading anything', async () => {
		trigger = await serveEventTrigger({ parameters: { mode: 'dataExporter' }, credentials });
		const bad = await send({ url: trigger.url, credential, body: '[{"a":1},2]' });
		expect(bad.json).toMatchObject({ status: 'error', error: 'unexpected_shape', message: 'Row 2 of the batch is a number, not an object' });
		const wrong = await sendExporterBatch({ url: trigger.url, credential: { type: 'bearer', token: 'nope' }, shape: 'array', rows: exporterRows(3) });
		expect(wrong.status).toBe(401);
		expect(trigger.executions).toEqual([]);
	});
});
