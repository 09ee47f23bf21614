/**
 * Hostile results files: a small file that decompresses to a huge field, a huge
 * row or far more text than it should fails the item with a message naming the limit, its value and
 * the option that raises it, on every way a file reaches the parser: Export, Download Results by
 * export ID and by URL, and Execute Query's CSV answer. The local server serves the crafted files
 * through a fault with a byte body (test/server/README.md, Faults). Small limits keep the files
 * small, except in the one test that uses the defaults with a real ~2 MB bomb.
 */
import { gunzipSync } from 'node:zlib';

import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { gzipBomb, zstdBomb } from '../../helpers/bombs';
import { N8N_CORE_VERSION, nexthinkCredentials, runNode } from '../../helpers/harness';
import { FAST_WAIT, localServerHooks } from '../../helpers/localServer';
import { DATA_WORK_TIMEOUT_MS } from '../../helpers/timeouts';

const { startNexthinkServer } = require('../../server');

const MB = 1024 * 1024;

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
	server.addQuery({ id: '#devices', header: ['device.name', 'device.note'], rows: [['PC-1', 'fine']] });
});
localServerHooks(() => server);

function run(parameters: Record<string, unknown>) {
	return runNode({
		nodeType: new NexthinkExport(),
		parameters: { queryId: 'devices', ...parameters } as never,
		credentials: { nexthinkApi: nexthinkCredentials(server) },
	});
}

/** Serves `body` as the next results file, whatever its name and signature. */
function serveFile(body: Buffer): void {
	server.injectFault({ method: 'GET', path: /^\/files\//, status: 200, headers: { 'content-type': 'application/gzip' }, body });
}

describe(`Results file limits on n8n-core ${N8N_CORE_VERSION}`, () => {
	it('Export: fails on one field past Max Field Size, naming the limit and how to raise it', async () => {
		const bomb = gzipBomb(Buffer.alloc(MB, 'x'), 4); // 4 MB of one field in about 4 KB
		expect(bomb.length).toBeLessThan(16 * 1024);
		expect(gunzipSync(bomb).length).toBe(4 * MB + 29); // a valid gzip file
		serveFile(bomb);
		const { items, error } = await run({ compression: 'GZIP', advancedOptions: { ...FAST_WAIT, maxFieldMB: 1 } });
		expect(items).toHaveLength(0);
		expect(error.message).toBe(
			'The results file was not read: A field starting on line 2 of the results is longer than 1 MB (the field size limit). If the file is genuine, raise "Max Field Size (MB)" in the node\'s options (0 = no limit).',
		);
		expect(error.description).toMatch(/protect n8n from files that would exhaust its memory/);
	}, DATA_WORK_TIMEOUT_MS); // builds the file with the zstd or gzip tools and reads megabytes

	it('Download Results by URL: fails on a zstd row of many fields past Max Row Size', async () => {
		const bomb = zstdBomb(Buffer.from(`${'y'.repeat(999)},`.repeat(1024)), 4); // a 4 MB row of 4,096 fields
		serveFile(bomb);
		const url = `${server.baseUrl}/files/anything.csv.zst?expires=1&signature=00`;
		const { items, error } = await run({ operation: 'downloadResults', resultsSource: 'url', resultsFileUrl: url, advancedOptions: { maxRowMB: 1 } });
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/^The results file was not read: The row starting on line 2 of the results is longer than 1 MB \(the row size limit\)\. If the file is genuine, raise "Max Row Size \(MB\)"/);
	}, DATA_WORK_TIMEOUT_MS); // builds the file with the zstd or gzip tools and reads megabytes

	it('Download Results by export ID: fails past Max Decompressed Size and Max Compression Ratio', async () => {
		const exported = await run({ compression: 'GZIP', advancedOptions: FAST_WAIT });
		expect(exported.error).toBeUndefined();
		const exportId = [...server.exports.keys()].pop();
		// many ordinary rows: only the size and ratio limits can stop them
		const rows = Buffer.from('PC-2,same note\n'.repeat(70_000)); // 1 MB
		serveFile(gzipBomb(rows, 20, 'device.name,device.note\n'));
		const bySize = await run({ operation: 'downloadResults', exportId, advancedOptions: { maxDecompressedMB: 4 } });
		expect(bySize.error.message).toMatch(/The results file decompresses to more than 4 MB \(the decompressed size limit\)\. If the file is genuine, raise "Max Decompressed Size \(MB\)"/);

		serveFile(gzipBomb(rows, 20, 'device.name,device.note\n'));
		const byRatio = await run({ operation: 'downloadResults', exportId, advancedOptions: { maxCompressionRatio: 10 } });
		expect(byRatio.error.message).toMatch(/The results file decompresses to more than 10 times its downloaded size \(.* so far; the compression ratio limit\)\. If the file is genuine, raise "Max Compression Ratio"/);

		// the same file (identical rows: it compresses about 400 times) is read in full once the
		// ratio limit is raised, as the message says
		serveFile(gzipBomb(rows, 20, 'device.name,device.note\n'));
		const within = await run({ operation: 'downloadResults', exportId, advancedOptions: { maxCompressionRatio: 1000 } });
		expect(within.error).toBeUndefined();
		expect(within.items).toHaveLength(70_000 * 20);
	}, 60_000); // reads 1,400,000 rows once in full

	it('Execute Query (CSV): fails on a field past Max Field Size', async () => {
		server.injectFault({
			method: 'POST',
			path: '/api/v2/nql/execute',
			status: 200,
			headers: { 'content-type': 'text/csv' },
			// the limit is checked between 64 KiB slices, so the field is well past it
			body: `device.name,device.note\nPC-1,${'z'.repeat(600 * 1024)}\n`,
		});
		const { items, error } = await run({ operation: 'executeQuery', options: { responseFormat: 'csv' }, advancedOptions: { maxFieldMB: 0.25 } });
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(/^The results file was not read: A field starting on line 2 of the results is longer than 256 KB \(the field size limit\)\. If the file is genuine, raise "Max Field Size \(MB\)"/);
	}, DATA_WORK_TIMEOUT_MS); // the server sends and the node parses 600 KB of CSV

	it('rejects a negative limit before any request, naming the option', async () => {
		const { error } = await run({ compression: 'GZIP', advancedOptions: { ...FAST_WAIT, maxRowMB: -1 } });
		expect(error.message).toBe('Item 0 cannot be sent: Max Row Size (MB) must be a number, 0 (no limit) or more.');
		expect(server.requests).toHaveLength(0);
	});

	it('with the default limits, a real ~2 MB gzip or zstd bomb fails at once while memory stays low', async () => {
		// gzip: 2 GiB of one field in about 2 MB; zstd: 2 MB of frames that stand for far more. Each
		// must fail after decoding a few tens of MB, not the gigabytes behind it.
		const gzip = gzipBomb(Buffer.alloc(16 * MB, 'x'), 128);
		const zstd = zstdBomb(Buffer.from(`${'x'.repeat(99)},`.repeat(160 * 1024)), 2 * MB / 1600);
		for (const [bomb, compression] of [
			[gzip, 'GZIP'],
			[zstd, 'ZSTD'],
		] as const) {
			expect(bomb.length).toBeGreaterThan(1.5 * MB);
			serveFile(bomb);
			const rssBefore = process.memoryUsage().rss;
			let peak = rssBefore;
			const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
			const { items, error } = await run({ compression, advancedOptions: FAST_WAIT });
			clearInterval(sampler);
			peak = Math.max(peak, process.memoryUsage().rss);
			expect(items).toHaveLength(0);
			// a row of many short fields may meet the fixed column limit first
			expect(error.message).toMatch(/^The results file was not read: .*( \(the (field size|row size|compression ratio|decompressed size) limit\)\. If the file is genuine, raise "| has more than 10,000 fields\.)/);
			expect(peak - rssBefore).toBeLessThan(300 * MB);
		}
	}, 60_000); // builds and reads two ~2 MB bombs (a few seconds on a loaded machine)
});
