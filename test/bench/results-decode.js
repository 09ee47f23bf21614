// @ts-check
/**
 * Benchmark of the results pipeline: decompress + UTF-8 decode + CSV parse into row objects.
 *
 * Usage: npx tsc -p tsconfig.json && node test/bench/results-decode.js [--rows N[,N...]] [--runs N]
 *        [--outputs bytes,records,strings,convert] [--baseline <dir or commit>] [--keep] [--write-docs]
 *
 * For each row count (default 1,000, 100,000 and 1,000,000), generates a device-inventory-like CSV
 * (15 columns, ~127 bytes a row) in a temp directory, plus .gz (`gzip -6`) and .zst (`zstd -3`)
 * copies. Each measured run is a fresh Node process (a cold JIT, like the first export after n8n
 * starts) that streams the file from disk in 64 KiB chunks (like a network response) through the
 * COMPILED modules in dist/ and reports its wall time and peak RSS. Outputs: decompressed bytes only
 * (the decoder's throughput), records only (decompress, UTF-8 and CSV parsing, no row objects), row
 * objects with strings (the node's default), row objects with "convert types". The floors are the
 * command-line tools decompressing the same file into `wc -l`, and V8 building as many plain objects
 * of fresh strings with no parsing at all. Medians of `--runs` rounds; each round runs every
 * measurement once, in turn, so that load from other processes spreads over all of them.
 *
 * `--baseline <dir or commit>`: another build (see benchUtils.prepareBaseline) runs the same outputs in
 * the same rounds on the same files, so a change is shown before and after from one run.
 * `--write-docs`: also writes the table into docs/benchmarks.md (section `results-decode`).
 */
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { loadAverage, markdownTable, prepareBaseline, stringOption, writeDocsSection } = require('./benchUtils');

const DIST = path.join(__dirname, '../../dist/nodes/Nexthink/results');
const RESULTS_IN_DIST = 'dist/nodes/Nexthink/results';
const CHUNK_SIZE = 64 * 1024;

/** What a run produces: row objects (strings or converted values), or only parsed records. */
const OUTPUTS = {
	bytes: 'decompressed bytes only',
	records: 'records only (no row objects)',
	strings: 'row objects, strings',
	convert: 'row objects, convert types',
};
const DEFAULT_OUTPUTS = ['bytes', 'records', 'strings'];

/** CPU time of the process (all its threads) when the measured work started. */
let cpuAtStart = process.cpuUsage();

if (process.argv[2] === '--object-floor') {
	objectFloor(Number(process.argv[3]));
} else if (process.argv[2] === '--worker') {
	const work = process.argv[5] === 'records' ? recordsWorker : process.argv[5] === 'bytes' ? bytesWorker : rowsWorker;
	work(process.argv[3], /** @type {'NONE' | 'GZIP' | 'ZSTD'} */ (process.argv[4]), process.argv[5], process.argv[6] ?? DIST).catch((error) => {
		console.error(error);
		process.exit(1);
	});
} else {
	main();
}

function source(file) {
	return fs.createReadStream(file, { highWaterMark: CHUNK_SIZE });
}

/** One measured run: read the whole file into rows, print JSON with the figures. */
async function rowsWorker(file, compression, output, dist) {
	const { readCsvRows } = require(path.join(dist, 'readCsvRows.js'));
	const started = startClock();
	const result = await readCsvRows(source(file), { compression, convertTypes: output === 'convert' });
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	report(seconds, result.rows.length, result.compression);
	// Keeps the rows alive until the figures are taken.
	if (result.rows[result.rows.length - 1]?.['device.name'] === undefined) throw new Error('last row incomplete');
}

/** Decompression alone: the decoder's throughput, as the node feeds it (magic-number detection included). */
async function bytesWorker(file, compression, _output, dist) {
	const { decompressChunks } = require(path.join(dist, 'decompress.js'));
	const started = startClock();
	let bytes = 0;
	const counted = { compressed: 0, decompressed: 0, compression: undefined };
	let detected; // a baseline build from before `counted.compression` reports it through `onDetected`
	for await (const chunk of decompressChunks(source(file), compression, { counted, onDetected: (value) => (detected = value) })) bytes += chunk.length;
	report(Number(process.hrtime.bigint() - started) / 1e9, bytes, counted.compression ?? detected);
}

/** The same pipeline without building row objects: decompress, decode and parse records only. */
async function recordsWorker(file, compression, _output, dist) {
	const { decompressChunks } = require(path.join(dist, 'decompress.js'));
	const { decodeUtf8 } = require(path.join(dist, 'utf8.js'));
	const { CsvParser } = require(path.join(dist, 'csv.js'));
	const started = startClock();
	let records = 0;
	const counted = { compressed: 0, decompressed: 0, compression: undefined };
	let detected; // a baseline build from before `counted.compression` reports it through `onDetected`
	const parser = new CsvParser(() => {
		records++;
	});
	const bytes = decompressChunks(source(file), compression, { counted, onDetected: (value) => (detected = value) });
	// A baseline build from before commit 0a1af8a yields each text piece alone, not a chunk's array.
	for await (const texts of decodeUtf8(bytes)) for (const text of typeof texts === 'string' ? [texts] : texts) parser.push(text);
	parser.end();
	report(Number(process.hrtime.bigint() - started) / 1e9, records - 1, counted.compression ?? detected);
}

/**
 * What V8 itself needs to build and keep `rowCount` objects of 15 freshly sliced strings the way
 * readCsvRows.ts does (template copy, keyed stores), with no I/O, decoding or CSV rules: the floor
 * for any pipeline that must hand n8n one object per row.
 */
function objectFloor(rowCount) {
	const line = 'LT-0000001,Geneva,Linux,22172.3384,Lenovo,17179869184,2,10.192.0.0,2025-05-16T06:44:10Z,,29.6,jane.roe,false,16,vip,';
	const text = line.repeat(1000);
	const keys = Array.from({ length: 15 }, (_, index) => `device.column_${index}`);
	const template = JSON.parse(`{${keys.map((key) => `${JSON.stringify(key)}:null`).join(',')}}`);
	const started = startClock();
	const rows = [];
	let position = 0;
	for (let row = 0; row < rowCount; row++) {
		const object = { ...template };
		for (let index = 0; index < 15; index++) {
			const comma = text.indexOf(',', position);
			object[keys[index]] = text.slice(position, comma);
			position = comma + 1 < text.length ? comma + 1 : 0;
		}
		rows.push(object);
	}
	report(Number(process.hrtime.bigint() - started) / 1e9, rows.length, 'NONE');
}

/** Starts the wall clock and the CPU clock of a measured run; returns the wall clock's start. */
function startClock() {
	cpuAtStart = process.cpuUsage();
	return process.hrtime.bigint();
}

function report(seconds, rows, detected) {
	const cpu = process.cpuUsage(cpuAtStart);
	const cpuSeconds = (cpu.user + cpu.system) / 1e6;
	process.stdout.write(JSON.stringify({ seconds, cpuSeconds, rows, detected, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
}

function main() {
	const rowCounts = (stringOption('--rows') ?? '1000,100000,1000000').split(',').map(Number);
	const runs = numberOption('--runs', 5);
	const outputs = (stringOption('--outputs') ?? DEFAULT_OUTPUTS.join(',')).split(',');
	for (const output of outputs) if (!(output in OUTPUTS)) throw new Error(`unknown output ${output}`);
	const baseline = prepareBaseline(stringOption('--baseline'));
	const baselineDist = baseline && path.join(baseline.dir, RESULTS_IN_DIST);
	if (baselineDist !== undefined && !fs.existsSync(path.join(baselineDist, 'readCsvRows.js'))) {
		console.error(`--baseline: ${baselineDist} has no compiled readCsvRows.js`);
		process.exit(1);
	}
	if (!fs.existsSync(path.join(DIST, 'readCsvRows.js'))) {
		console.error('dist/ is missing: run `npx tsc -p tsconfig.json` first');
		process.exit(1);
	}
	const builds = [{ key: 'this', dist: DIST }].concat(baselineDist ? [{ key: 'before', dist: baselineDist }] : []);
	const compressions = /** @type {const} */ (['NONE', 'GZIP', 'ZSTD']);
	console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), median of ${runs} rounds` + (baseline ? `, before = ${baseline.label}` : ''));
	const sections = [];
	for (const rowCount of rowCounts) {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexthink-results-bench-'));
		try {
			const csv = path.join(dir, 'devices.csv');
			writeCsv(csv, rowCount);
			execFileSync('gzip', ['-6', '-k', '-n', csv]);
			execFileSync('zstd', ['-3', '-q', '-k', csv, '-o', `${csv}.zst`]);
			const csvBytes = fs.statSync(csv).size;
			const files = { NONE: csv, GZIP: `${csv}.gz`, ZSTD: `${csv}.zst` };
			const sizes = `CSV ${mb(csvBytes)} MB, gzip ${mb(fs.statSync(files.GZIP).size)} MB, zstd ${mb(fs.statSync(files.ZSTD).size)} MB`;
			const loadBefore = loadAverage();
			console.log(`\n${rowCount.toLocaleString('en-US')} rows, 15 columns: ${sizes}; load average ${loadBefore}`);

			const floorCommands = {
				NONE: `cat '${files.NONE}' | wc -l`,
				GZIP: `gzip -dc '${files.GZIP}' | wc -l`,
				ZSTD: `zstd -dc '${files.ZSTD}' | wc -l`,
			};
			/** @type {Record<string, Array<{ seconds: number, maxRssMb: number }>>} */
			const samples = {};
			const record = (key, sample) => (samples[key] ??= []).push(sample);
			for (let run = 0; run < runs; run++) {
				for (const compression of compressions) {
					record(`floor ${compression}`, { seconds: timeShell(floorCommands[compression]), maxRssMb: 0 });
					for (const output of outputs) {
						for (const build of builds) {
							const expected = output === 'bytes' ? csvBytes : rowCount;
							record(`${build.key} ${compression} ${output}`, runWorker(files[compression], compression, output, expected, build.dist));
						}
					}
				}
				record('objects', runChild(['--object-floor', String(rowCount)]));
			}
			const loadAfter = loadAverage();
			const medianSeconds = (key) => medianOf(samples[key].map((sample) => sample.seconds));
			const medianRss = (key) => medianOf(samples[key].map((sample) => sample.maxRssMb));
			const medianCpu = (key) => medianOf(samples[key].map((sample) => sample.cpuSeconds));
			const rows = [];
			for (const output of outputs) {
				for (const compression of compressions) {
					const floor = medianSeconds(`floor ${compression}`);
					const seconds = medianSeconds(`this ${compression} ${output}`);
					const cpu = medianCpu(`this ${compression} ${output}`);
					const row = [
						OUTPUTS[output],
						compression,
						formatSeconds(seconds),
						formatSeconds(cpu),
						(csvBytes / 1e6 / seconds).toFixed(0),
						medianRss(`this ${compression} ${output}`).toFixed(0),
						(seconds / medianSeconds(`this GZIP ${output}`)).toFixed(2),
						(seconds / floor).toFixed(1),
					];
					if (baselineDist) {
						const before = medianSeconds(`before ${compression} ${output}`);
						const beforeCpu = medianCpu(`before ${compression} ${output}`);
						row.push(
							formatSeconds(before),
							formatSeconds(beforeCpu),
							(before / medianSeconds(`before GZIP ${output}`)).toFixed(2),
							`**${(before / seconds).toFixed(2)}**`,
							`**${(beforeCpu / cpu).toFixed(2)}**`,
						);
					}
					rows.push(row);
				}
			}
			const header = ['output', 'input', 'wall', 'CPU', 'CSV MB/s (wall)', 'peak RSS MB', '÷ GZIP (wall)', '× floor (wall)'];
			const align = 'llrrrrrr';
			const baselineHeader = baseline ? ['before: wall', 'before: CPU', 'before: ÷ GZIP', 'before ÷ this (wall)', 'before ÷ this (CPU)'] : [];
			const table = markdownTable(header.concat(baselineHeader), rows, align + (baseline ? 'rrrrr' : ''));
			const floors = compressions.map((compression) => `${floorCommands[compression].replace(/'[^']*'/, 'file')}: ${formatSeconds(medianSeconds(`floor ${compression}`))}`).join('; ');
			const objects = `V8 object floor (${rowCount.toLocaleString('en-US')} objects of 15 new strings, no parsing): ${formatSeconds(medianSeconds('objects'))}, peak RSS ${medianRss('objects').toFixed(0)} MB`;
			console.log(table);
			console.log(`floors: ${floors}\n${objects}; load average after ${loadAfter}`);
			sections.push(
				`**${rowCount.toLocaleString('en-US')} rows** (${sizes}); load average ${loadBefore} before, ${loadAfter} after:\n\n${table}\n\nFloors: ${floors}. ${objects}.`,
			);
		} finally {
			if (process.argv.includes('--keep')) console.log(`files kept in ${dir}`);
			else fs.rmSync(dir, { recursive: true, force: true });
		}
	}
	if (process.argv.includes('--write-docs')) {
		const intro =
			`\`node test/bench/results-decode.js --rows ${rowCounts.join(',')} --runs ${runs}${baseline ? ` --baseline ${baseline.label}` : ''}\`, ` +
			`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${os.cpus().length} CPUs; medians of ${runs} interleaved rounds, ` +
			`each run a fresh process. "CPU" is the process's CPU time (all threads: zlib's thread pool included), less disturbed than wall time when other jobs share the cores. "÷ GZIP" is the time over the GZIP time of the same output and build; "before" is ${baseline ? `commit ${baseline.label}` : 'not measured'}.`;
		writeDocsSection('results-decode', `${intro}\n\n${sections.join('\n\n')}`);
	}
}

function formatSeconds(seconds) {
	return seconds < 1 ? `${(seconds * 1000).toFixed(seconds < 0.1 ? 1 : 0)} ms` : `${seconds.toFixed(2)} s`;
}

function runWorker(file, compression, output, expected, dist) {
	const sample = runChild(['--worker', file, compression, output, dist]);
	if (sample.rows !== expected || sample.detected !== compression) {
		throw new Error(`worker read ${sample.rows} ${output === 'bytes' ? 'bytes' : 'rows'} as ${sample.detected}, expected ${expected} as ${compression}`);
	}
	return sample;
}

/** Runs this script in a fresh Node process (so peak RSS is its own) and returns its JSON report. */
function runChild(args) {
	const child = spawnSync(process.execPath, [__filename, ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
	if (child.status !== 0) throw new Error(`worker failed: ${child.stderr}`);
	return JSON.parse(child.stdout);
}

function timeShell(command) {
	const started = process.hrtime.bigint();
	execFileSync('bash', ['-c', `set -o pipefail; ${command}`], { stdio: ['ignore', 'ignore', 'inherit'] });
	return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Writes a device-inventory-like CSV: quoted names with commas, a multi-line field now and then. */
function writeCsv(file, rowCount) {
	const header = [
		'device.name',
		'device.entity',
		'device.operating_system.platform',
		'device.operating_system.build',
		'device.hardware.manufacturer',
		'device.hardware.memory',
		'device.hardware.number_of_logical_processors',
		'device.collector.local_ip',
		'device.last_seen',
		'device.virtualization.type',
		'device.disk_free_percent',
		'user.name',
		'device.is_virtual',
		'device.uptime_days',
		'device.tags',
	];
	const entities = ['Geneva', 'Lausanne', 'New York', 'Singapore', 'São Paulo', 'Zürich', '東京オフィス', 'Kraków'];
	const platforms = ['Windows', 'macOS', 'Linux'];
	const makers = ['Dell Inc.', 'HP', 'Lenovo', 'Apple', 'Microsoft Corporation'];
	const users = ['"Doe, John"', 'jane.roe', '"Müller, Anna"', 'svc_kiosk', '"O\'Brien, Pat"'];
	// xorshift32: deterministic, and without the short cycles of a plain LCG's low bits that would
	// make the file unrealistically compressible.
	let seed = 2463534242;
	const random = (limit) => {
		seed ^= seed << 13;
		seed ^= seed >>> 17;
		seed ^= seed << 5;
		return (seed >>> 0) % limit;
	};
	const out = fs.openSync(file, 'w');
	let buffer = `${header.join(',')}\r\n`;
	for (let index = 0; index < rowCount; index++) {
		const virtual = random(10) === 0;
		const tags = random(50) === 0 ? '"pilot\nfinance"' : random(4) === 0 ? 'vip' : '';
		buffer +=
			`LT-${String(index).padStart(7, '0')},${entities[random(entities.length)]},${platforms[random(3)]},` +
			`${22000 + random(700)}.${random(5000)},${makers[random(makers.length)]},${(4 + random(5) * 4) * 1073741824},` +
			`${2 ** (1 + random(4))},10.${random(256)}.${random(256)}.${random(256)},` +
			`2025-0${1 + random(9)}-1${random(10)}T0${random(10)}:${10 + random(50)}:${10 + random(50)}Z,` +
			`${virtual ? 'pooled' : ''},${random(1000) / 10},${users[random(users.length)]},${virtual},${random(60)},${tags}\r\n`;
		if (buffer.length > 1 << 20) {
			fs.writeSync(out, buffer);
			buffer = '';
		}
	}
	fs.writeSync(out, buffer);
	fs.closeSync(out);
}

function numberOption(name, fallback) {
	const index = process.argv.indexOf(name);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
}

function medianOf(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function mb(bytes) {
	return (bytes / 1e6).toFixed(1);
}
