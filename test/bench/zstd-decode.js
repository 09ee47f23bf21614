// Decoding speed of the project's Zstandard decoder on a ~100 MB CSV like the API's exports, against the
// native `zstd -dc` and against gzip decoding of the same CSV through the global DecompressionStream
// (what the Export node uses for GZIP results).
//
// Usage: npx tsc -p tsconfig.json && node test/bench/zstd-decode.js [sizeMB] [runs] [--baseline <dir or commit>[,...]]
//        [--csv <file>] [--warm]
// With --csv, that file is compressed and decoded instead of the generated CSV (for example the 1,000,000-row
// device export that `results-decode.js --rows 1000000 --outputs bytes --keep` leaves behind).
// With --baseline, those builds' decoders run in the same rounds (see benchUtils.prepareBaseline).
// With --warm, only the project decoders run (this build and the baselines, alternating), fed as the Export
// node feeds them (`pushInPortions`, 64 KiB chunks, 1 MiB portions), after one unmeasured round, so every
// figure is of code V8 has already optimised; median CPU time of `runs` rounds (default 9).
// The CSV is generated from a seeded PRNG in a temp dir and compressed with the `zstd` CLI (level 3, as
// the API would) and with zlib (gzip level 6). The cases run in turn, `runs` rounds; every figure is a
// median; MB/s are of decoded bytes (10^6 bytes per MB). Input is fed in 64 KiB chunks, as it would
// arrive from the network.
'use strict';

const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');

const decoderPath = path.join(__dirname, '../../dist/nodes/Nexthink/results/zstd/index.js');
if (!fs.existsSync(decoderPath)) {
	console.error(`Missing ${decoderPath}: build first with "npx tsc -p tsconfig.json".`);
	process.exit(1);
}
const { ZstdDecoder } = require(decoderPath);
const { loadAverage, prepareBaseline, stringOption } = require('./benchUtils');
const baselines = (stringOption('--baseline') ?? '')
	.split(',')
	.filter((spec) => spec !== '')
	.map((spec) => {
		const { dir, label } = prepareBaseline(spec);
		return { label, Decoder: require(path.join(dir, 'dist/nodes/Nexthink/results/zstd/index.js')).ZstdDecoder };
	});
const warm = process.argv.includes('--warm');

const positional = process.argv
	.slice(2)
	.filter((arg, index, args) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
const sizeMB = Number(positional[0] ?? 100);
const runs = Number(positional[1] ?? (warm ? 9 : 5));
const CHUNK = 64 * 1024;
/** The Export node's portion size (results/decompress.ts, ZSTD_PORTION_BYTES). */
const PORTION = 1024 * 1024;

function mulberry32(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A CSV shaped like an NQL export of devices: ids, names, enums, dates, numbers, quoted fields. */
function generateCsv(targetBytes) {
	const random = mulberry32(20240611);
	const pick = (list) => list[Math.floor(random() * list.length)];
	const twoDigits = (n) => String(n).padStart(2, '0');
	const hex = (n) => {
		let s = '';
		for (let i = 0; i < n; i++) s += Math.floor(random() * 16).toString(16);
		return s;
	};
	const systems = ['Windows 11 Enterprise 23H2', 'Windows 10 Pro 22H2', 'macOS Sonoma 14.5', 'Ubuntu 22.04 LTS'];
	const vendors = [
		'"Dell Inc., Latitude 7440"',
		'"Lenovo, ThinkPad T14 Gen 4"',
		'"HP Inc., EliteBook 840 G10"',
		'Apple MacBook Pro',
	];
	const sites = ['Lausanne', 'Boston', 'Barcelona', 'Lisbon', 'Paris', 'London', '"Zurich, HQ"'];
	const header =
		'device.name,device.uid,device.entity,device.operating_system.name,device.hardware.model,' +
		'device.last_seen,device.hardware.memory,device.crashes,device.boot_duration,device.user.name\n';
	const parts = [header];
	let size = header.length;
	for (let row = 0; size < targetBytes; row++) {
		const line =
			`LT-${String(100000 + Math.floor(random() * 900000))},` +
			`${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)},` +
			`${pick(sites)},${pick(systems)},${pick(vendors)},` +
			`2024-06-${twoDigits(1 + Math.floor(random() * 28))}T${twoDigits(Math.floor(random() * 24))}:` +
			`${twoDigits(Math.floor(random() * 60))}:00.000Z,` +
			`${pick([8, 16, 16, 32, 64]) * 1073741824},${Math.floor(random() * random() * 12)},` +
			`${(random() * 120).toFixed(1)},"user${Math.floor(random() * 20000)}@example.com"\n`;
		parts.push(line);
		size += line.length;
	}
	return Buffer.from(parts.join(''));
}

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** Median wall time and median CPU time of this process (all its threads), in ms. */
function summarize(samples) {
	return { wall: median(samples.map((sample) => sample.wall)), cpu: median(samples.map((sample) => sample.cpu)) };
}

function measure(start, cpuStart) {
	const cpu = process.cpuUsage(cpuStart);
	return { wall: Number(process.hrtime.bigint() - start) / 1e6, cpu: (cpu.user + cpu.system) / 1000 };
}

/**
 * Runs every case once per round, round after round, so that load from other processes spreads over all
 * cases alike; returns each case's median wall and CPU time. Each round starts one case further on, so
 * every case runs first equally often: the same build measured about 20 % slower first in every round than
 * last (the garbage the other builds leave is collected on the first case's time; docs/benchmarks.md).
 */
async function timeRoundRobin(cases) {
	const samples = cases.map(() => []);
	for (let round = 0; round < runs; round++) {
		for (let step = 0; step < cases.length; step++) {
			const index = (round + step) % cases.length;
			const { run } = cases[index];
			const start = process.hrtime.bigint();
			const cpuStart = process.cpuUsage();
			await run();
			samples[index].push(measure(start, cpuStart));
		}
	}
	return cases.map(({ name }, index) => ({ name, ...summarize(samples[index]) }));
}

function decodeOurs(compressed, expectedLength, Decoder = ZstdDecoder) {
	const decoder = new Decoder();
	let length = 0;
	for (let offset = 0; offset < compressed.length; offset += CHUNK) {
		for (const chunk of decoder.push(compressed.subarray(offset, offset + CHUNK))) length += chunk.length;
	}
	for (const chunk of decoder.end()) length += chunk.length;
	if (length !== expectedLength) throw new Error(`decoded ${length} bytes, expected ${expectedLength}`);
}

/** Decodes as the Export node does: `pushInPortions`, taking every portion, then `end`. */
function decodeInPortions(compressed, expectedLength, Decoder) {
	const decoder = new Decoder();
	let length = 0;
	for (let offset = 0; offset < compressed.length; offset += CHUNK) {
		for (const portion of decoder.pushInPortions(compressed.subarray(offset, offset + CHUNK), PORTION)) {
			for (const chunk of portion) length += chunk.length;
		}
	}
	for (const chunk of decoder.end()) length += chunk.length;
	if (length !== expectedLength) throw new Error(`decoded ${length} bytes, expected ${expectedLength}`);
}

/** The --warm table: every build, with and without checksum, one unmeasured round first. */
async function warmTable(zst, zstNoCheck, csvLength, mb) {
	const builds = [{ label: 'this', Decoder: ZstdDecoder }, ...baselines];
	const cases = builds.flatMap(({ label, Decoder }) => [
		{ name: `${label} with checksum`, run: () => decodeInPortions(zst, csvLength, Decoder) },
		{ name: `${label} without`, run: () => decodeInPortions(zstNoCheck, csvLength, Decoder) },
	]);
	for (const { run } of cases) run();
	const rows = await timeRoundRobin(cases);
	const cell = (row) => `${row.cpu.toFixed(0)} ms (${(mb / (row.cpu / 1000)).toFixed(0)} MB/s)`;
	console.log('| build | with checksum | without |\n|---|---:|---:|');
	for (const [index, { label }] of builds.entries()) {
		console.log(`| ${label} | ${cell(rows[2 * index])} | ${cell(rows[2 * index + 1])} |`);
	}
	for (const [index, { label }] of builds.entries()) {
		if (index === 0) continue;
		const ratio = (row) => (rows[2 * index + row].cpu / rows[row].cpu).toFixed(2);
		console.log(`speed-up over ${label} by CPU time: ${ratio(0)}× with checksum, ${ratio(1)}× without`);
	}
	console.log(`load average after: ${loadAverage()}`);
}

async function decodeGzip(compressed, expectedLength) {
	const stream = new DecompressionStream('gzip');
	const writer = stream.writable.getWriter();
	const writing = (async () => {
		for (let offset = 0; offset < compressed.length; offset += CHUNK) {
			await writer.write(compressed.subarray(offset, offset + CHUNK));
		}
		await writer.close();
	})();
	const reader = stream.readable.getReader();
	let length = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		length += value.length;
	}
	await writing;
	if (length !== expectedLength) throw new Error(`gzip decoded ${length} bytes, expected ${expectedLength}`);
}

async function main() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zstd-bench-'));
	try {
		const csvOption = stringOption('--csv');
		const csv = csvOption ? fs.readFileSync(csvOption) : generateCsv(sizeMB * 1e6);
		const csvPath = path.join(dir, 'export.csv');
		fs.writeFileSync(csvPath, csv);
		execFileSync('zstd', ['-q', '-3', '-f', csvPath, '-o', `${csvPath}.zst`]);
		execFileSync('zstd', ['-q', '-3', '--no-check', '-f', csvPath, '-o', `${csvPath}.nocheck.zst`]);
		const zst = fs.readFileSync(`${csvPath}.zst`);
		const zstNoCheck = fs.readFileSync(`${csvPath}.nocheck.zst`);
		const gz = zlib.gzipSync(csv, { level: 6 });
		const mb = csv.length / 1e6;
		console.log(
			`CSV ${mb.toFixed(1)} MB; zstd -3 ${(zst.length / 1e6).toFixed(1)} MB, ` +
				`gzip -6 ${(gz.length / 1e6).toFixed(1)} MB; ` +
				`median of ${runs} rounds, node ${process.version}, ${os.cpus()[0].model}; load average ${loadAverage()}`,
		);

		if (warm) {
			await warmTable(zst, zstNoCheck, csv.length, mb);
			return;
		}
		const baselineCases = baselines.flatMap(({ label, Decoder }) => [
			{ name: `BEFORE (${label}), zstd -3 (with checksum)`, run: () => decodeOurs(zst, csv.length, Decoder) },
			{ name: `BEFORE (${label}), zstd -3 --no-check`, run: () => decodeOurs(zstNoCheck, csv.length, Decoder) },
		]);
		const rows = await timeRoundRobin([
			{ name: 'project decoder, zstd -3 (with checksum)', run: () => decodeOurs(zst, csv.length) },
			{ name: 'project decoder, zstd -3 --no-check', run: () => decodeOurs(zstNoCheck, csv.length) },
			{ name: 'DecompressionStream gzip -6', run: () => decodeGzip(gz, csv.length) },
			...baselineCases,
			{
				name: 'zstd -dc > /dev/null (native CLI)',
				run: () => {
					const result = spawnSync('zstd', ['-dc', `${csvPath}.zst`], { stdio: ['ignore', 'ignore', 'inherit'] });
					if (result.status !== 0) throw new Error('zstd -dc failed');
				},
			},
		]);

		// CPU time counts this process only, so it is not shown for the CLI (a child process). It is less
		// disturbed than wall time when other work shares the machine.
		const width = Math.max(...rows.map((row) => row.name.length));
		console.log(`${'decoder'.padEnd(width)} | wall ms |  MB/s | CPU ms | MB/s of CPU`);
		console.log(`${'-'.repeat(width)}-|---------|-------|--------|------------`);
		const speed = (ms) => (mb / (ms / 1000)).toFixed(0);
		for (const row of rows) {
			const inProcess = !row.name.startsWith('zstd -dc');
			const cpu = inProcess
				? `${row.cpu.toFixed(0).padStart(6)} | ${speed(row.cpu).padStart(11)}`
				: '     - |           -';
			const wall = `${row.wall.toFixed(0).padStart(7)} | ${speed(row.wall).padStart(5)}`;
			console.log(`${row.name.padEnd(width)} | ${wall} | ${cpu}`);
		}
		// Speed ratio: gzip's time over ours.
		const ratio = (ours, gzip) => (gzip / ours).toFixed(2);
		console.log(
			`project decoder (with checksum) / gzip DecompressionStream: ${ratio(rows[0].wall, rows[2].wall)} by wall time, ` +
				`${ratio(rows[0].cpu, rows[2].cpu)} by CPU time`,
		);
		for (const [index, { label }] of baselines.entries()) {
			const check = rows[3 + 2 * index];
			const noCheck = rows[4 + 2 * index];
			console.log(
				`speed-up over ${label} (with checksum): ${ratio(rows[0].wall, check.wall)} by wall time, ${ratio(rows[0].cpu, check.cpu)} by CPU time; ` +
					`--no-check: ${ratio(rows[1].wall, noCheck.wall)} / ${ratio(rows[1].cpu, noCheck.cpu)}`,
			);
		}
		console.log(`load average after: ${loadAverage()}`);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
