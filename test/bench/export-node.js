// @ts-check
/**
 * Benchmark of the Export node end to end: start, wait, download over HTTP, decompress, parse and
 * build the items of a 1,000,000-row export (15 columns like a device inventory), through the
 * COMPILED node in dist/ run by n8n-core's real engine (test/helpers/harness.ts, transpiled on load).
 *
 * Usage: npm run build && node test/bench/export-node.js [--rows N] [--runs N]
 *
 * The local API server runs in this process and serves each file from memory after building it once;
 * each measured run is a fresh Node process (its peak RSS is its own). The floor is the same file,
 * downloaded once to disk, decompressed by the command-line tool into `wc -l`. Medians of `--runs` runs.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { medianOf, numberOption, registerTypeScript, runBenchmarkScript, runWorker } = require('./benchUtils');

const ROOT = path.join(__dirname, '../..');
const NODE_FILE = path.join(ROOT, 'dist/nodes/Nexthink/export/NexthinkExport.node.js');
const COMPRESSIONS = /** @type {const} */ (['NONE', 'GZIP', 'ZSTD']);
const FLOOR_TOOL = { NONE: 'cat', GZIP: 'gzip -dc', ZSTD: 'zstd -dc' };

runBenchmarkScript(worker, main);

/** @param {{ compression: string, rows: number, credentials: object }} args */
async function worker(args) {
	registerTypeScript();
	const { runNode, disposeHarness } = require(path.join(ROOT, 'test/helpers/harness.ts'));
	const { NexthinkExport } = require(NODE_FILE);
	const started = process.hrtime.bigint();
	const result = await runNode({
		nodeType: new NexthinkExport(),
		parameters: { queryId: 'bench_inventory', compression: args.compression, advancedOptions: { firstPollSeconds: 0.05, maxPollIntervalSeconds: 0.2 } },
		credentials: { nexthinkApi: args.credentials },
	});
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	disposeHarness();
	if (result.error) throw new Error(`export failed: ${result.error.message}`);
	if (result.items.length !== args.rows) throw new Error(`${result.items.length} items for ${args.rows} rows`);
	return { seconds, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

async function main() {
	const rows = numberOption('--rows', 1_000_000);
	const runs = numberOption('--runs', 3);
	if (!fs.existsSync(NODE_FILE)) {
		console.error('dist/ is missing: run `npm run build` first');
		process.exit(1);
	}
	const { startNexthinkServer, generateDeviceRows, DEVICE_COLUMNS } = require(path.join(ROOT, 'test/server'));
	const client = require(path.join(ROOT, 'test/server/client'));
	const server = await startNexthinkServer({ maxRecordedRequests: 10 });
	// Files are built once (by the floor's download below) and then served from memory, so the
	// server's CSV generation and compression do not compete with the measured node for the cores.
	server.addQuery({ id: '#bench_inventory', header: DEVICE_COLUMNS, rows: () => generateDeviceRows(rows, 1), completeAfterPolls: 1, cacheFiles: true });
	const credentials = client.credentialData(server);
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexthink-export-bench-'));
	try {
		console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}); ${rows.toLocaleString('en-US')} rows; median of ${runs} runs\n`);
		/** @type {Record<string, Record<string, string>>} */
		const table = {};
		for (const compression of COMPRESSIONS) {
			const file = await downloadOnce(server, client, compression, dir);
			const floor = medianOf(
				Array.from({ length: runs }, () => timed(() => execFileSync('sh', ['-c', `${FLOOR_TOOL[compression]} '${file}' | wc -l`]))),
			);
			const samples = [];
			for (let run = 0; run < runs; run++) samples.push(await runWorker(__filename, { compression, rows, credentials }, compression));
			const seconds = medianOf(samples.map((s) => s.seconds));
			table[compression] = {
				'file MB': (fs.statSync(file).size / 1e6).toFixed(1),
				'node s': seconds.toFixed(2),
				'rows/s': Math.round(rows / seconds).toLocaleString('en-US'),
				'peak RSS MB': medianOf(samples.map((s) => s.maxRssMb)).toFixed(0),
				floor: `${FLOOR_TOOL[compression]} | wc -l`,
				'floor s': floor.toFixed(2),
				'× floor': (seconds / floor).toFixed(1),
			};
		}
		console.table(table);
	} finally {
		await server.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/** Downloads one export's file to disk with a bare client, for the floor. */
async function downloadOnce(server, client, compression, dir) {
	const token = await client.fetchToken(server);
	const { status } = await client.runExport(server, token, { queryId: '#bench_inventory', compression });
	const resultsFileUrl = status.resultsFileUrl;
	const response = await fetch(resultsFileUrl);
	const file = path.join(dir, `export.${compression.toLowerCase()}`);
	fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
	return file;
}

/** @param {() => void} action */
function timed(action) {
	const started = process.hrtime.bigint();
	action();
	return Number(process.hrtime.bigint() - started) / 1e9;
}
