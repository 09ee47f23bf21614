// @ts-check
/**
 * Where the memory of Output: Rows goes, outside n8n: the same 15-column device inventory the n8n
 * side-by-side benchmark serves (`generateDeviceRows`), read by the COMPILED readCsvRows.js and turned
 * into items by resultItems.js exactly as the Export node does, each variant in a fresh Node process.
 * After the work it forces a full GC (`--expose-gc`) and reports the heap still used (what the items
 * keep), the process's peak RSS, the wall time and the CPU time (all threads: comparable on a busy machine).
 *
 * Usage: npm run build && node test/bench/row-memory.js [--rows N] [--runs N] [--baseline <dir or commit>]
 *
 * Variants (each in this build and, with `--baseline`, in the other build too):
 * - `rows`: readCsvRows alone (the row objects and their values);
 * - `items`: rows, then resultItems (what the node returns to n8n).
 * Medians of `--runs` rounds; each round runs every variant once, in turn.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { medianOf, numberOption, prepareBaseline, stringOption, loadAverage, markdownTable } = require('./benchUtils');

const ROOT = path.join(__dirname, '../..');
const CHUNK_SIZE = 64 * 1024;

if (process.argv[2] === '--worker') {
	worker(JSON.parse(process.argv[3])).catch((error) => {
		console.error(error);
		process.exit(1);
	});
} else {
	main();
}

/** @param {{ file: string, dir: string, variant: string }} args */
async function worker({ file, dir, variant }) {
	const gc = /** @type {() => void} */ (global.gc);
	const { readCsvRows } = require(path.join(dir, 'dist/nodes/Nexthink/results/readCsvRows.js'));
	const { resultItems } = require(path.join(dir, 'dist/nodes/Nexthink/export/resultItems.js'));
	gc();
	const heapAtStart = process.memoryUsage().heapUsed;
	const cpuAtStart = process.cpuUsage();
	const started = process.hrtime.bigint();
	const result = await readCsvRows(fs.createReadStream(file, { highWaterMark: CHUNK_SIZE }), { compression: 'NONE', convertTypes: false });
	/** @type {unknown[]} */
	let kept = result.rows;
	if (variant === 'items') {
		const metadata = { exportId: 'e', queryId: null, rowCount: result.rows.length, truncated: false, moreRowsAvailable: false };
		kept = resultItems({ rows: result.rows, metadata, metadataKey: 'nexthinkExport', mode: 'none', pairedItem: { item: 0 } });
		result.rows = [];
	}
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const cpu = process.cpuUsage(cpuAtStart);
	const cpuSeconds = (cpu.user + cpu.system) / 1e6;
	gc();
	const heapMb = (process.memoryUsage().heapUsed - heapAtStart) / 1e6;
	process.stdout.write(JSON.stringify({ seconds, cpuSeconds, heapMb, maxRssMb: process.resourceUsage().maxRSS / 1024, count: kept.length }));
}

function writeCsv(file, rows) {
	const { DEVICE_COLUMNS, generateDeviceRows } = require('../server/device-rows');
	const { csvChunks } = require('../server/csv');
	const fd = fs.openSync(file, 'w');
	for (const chunk of csvChunks(DEVICE_COLUMNS, generateDeviceRows(rows, 1), '\r\n')) fs.writeSync(fd, chunk);
	fs.closeSync(fd);
}

function main() {
	const rows = numberOption('--rows', 1_000_000);
	const runs = numberOption('--runs', 3);
	const baseline = prepareBaseline(stringOption('--baseline'));
	const file = path.join(os.tmpdir(), `nexthink-row-memory-${rows}.csv`);
	if (!fs.existsSync(file)) writeCsv(file, rows);
	const builds = [{ label: 'this build', dir: ROOT }, ...(baseline ? [{ label: `before (${baseline.label})`, dir: baseline.dir }] : [])];
	const variants = ['rows', 'items'];
	/** @type {Record<string, Array<{ seconds: number, cpuSeconds: number, heapMb: number, maxRssMb: number }>>} */
	const samples = {};
	console.log(`row memory, ${rows.toLocaleString('en-US')} rows, ${runs} rounds, load average ${loadAverage()}`);
	for (let round = 0; round < runs; round++) {
		for (const variant of variants) {
			for (const build of builds) {
				const child = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', __filename, '--worker', JSON.stringify({ file, dir: build.dir, variant })], { encoding: 'utf8' });
				if (child.status !== 0) throw new Error(child.stderr);
				const result = JSON.parse(child.stdout);
				if (result.count !== rows) throw new Error(`${variant}: ${result.count} rows`);
				(samples[`${build.label}|${variant}`] ??= []).push(result);
				console.log(`  ${build.label}, ${variant}: heap ${result.heapMb.toFixed(0)} MB, peak RSS ${result.maxRssMb.toFixed(0)} MB, ${result.seconds.toFixed(2)} s (CPU ${result.cpuSeconds.toFixed(2)} s)`);
			}
		}
	}
	const table = Object.entries(samples).map(([key, list]) => {
		const [build, variant] = key.split('|');
		const median = (/** @type {(s: any) => number} */ pick) => medianOf(list.map(pick));
		return [
			build,
			variant,
			`${median((s) => s.heapMb).toFixed(0)}`,
			`${((median((s) => s.heapMb) * 1e6) / rows).toFixed(0)}`,
			`${median((s) => s.maxRssMb).toFixed(0)}`,
			`${median((s) => s.seconds).toFixed(2)} s`,
			`${median((s) => s.cpuSeconds).toFixed(2)} s`,
		];
	});
	console.log(`\n${markdownTable(['build', 'kept', 'heap after GC, MB', 'bytes per row', 'peak RSS MB', 'time (median)', 'CPU (median)'], table, 'llrrrrr')}`);
	console.log(`load average after: ${loadAverage()}`);
}
