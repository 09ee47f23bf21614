// @ts-check
/**
 * Benchmark of the results pipeline: decompress + UTF-8 decode + CSV parse into row objects.
 *
 * Usage: npx tsc -p tsconfig.json && node test/bench/results-decode.js [--rows N] [--runs N] [--keep]
 *        [--baseline <dir>]
 *
 * Generates a device-inventory-like CSV (default 1,000,000 rows, 15 columns, ~120 MB) in a temp
 * directory, plus .gz (`gzip -6`) and .zst (`zstd -3`) copies. Each measured run is a fresh Node
 * process that streams the file from disk in 64 KiB chunks (like a network response) through
 * `readCsvRows` from the COMPILED modules in dist/ and reports its wall time and peak RSS. Outputs:
 * row objects with strings, row objects with "convert types", and records only (the same pipeline
 * without row objects, to separate parsing from object building). The floors are the command-line
 * tools decompressing the same file into `wc -l`, and V8 building as many plain objects of fresh
 * strings with no parsing at all. Medians of `--runs` runs.
 *
 * `--baseline <dir>`: a checkout of another commit, compiled (`npx tsc -p tsconfig.json` there). Its
 * row-object and records-only pipelines run in the same rounds on the same files, so a change is shown before and
 * after from one run (for example `git worktree add /tmp/before <commit>`).
 */
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const DIST = path.join(__dirname, '../../dist/nodes/Nexthink/results');
const RESULTS_IN_DIST = 'dist/nodes/Nexthink/results';
const CHUNK_SIZE = 64 * 1024;

/** What a run produces: row objects (strings or converted values), or only parsed records. */
const OUTPUTS = {
	strings: 'row objects, strings',
	convert: 'row objects, convert types',
	records: 'records only (no row objects)',
};

/** The outputs the `--baseline` build runs as well: the node's default, and the parsing alone. */
const BASELINE_OUTPUTS = ['strings', 'records'];

if (process.argv[2] === '--object-floor') {
	objectFloor(Number(process.argv[3]));
} else if (process.argv[2] === '--worker') {
	const work = process.argv[5] === 'records' ? recordsWorker : rowsWorker;
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
	const started = process.hrtime.bigint();
	const result = await readCsvRows(source(file), { compression, convertTypes: output === 'convert' });
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	report(seconds, result.rows.length, result.compression);
	// Keeps the rows alive until the figures are taken.
	if (result.rows[result.rows.length - 1]?.['device.name'] === undefined) throw new Error('last row incomplete');
}

/** The same pipeline without building row objects: decompress, decode and parse records only. */
async function recordsWorker(file, compression, _output, dist) {
	const { decompressChunks } = require(path.join(dist, 'decompress.js'));
	const { decodeUtf8 } = require(path.join(dist, 'utf8.js'));
	const { CsvParser } = require(path.join(dist, 'csv.js'));
	const started = process.hrtime.bigint();
	let records = 0;
	let detected;
	const parser = new CsvParser(() => {
		records++;
	});
	const bytes = decompressChunks(source(file), compression, { onDetected: (value) => (detected = value) });
	// A baseline build from before commit 0a1af8a yields each text piece alone, not a chunk's array.
	for await (const texts of decodeUtf8(bytes)) for (const text of typeof texts === 'string' ? [texts] : texts) parser.push(text);
	parser.end();
	report(Number(process.hrtime.bigint() - started) / 1e9, records - 1, detected);
}

/**
 * What V8 itself needs to build and keep `rowCount` objects of 15 freshly sliced strings the way
 * rowObjects.ts does (template copy, keyed stores), with no I/O, decoding or CSV rules: the floor
 * for any pipeline that must hand n8n one object per row.
 */
function objectFloor(rowCount) {
	const line = 'LT-0000001,Geneva,Linux,22172.3384,Lenovo,17179869184,2,10.192.0.0,2025-05-16T06:44:10Z,,29.6,jane.roe,false,16,vip,';
	const text = line.repeat(1000);
	const keys = Array.from({ length: 15 }, (_, index) => `device.column_${index}`);
	const template = JSON.parse(`{${keys.map((key) => `${JSON.stringify(key)}:null`).join(',')}}`);
	const started = process.hrtime.bigint();
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

function report(seconds, rows, detected) {
	process.stdout.write(JSON.stringify({ seconds, rows, detected, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
}

function main() {
	const rowCount = numberOption('--rows', 1_000_000);
	const runs = numberOption('--runs', 5);
	const baselineIndex = process.argv.indexOf('--baseline');
	const baselineDist = baselineIndex === -1 ? undefined : path.resolve(process.argv[baselineIndex + 1], RESULTS_IN_DIST);
	if (baselineDist !== undefined && !fs.existsSync(path.join(baselineDist, 'readCsvRows.js'))) {
		console.error(`--baseline: ${baselineDist} has no compiled readCsvRows.js`);
		process.exit(1);
	}
	if (!fs.existsSync(path.join(DIST, 'readCsvRows.js'))) {
		console.error('dist/ is missing: run `npx tsc -p tsconfig.json` first');
		process.exit(1);
	}
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexthink-results-bench-'));
	try {
		const csv = path.join(dir, 'devices.csv');
		writeCsv(csv, rowCount);
		execFileSync('gzip', ['-6', '-k', '-n', csv]);
		execFileSync('zstd', ['-3', '-q', '-k', csv, '-o', `${csv}.zst`]);
		const csvBytes = fs.statSync(csv).size;
		const files = { NONE: csv, GZIP: `${csv}.gz`, ZSTD: `${csv}.zst` };
		console.log(`${rowCount} rows, 15 columns: CSV ${mb(csvBytes)} MB, gzip ${mb(fs.statSync(files.GZIP).size)} MB, zstd ${mb(fs.statSync(files.ZSTD).size)} MB`);
		console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), median of ${runs} runs\n`);

		// Every measurement runs once per round, rounds repeat: load from other processes on a shared
		// machine then spreads over all of them instead of skewing whichever ran during a busy spell.
		const compressions = /** @type {const} */ (['NONE', 'GZIP', 'ZSTD']);
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
				for (const output of Object.keys(OUTPUTS)) {
					record(`${compression} ${output}`, runWorker(files[compression], compression, output, rowCount));
				}
				if (baselineDist) {
					for (const output of BASELINE_OUTPUTS) {
						record(`${compression} baseline ${output}`, runWorker(files[compression], compression, output, rowCount, baselineDist));
					}
				}
			}
			record('objects', runChild(['--object-floor', String(rowCount)]));
		}
		const medianSeconds = (key) => medianOf(samples[key].map((sample) => sample.seconds));
		const table = [];
		for (const compression of compressions) {
			const floor = medianSeconds(`floor ${compression}`);
			const outputs = Object.keys(OUTPUTS).concat(baselineDist ? BASELINE_OUTPUTS.map((output) => `baseline ${output}`) : []);
			for (const output of outputs) {
				const key = `${compression} ${output}`;
				const seconds = medianSeconds(key);
				const baselineOf = output.startsWith('baseline ') ? output.slice('baseline '.length) : undefined;
				table.push({
					input: compression,
					output: baselineOf === undefined ? OUTPUTS[output] : `${OUTPUTS[baselineOf]}, BASELINE build`,
					'wall s': seconds.toFixed(2),
					'rows/s': Math.round(rowCount / seconds).toLocaleString('en-US'),
					'CSV MB/s': (csvBytes / 1e6 / seconds).toFixed(0),
					'peak RSS MB': medianOf(samples[key].map((sample) => sample.maxRssMb)).toFixed(0),
					'floor s': floor.toFixed(2),
					'× floor': (seconds / floor).toFixed(1),
				});
			}
		}
		console.table(table);
		console.log('floor: `cat | wc -l`, `gzip -dc | wc -l`, `zstd -dc | wc -l` on the same file');
		console.log(
			`V8 object floor (${rowCount} objects of 15 new strings, in memory, no parsing): ` +
				`${medianSeconds('objects').toFixed(2)} s, peak RSS ${medianOf(samples.objects.map((sample) => sample.maxRssMb)).toFixed(0)} MB`,
		);
	} finally {
		if (process.argv.includes('--keep')) console.log(`files kept in ${dir}`);
		else fs.rmSync(dir, { recursive: true, force: true });
	}
}

function runWorker(file, compression, output, rowCount, dist = DIST) {
	const sample = runChild(['--worker', file, compression, output, dist]);
	if (sample.rows !== rowCount || sample.detected !== compression) {
		throw new Error(`worker read ${sample.rows} rows as ${sample.detected}, expected ${rowCount} as ${compression}`);
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
