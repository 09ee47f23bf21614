// @ts-check
/**
 * A small export in a running process, measured many times: where the milliseconds of one Download
 * Results run go at 1,000 rows, less disturbed by other jobs on the machine than real n8n's
 * whole-millisecond `executionTime` (n8n-side-by-side.js measures that).
 *
 * Usage: npm run build && node test/bench/small-export.js [--rows N] [--reps N] [--baseline <dir or commit>]
 *        [--write-docs]
 *
 * One Node process holds the local API server (each file built once, served from memory) and runs,
 * through n8n-core's real engine (test/helpers/harness.ts, transpiled on load), rep after rep, after
 * `--reps / 10` unmeasured ones, interleaved:
 *
 * - the Export node's Download Results by URL, Output Rows (GZIP, NONE, ZSTD) and Output File (GZIP,
 *   ZSTD), from the COMPILED node in dist/ (and, with `--baseline`, from that build's dist/ too);
 * - "download only": a two-line node that fetches the same file with n8n's `httpRequest` helper into a
 *   Buffer and outputs one item, what HTTP Request does without its own parameter handling;
 * - "items only": a node that outputs the file's rows, parsed once before, as items: n8n's own cost
 *   of a node's items;
 * - the stages of the results pipeline (of both builds) on the same bytes, with no n8n around it:
 *   decompression alone, + UTF-8, + CSV records (no row objects), row objects (`readCsvRows`); and
 *   last, through n8n's engine, a node outputting those fresh row objects as items (the Export
 *   node's work less the download).
 *
 * Each figure is the median over the reps of the run's wall time and of the process's CPU time
 * (`process.cpuUsage`, every thread: zlib's thread pool and the in-process server included).
 *
 * Garbage collection is not charged fairly in those interleaved reps: V8 runs most young-generation
 * collections as a task, at the next turn of the event loop, so they land in whichever run yields to
 * the event loop next (a download, GZIP's thread-pool round trips) and never in a pipeline stage read
 * from memory, which runs in microtasks only; each collection there costs for the garbage of all the
 * cases before it. The column "CPU ms, in a row" therefore also runs every case `BLOCK_RUNS` times in
 * a row (`--reps / BLOCK_RUNS` rounds, interleaved, after one unmeasured) and gives the median of the
 * rounds' CPU time per run: each case with its own garbage, collected at its own pace.
 */
const os = require('node:os');
const path = require('node:path');

const { loadAverage, markdownTable, medianOf, numberOption, prepareBaseline, registerTypeScript, stringOption, writeDocsSection } = require('./benchUtils');

const ROOT = path.join(__dirname, '../..');
const COMPRESSIONS = /** @type {const} */ (['GZIP', 'NONE', 'ZSTD']);
const NODE_CASES = /** @type {const} */ ([['GZIP', 'rows'], ['NONE', 'rows'], ['ZSTD', 'rows'], ['GZIP', 'file'], ['ZSTD', 'file']]);
/** Bytes per chunk when the pipeline stages read a file from memory (as a download delivers it). */
const CHUNK_SIZE = 64 * 1024;
/** Runs of one case in a row for the "in a row" column. */
const BLOCK_RUNS = 20;

/** A node that outputs the given rows as items (no copy): what n8n's engine itself costs per item. */
function itemsOnlyNode(rows) {
	return {
		description: { ...downloadOnlyNode.description, displayName: 'Items only', name: 'itemsOnly', properties: [] },
		async execute() {
			return [rows.map((/** @type {object} */ json) => ({ json, pairedItem: { item: 0 } }))];
		},
	};
}

/** The floor: n8n's own request helper reading the whole file, one item out. */
const downloadOnlyNode = {
	description: {
		displayName: 'Download only',
		name: 'downloadOnly',
		group: ['input'],
		version: 1,
		description: '',
		defaults: { name: 'Download only' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'URL', name: 'url', type: 'string', default: '' }],
	},
	/** @this {any} */
	async execute() {
		const url = this.getNodeParameter('url', 0);
		const body = await this.helpers.httpRequest({ method: 'GET', url, encoding: 'arraybuffer' });
		return [[{ json: { bytes: body.byteLength } }]];
	},
};

async function main() {
	const rows = numberOption('--rows', 1000);
	const reps = numberOption('--reps', 300);
	const warmup = Math.max(5, Math.round(reps / 10));
	registerTypeScript();
	process.env.N8N_LOG_LEVEL ??= 'silent';
	const { runNode, disposeHarness } = require(path.join(ROOT, 'test/helpers/harness.ts'));
	const { startNexthinkServer, generateDeviceRows, DEVICE_COLUMNS } = require(path.join(ROOT, 'test/server'));
	const client = require(path.join(ROOT, 'test/server/client'));
	const baseline = prepareBaseline(stringOption('--baseline'));
	/** @type {Array<{ build: string, NexthinkExport: any }>} */
	const builds = [{ build: 'this', NexthinkExport: require(path.join(ROOT, 'dist/nodes/Nexthink/export/NexthinkExport.node.js')).NexthinkExport }];
	if (baseline) builds.push({ build: 'before', NexthinkExport: require(path.join(baseline.dir, 'dist/nodes/Nexthink/export/NexthinkExport.node.js')).NexthinkExport });

	const server = await startNexthinkServer({ maxRecordedRequests: 10, urlLifetimeSeconds: 7 * 24 * 3600 });
	try {
		server.addQuery({ id: '#bench_small_export', header: DEVICE_COLUMNS, rows: () => generateDeviceRows(rows, 1), completeAfterPolls: 0, cacheFiles: true });
		const token = await client.fetchToken(server);
		/** @type {Record<string, string>} */
		const urls = {};
		/** @type {Record<string, Uint8Array>} */
		const files = {};
		for (const compression of COMPRESSIONS) {
			const { status } = await client.runExport(server, token, { queryId: '#bench_small_export', compression });
			urls[compression] = status.resultsFileUrl;
			files[compression] = new Uint8Array(await (await fetch(status.resultsFileUrl)).arrayBuffer());
		}
		const credentials = { nexthinkApi: client.credentialData(server) };

		/** @type {Array<{ key: string, run: () => Promise<unknown> }>} */
		const cases = [];
		for (const { build, NexthinkExport } of builds) {
			for (const [compression, output] of NODE_CASES) {
				cases.push({
					key: `${build}|Export node, ${compression}, ${output === 'rows' ? 'Rows' : 'File'}`,
					run: async () => {
						const result = await runNode({
							nodeType: new NexthinkExport(),
							parameters: { operation: 'downloadResults', resultsSource: 'url', resultsFileUrl: urls[compression], options: { output } },
							credentials,
						});
						const expected = output === 'rows' ? rows : 1;
						if (result.error || result.items.length !== expected) throw new Error(`${build} ${compression} ${output}: ${result.error?.message ?? `${result.items.length} items`}`);
					},
				});
			}
		}
		for (const compression of COMPRESSIONS) {
			cases.push({
				key: `this|Download only, ${compression}`,
				run: async () => {
					const result = await runNode({ nodeType: downloadOnlyNode, parameters: { url: urls[compression] } });
					if (result.error) throw result.error;
				},
			});
		}
		const parsedRows = (await require(path.join(ROOT, 'dist/nodes/Nexthink/results/readCsvRows.js')).readCsvRows(
			(async function* () {
				yield files.NONE;
			})(),
			{ compression: 'NONE', convertTypes: false },
		)).rows;
		const itemsOnly = itemsOnlyNode(parsedRows);
		cases.push({
			key: 'this|Items only (the rows, parsed once before)',
			run: async () => {
				const result = await runNode({ nodeType: itemsOnly, parameters: {} });
				if (result.items.length !== rows) throw new Error(`items only: ${result.items.length} items`);
			},
		});
		cases.push(...pipelineStages(files, rows, ROOT, 'this', runNode));
		if (baseline) cases.push(...pipelineStages(files, rows, baseline.dir, 'before', runNode));

		console.log(`Node ${process.version}, n8n-core ${require('n8n-core/package.json').version}, ${os.cpus().length} CPUs; ${rows.toLocaleString('en-US')} rows × ${DEVICE_COLUMNS.length} columns (CSV ${kb(files.NONE)}, gzip ${kb(files.GZIP)}, zstd ${kb(files.ZSTD)}); ${reps} reps after ${warmup}; load average ${loadAverage()}`);
		const loadBefore = loadAverage();
		/** @type {Record<string, { wall: number[], cpu: number[] }>} */
		const samples = {};
		for (let rep = -warmup; rep < reps; rep++) {
			for (const { key, run } of cases) {
				const cpuBefore = process.cpuUsage();
				const started = process.hrtime.bigint();
				await run();
				const wall = Number(process.hrtime.bigint() - started) / 1e6;
				const cpu = process.cpuUsage(cpuBefore);
				if (rep < 0) continue;
				const entry = (samples[key] ??= { wall: [], cpu: [] });
				entry.wall.push(wall);
				entry.cpu.push((cpu.user + cpu.system) / 1000);
			}
		}
		/** @type {Record<string, number[]>} */
		const inRow = {};
		const rounds = Math.max(3, Math.round(reps / BLOCK_RUNS));
		for (let round = -1; round < rounds; round++) {
			for (const { key, run } of cases) {
				const cpuBefore = process.cpuUsage();
				for (let index = 0; index < BLOCK_RUNS; index++) await run();
				const cpu = process.cpuUsage(cpuBefore);
				if (round >= 0) (inRow[key] ??= []).push((cpu.user + cpu.system) / 1000 / BLOCK_RUNS);
			}
		}
		const loadAfter = loadAverage();
		disposeHarness();
		const table = summarize(samples, inRow, baseline?.label);
		console.log(table);
		if (process.argv.includes('--write-docs')) {
			writeDocsSection(
				'small-export',
				`\`node test/bench/small-export.js --rows ${rows} --reps ${reps}${baseline ? ` --baseline ${baseline.label}` : ''}\`, ` +
					`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, n8n-core ${require('n8n-core/package.json').version}, ${os.cpus().length} CPUs; ` +
					`${rows.toLocaleString('en-US')} rows × ${DEVICE_COLUMNS.length} columns (CSV ${kb(files.NONE)}, gzip ${kb(files.GZIP)}, zstd ${kb(files.ZSTD)}); ` +
					`medians of ${reps} interleaved reps in one process after ${warmup} unmeasured; "in a row": CPU per run of ${BLOCK_RUNS} runs of one case in a row (its own garbage collection included), median of ${rounds} interleaved rounds; load average ${loadBefore} before, ${loadAfter} after. ` +
					'"÷ download" compares with the download only of the same file, same column' +
					(baseline ? `; "before" is commit ${baseline.label}` : '') +
					'.\n\n' +
					table,
			);
		}
	} finally {
		await server.close();
	}
}

/**
 * The results pipeline of the build in `root`, stage by stage, on the files' bytes in memory.
 * @param {Record<string, Uint8Array>} files @param {number} rows @param {string} root @param {string} build
 * @param {(options: object) => Promise<any>} runNode
 */
function pipelineStages(files, rows, root, build, runNode) {
	const dist = path.join(root, 'dist/nodes/Nexthink/results');
	const { decompressChunks } = require(path.join(dist, 'decompress.js'));
	const { decodeUtf8 } = require(path.join(dist, 'utf8.js'));
	const { CsvParser } = require(path.join(dist, 'csv.js'));
	const { readCsvRows } = require(path.join(dist, 'readCsvRows.js'));
	const { DEFAULT_RESULT_LIMITS } = require(path.join(dist, 'limits.js'));
	/** @param {Uint8Array} bytes */
	async function* chunks(bytes) {
		for (let start = 0; start < bytes.length; start += CHUNK_SIZE) yield bytes.subarray(start, start + CHUNK_SIZE);
	}
	/** @param {string} compression */
	const decompressed = (compression) => decompressChunks(chunks(files[compression]), compression, { limits: DEFAULT_RESULT_LIMITS });
	/** @type {Array<{ key: string, run: () => Promise<unknown> }>} */
	const stages = [];
	const key = (/** @type {string} */ compression, /** @type {string} */ stage) => `${build}|Pipeline alone, ${compression}: ${stage}`;
	for (const compression of COMPRESSIONS) {
		stages.push({
			key: key(compression, 'decompression'),
			run: async () => {
				let length = 0;
				for await (const bytes of decompressed(compression)) length += bytes.length;
				if (length !== files.NONE.length) throw new Error(`${compression}: ${length} bytes`);
			},
		});
		stages.push({
			key: key(compression, '+ UTF-8'),
			run: async () => {
				for await (const texts of decodeUtf8(decompressed(compression))) if (texts.length === 0) throw new Error('no text');
			},
		});
		stages.push({
			key: key(compression, '+ CSV records'),
			run: async () => {
				let records = 0;
				const parser = new CsvParser(() => {
					records++;
					return true;
				}, DEFAULT_RESULT_LIMITS);
				for await (const texts of decodeUtf8(decompressed(compression))) for (const text of texts) parser.push(text);
				parser.end();
				if (records !== rows + 1) throw new Error(`${compression}: ${records} records`);
			},
		});
		stages.push({
			key: key(compression, 'row objects (readCsvRows)'),
			run: async () => {
				const result = await readCsvRows(chunks(files[compression]), { compression, convertTypes: false });
				if (result.rows.length !== rows) throw new Error(`${compression}: ${result.rows.length} rows`);
			},
		});
		const itemsNode = {
			description: { ...downloadOnlyNode.description, displayName: 'Pipeline items', name: 'pipelineItems', properties: [] },
			async execute() {
				const result = await readCsvRows(chunks(files[compression]), { compression, convertTypes: false });
				return [result.rows.map((/** @type {object} */ json) => ({ json, pairedItem: { item: 0 } }))];
			},
		};
		stages.push({
			key: key(compression, 'row objects output as items'),
			run: async () => {
				const result = await runNode({ nodeType: itemsNode, parameters: {} });
				if (result.items.length !== rows) throw new Error(`${compression}: ${result.items.length} items`);
			},
		});
	}
	return stages;
}

/**
 * @param {Record<string, { wall: number[], cpu: number[] }>} samples @param {Record<string, number[]>} inRow
 * @param {string | undefined} baselineLabel
 */
function summarize(samples, inRow, baselineLabel) {
	const wall = (/** @type {string} */ key) => medianOf(samples[key].wall);
	const cpu = (/** @type {string} */ key) => medianOf(samples[key].cpu);
	const ms = (/** @type {number} */ value) => value.toFixed(2);
	const table = [];
	for (const key of Object.keys(samples)) {
		const [build, name] = key.split('|');
		if (build !== 'this') continue;
		const compression = name.includes('NONE') ? 'NONE' : name.includes('ZSTD') ? 'ZSTD' : 'GZIP';
		const floor = `this|Download only, ${compression}`;
		const before = `before|${name}`;
		table.push([
			name,
			ms(wall(key)),
			ms(cpu(key)),
			ms(medianOf(inRow[key])),
			name.startsWith('Export') ? (wall(key) / wall(floor)).toFixed(2) : '',
			name.startsWith('Export') ? (cpu(key) / cpu(floor)).toFixed(2) : '',
			samples[before] ? ms(wall(before)) : '',
			samples[before] ? ms(cpu(before)) : '',
			samples[before] ? ms(medianOf(inRow[before])) : '',
			samples[before] && name.startsWith('Export') ? (wall(before) / wall(floor)).toFixed(2) : '',
		]);
	}
	const beforeLabel = baselineLabel ?? 'before';
	return markdownTable(
		['run', 'wall ms', 'CPU ms', 'CPU ms, in a row', '÷ download (wall)', '÷ download (CPU)', `wall ms, ${beforeLabel}`, `CPU ms, ${beforeLabel}`, `CPU ms in a row, ${beforeLabel}`, `÷ download (wall), ${beforeLabel}`],
		table,
		'lrrrrrrrrr',
	);
}

/** @param {Uint8Array} bytes */
function kb(bytes) {
	return `${(bytes.length / 1024).toFixed(0)} KiB`;
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
