// @ts-check
/**
 * Real n8n, side by side: the same results file read by the Nexthink Export node (Download Results,
 * by URL) and by the nodes a user would wire up without this package, in the pinned n8n 2.x and 1.x:
 *
 * - Export node, GZIP / NONE / ZSTD, Output Rows; and GZIP / ZSTD, Output File;
 * - Do it yourself: HTTP Request (response as a file) → [Compression, decompress, for GZIP] → Extract
 *   From File (CSV). n8n has no Zstandard decompression, so there is no do-it-yourself ZSTD;
 * - HTTP Request only (the download as a file, nothing parsed): the floor a node cannot beat.
 *
 * Usage: npm run build && node test/bench/n8n-side-by-side.js [--rows N[,N...]] [--runs N] [--n8n 2[,1]]
 *        [--baseline <dir or commit>] [--only <part of a workflow's name>[;...]] [--write-docs] [--keep]
 *
 * Every workflow starts at a webhook (answering at once) whose body carries the results URL, fetched
 * fresh from the local API server (which builds each file once and serves it from memory, so its CSV
 * and compression work does not compete with n8n). An external hook file (n8n's `EXTERNAL_HOOK_FILES`,
 * hook `workflow.postExecute`) records, inside the n8n process, every node's `executionTime` and item
 * count and the process's peak RSS. Executions are not saved (`EXECUTIONS_DATA_SAVE_ON_SUCCESS=none`)
 * and binary data goes to the file system (`N8N_DEFAULT_BINARY_DATA_MODE=filesystem`), as a
 * production instance handling such exports would be set up.
 *
 * From 100,000 rows on, each run is a fresh `n8n start`, so the process's peak RSS is that run's own.
 * Below, one n8n process per instance runs every workflow once unmeasured (loading n8n's and the
 * package's modules), then the measured rounds: small exports are measured in a running n8n, where a
 * user meets them. Either way the workflows run interleaved, round after round; medians.
 *
 * `--baseline`: the Export node workflows also run from another build (see benchUtils.prepareBaseline),
 * packed and installed in a second n8n user folder, in the same rounds (the builds take turns at going
 * first): every one below FRESH_PROCESS_FROM_ROWS (a few milliseconds each), the ZSTD ones only from
 * there on.
 *
 * `--only`: just the workflows whose name holds one of these parts (e.g. `--only "ZSTD, Rows;GZIP, Rows"`),
 * for a closer look at a few with more rounds; the ratios whose other workflow did not run stay empty.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { loadAverage, markdownTable, medianOf, numberOption, prepareBaseline, stringOption, writeDocsSection } = require('./benchUtils');
const { ensureN8n } = require('../../scripts/n8n-install');
const { N8nInstance, installCommunityPackage, packPackage, sleep } = require('../../scripts/n8n-instance');
const { HOOK_SOURCE } = require('./n8nRuns');
const { credentialRecord } = require('../../scripts/n8n-examples');
const { buildWorkflow, exportNode, uuid } = require('../e2e/lib/workflow');

const ROOT = path.join(__dirname, '../..');
/** Row counts from which every run gets a fresh n8n process (peak RSS of its own). */
const FRESH_PROCESS_FROM_ROWS = 100_000;
const COMPRESSIONS = /** @type {const} */ (['GZIP', 'NONE', 'ZSTD']);
/** Below FRESH_PROCESS_FROM_ROWS, `--runs` times this many rounds. */
const SMALL_ROUNDS_FACTOR = 5;

/** A webhook start that answers at once, so the run's items never travel back over HTTP. @param {string} webhookPath */
function webhookStart(webhookPath) {
	return {
		name: 'Start',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: uuid(webhookPath),
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
	};
}

const URL_FROM_BODY = '={{ $json.body.url }}';

/**
 * The workflows, each named by what it does; `last` is the node whose items are counted.
 * @param {boolean} baseline  for the baseline build's instance: its Export node workflows only (the
 *   do-it-yourself and HTTP Request paths are the same code in both builds)
 */
function workflows(baseline) {
	/** @type {Array<{ id: string, name: string, compression: string, kind: 'node' | 'diy' | 'http', output: 'rows' | 'file', nodes: object[], connections: Array<[string, string, number?]>, last: string }>} */
	const list = [];
	const nodeCases = [['GZIP', 'rows'], ['NONE', 'rows'], ['ZSTD', 'rows'], ['GZIP', 'file'], ['ZSTD', 'file']];
	for (const [compression, output] of nodeCases) {
		const id = `benchNode${compression}${output}`;
		list.push({
			id,
			name: `Export node, ${compression}, ${output === 'rows' ? 'Rows' : 'File'}`,
			compression,
			kind: 'node',
			output: /** @type {'rows' | 'file'} */ (output),
			nodes: [
				webhookStart(id),
				exportNode('Nexthink Export', { operation: 'downloadResults', resultsSource: 'url', resultsFileUrl: URL_FROM_BODY, options: { output } }),
			],
			connections: [['Start', 'Nexthink Export']],
			last: 'Nexthink Export',
		});
	}
	if (baseline) return list;
	/** @param {string} name @param {object} parameters */
	const http = (name, parameters) => ({ name, type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, parameters: { options: {}, ...parameters } });
	const download = () => http('Download file', { url: URL_FROM_BODY, options: { response: { response: { responseFormat: 'file' } } } });
	const extract = (/** @type {string} */ binaryPropertyName) => ({
		name: 'Extract From File',
		type: 'n8n-nodes-base.extractFromFile',
		typeVersion: 1.1,
		parameters: { operation: 'csv', binaryPropertyName, options: {} },
	});
	list.push({
		id: 'benchDiyNONE',
		name: 'Do it yourself, NONE',
		compression: 'NONE',
		kind: 'diy',
		output: 'rows',
		nodes: [webhookStart('benchDiyNONE'), download(), extract('data')],
		connections: [['Start', 'Download file'], ['Download file', 'Extract From File']],
		last: 'Extract From File',
	});
	list.push({
		id: 'benchDiyGZIP',
		name: 'Do it yourself, GZIP',
		compression: 'GZIP',
		kind: 'diy',
		output: 'rows',
		nodes: [
			webhookStart('benchDiyGZIP'),
			download(),
			{ name: 'Decompress', type: 'n8n-nodes-base.compression', typeVersion: 1.1, parameters: { operation: 'decompress', binaryPropertyName: 'data', outputPrefix: 'file_' } },
			extract('file_0'),
		],
		connections: [['Start', 'Download file'], ['Download file', 'Decompress'], ['Decompress', 'Extract From File']],
		last: 'Extract From File',
	});
	for (const compression of COMPRESSIONS) {
		const id = `benchHttp${compression}`;
		list.push({
			id,
			name: `HTTP Request only, ${compression}`,
			compression,
			kind: 'http',
			output: 'file',
			nodes: [webhookStart(id), download()],
			connections: [['Start', 'Download file']],
			last: 'Download file',
		});
	}
	return list;
}

/**
 * One n8n instance (a user folder with one build of the package installed), started per run or once.
 * @param {ReturnType<typeof ensureN8n>} runtime @param {string} folder @param {string} tarball
 * @param {object} server @param {ReturnType<typeof workflows>} flows @param {string} resultDir
 */
async function prepareInstance(runtime, folder, tarball, server, flows, resultDir) {
	const n8n = await N8nInstance.inFolder(runtime, folder, {
		env: {
			EXTERNAL_HOOK_FILES: path.join(path.dirname(resultDir), 'bench-hooks.js'),
			BENCH_RESULT_DIR: resultDir,
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none',
			EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'false',
			N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
			N8N_LOG_LEVEL: 'warn',
		},
	});
	installCommunityPackage(n8n.userFolder, tarball);
	await n8n.importCredentials([credentialRecord(server)]);
	const built = flows.map((flow) => buildWorkflow({ id: flow.id, name: flow.name, nodes: flow.nodes, connections: flow.connections }));
	await n8n.importWorkflows(built);
	for (const workflow of built) await n8n.activate(workflow.id);
	return n8n;
}

async function main() {
	const rowCounts = (stringOption('--rows') ?? '1000,1000000').split(',').map(Number);
	const runs = numberOption('--runs', 3);
	const majors = (stringOption('--n8n') ?? '2,1').split(',').map((value) => /** @type {1 | 2} */ (Number(value)));
	if (!fs.existsSync(path.join(ROOT, 'dist/nodes/Nexthink/export/NexthinkExport.node.js'))) {
		console.error('dist/ is missing: run `npm run build` first');
		process.exit(1);
	}
	const baseline = prepareBaseline(stringOption('--baseline'));
	const only = stringOption('--only')?.split(';');
	const { startNexthinkServer, generateDeviceRows, DEVICE_COLUMNS } = require(path.join(ROOT, 'test/server'));
	const client = require(path.join(ROOT, 'test/server/client'));
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexthink-side-by-side-'));
	const server = await startNexthinkServer({ maxRecordedRequests: 100, urlLifetimeSeconds: 7 * 24 * 3600 });
	try {
		const tarballs = { this: await packPackage(ROOT, path.join(workDir, 'pack-this')) };
		if (baseline) tarballs.before = await packPackage(baseline.dir, path.join(workDir, 'pack-before'));
		const resultDir = path.join(workDir, 'results');
		fs.mkdirSync(resultDir);
		fs.writeFileSync(path.join(workDir, 'bench-hooks.js'), HOOK_SOURCE);

		/** @type {Record<string, Record<string, string>>} results URLs by row count and compression */
		const urls = {};
		for (const rows of rowCounts) {
			const queryId = `#bench_inventory_${rows}`;
			server.addQuery({ id: queryId, header: DEVICE_COLUMNS, rows: () => generateDeviceRows(rows, 1), completeAfterPolls: 0, cacheFiles: true });
			urls[rows] = {};
			for (const compression of COMPRESSIONS) urls[rows][compression] = await resultsUrl(server, client, queryId, compression);
		}

		for (const major of majors) {
			const runtime = ensureN8n(major);
			const sections = [];
			const chosen = (/** @type {ReturnType<typeof workflows>} */ flows) => (only === undefined ? flows : flows.filter((flow) => only.some((part) => flow.name.includes(part))));
			const instances = [{ build: 'this', flows: chosen(workflows(false)) }].concat(baseline ? [{ build: 'before', flows: chosen(workflows(true)) }] : []);
			const prepared = [];
			for (const instance of instances) {
				const n8n = await prepareInstance(runtime, path.join(workDir, `n8n${major}-${instance.build}`), tarballs[instance.build], server, instance.flows, resultDir);
				prepared.push({ ...instance, n8n });
			}
			for (const rows of rowCounts) {
				const fresh = rows >= FRESH_PROCESS_FROM_ROWS;
				const loadBefore = loadAverage();
				console.log(`\nn8n ${runtime.version}, ${rows.toLocaleString('en-US')} rows × ${DEVICE_COLUMNS.length} columns, ${fresh ? runs : SMALL_ROUNDS_FACTOR * runs} rounds, ${fresh ? 'a fresh n8n process per run' : 'one running n8n process per build'}; load average ${loadBefore}`);
				/** @type {Record<string, { ms: number[], rss: number[], nodeMs: Record<string, number[]> }>} */
				const samples = {};
				if (!fresh) for (const { n8n } of prepared) await n8n.start();
				try {
					// Small exports take milliseconds: more rounds. Large ones: the download alone is timed for NONE.
					const rounds = fresh ? runs : SMALL_ROUNDS_FACTOR * runs;
					for (let round = fresh ? 0 : -1; round < rounds; round++) {
						// the builds take turns at going first, so neither always runs right after the other's workflows
						for (const { build, flows, n8n } of round % 2 === 0 ? prepared : [...prepared].reverse()) {
							for (const flow of flows) {
								if (fresh && flow.kind === 'http' && flow.compression !== 'NONE') continue;
								// a fresh n8n per run takes seconds: at large sizes the baseline runs its ZSTD workflows only
								if (fresh && build === 'before' && flow.compression !== 'ZSTD') continue;
								const result = await runOnce(n8n, flow, resultDir, urls[rows][flow.compression], fresh);
								const expected = flow.output === 'rows' ? rows : 1;
								const items = result.nodes[flow.last]?.items;
								if (result.error || items !== expected) {
									throw new Error(`${flow.name}: ${result.error ?? `${items} items, expected ${expected}`}\n${JSON.stringify(result.nodes, null, 2)}`);
								}
								if (round < 0) continue;
								const key = `${build}|${flow.name}`;
								const entry = (samples[key] ??= { ms: [], rss: [], nodeMs: {} });
								const timed = Object.entries(result.nodes).filter(([name]) => name !== 'Start');
								entry.ms.push(timed.reduce((sum, [, node]) => sum + node.executionTimeMs, 0));
								for (const [name, node] of timed) (entry.nodeMs[name] ??= []).push(node.executionTimeMs);
								entry.rss.push(result.peakRssMb);
								if (fresh) console.log(`  round ${round + 1}, ${build}, ${flow.name}: ${timed.map(([name, node]) => `${name} ${node.executionTimeMs} ms`).join(', ')}; peak RSS ${result.peakRssMb.toFixed(0)} MB`);
							}
						}
					}
				} finally {
					if (!fresh) for (const { n8n } of prepared) await n8n.stop('main');
				}
				const loadAfter = loadAverage();
				const section = summarize(samples, prepared, rows, fresh, baseline?.label);
				console.log(section);
				sections.push(
					`**n8n ${runtime.version} (Node ${major === 2 ? '24' : process.version.slice(1)}), ${rows.toLocaleString('en-US')} rows**, ${fresh ? runs : SMALL_ROUNDS_FACTOR * runs} rounds, ` +
						`${fresh ? 'each run a fresh n8n process' : 'in one running n8n process per build, after one unmeasured round'}; ` +
						`load average ${loadBefore} before, ${loadAfter} after:\n\n${section}`,
				);
			}
			if (process.argv.includes('--write-docs')) {
				const intro =
					`\`node test/bench/n8n-side-by-side.js --rows ${rowCounts.join(',')} --runs ${runs} --n8n ${major}${baseline ? ` --baseline ${baseline.label}` : ''}\`, ` +
					`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} CPUs, ${DEVICE_COLUMNS.length} columns (\`generateDeviceRows\`). ` +
					'Times are the nodes\' `executionTime` summed (the webhook excluded), medians. "÷ GZIP" compares with the GZIP workflow of the same output (its code is the same in both builds); ' +
					'"÷ HTTP only" with the HTTP Request alone downloading the same file; "DIY ÷ this" and "RSS ÷ DIY" with the do-it-yourself workflow of the same compression (GZIP for ZSTD, which n8n cannot decompress)' +
					(baseline ? `; "before" rows are commit ${baseline.label}` : '') +
					'.';
				writeDocsSection(`n8n-side-by-side-${major}`, `${intro}\n\n${sections.join('\n\n')}`);
			}
		}
	} finally {
		await server.close();
		if (!process.argv.includes('--keep')) fs.rmSync(workDir, { recursive: true, force: true });
		else console.log(`kept ${workDir}`);
	}
}

/**
 * The markdown table of one row count on one n8n.
 * @param {Record<string, { ms: number[], rss: number[], nodeMs: Record<string, number[]> }>} samples
 * @param {Array<{ build: string, flows: ReturnType<typeof workflows> }>} prepared
 * @param {number} rows @param {boolean} fresh @param {string | undefined} baselineLabel
 */
function summarize(samples, prepared, rows, fresh, baselineLabel) {
	const median = (/** @type {string} */ key) => medianOf(samples[key].ms);
	const rss = (/** @type {string} */ key) => medianOf(samples[key].rss);
	const table = [];
	for (const { build, flows } of prepared) {
		for (const flow of flows) {
			const key = `${build}|${flow.name}`;
			if (!samples[key]) continue; // not run at this size
			const ms = median(key);
			const gzipName = flow.kind === 'node' ? `Export node, GZIP, ${flow.output === 'rows' ? 'Rows' : 'File'}` : flow.kind === 'diy' ? 'Do it yourself, GZIP' : 'HTTP Request only, GZIP';
			const gzipKey = `this|${gzipName}`;
			const httpKey = `this|HTTP Request only, ${flow.compression}`;
			const diyKey = `this|Do it yourself, ${flow.compression === 'NONE' ? 'NONE' : 'GZIP'}`;
			const parts = Object.keys(samples[key].nodeMs).length > 1
				? Object.entries(samples[key].nodeMs).map(([name, values]) => `${name} ${formatMs(medianOf(values))}`).join(' + ')
				: '';
			table.push([
				build === 'this' ? flow.name : `${flow.name}, *before (${baselineLabel})*`,
				`${formatMs(ms)}${parts ? ` (${parts})` : ''}`,
				flow.output === 'rows' ? Math.round(rows / (ms / 1000)).toLocaleString('en-US') : '',
				fresh ? rss(key).toFixed(0) : '',
				samples[gzipKey] && gzipKey !== key ? (ms / median(gzipKey)).toFixed(2) : '',
				samples[httpKey] && flow.kind !== 'http' ? (ms / median(httpKey)).toFixed(2) : '',
				flow.kind === 'node' && flow.output === 'rows' && samples[diyKey] ? `**${(median(diyKey) / ms).toFixed(2)}**` : '',
				flow.kind === 'node' && flow.output === 'rows' && samples[diyKey] && fresh ? `**${(rss(key) / rss(diyKey)).toFixed(2)}**` : '',
			]);
		}
	}
	return markdownTable(['workflow', 'time (median)', 'rows/s', 'n8n peak RSS MB', '÷ GZIP', '÷ HTTP only', 'DIY ÷ this', 'RSS ÷ DIY'], table, 'lrrrrrrr');
}

/** @param {number} ms */
function formatMs(ms) {
	return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

/**
 * One measured run: the webhook called with the results URL, the hook's record awaited; with `fresh`,
 * in an n8n process started for it and stopped after.
 * @param {N8nInstance} n8n @param {{ id: string, name: string }} flow @param {string} resultDir @param {string} url @param {boolean} fresh
 */
async function runOnce(n8n, flow, resultDir, url, fresh) {
	for (const file of fs.readdirSync(resultDir)) fs.rmSync(path.join(resultDir, file));
	if (fresh) await n8n.start();
	try {
		const answer = await n8n.callWebhook(flow.id, { url });
		if (answer.status !== 200) throw new Error(`${flow.name}: webhook answered ${answer.status}`);
		const deadline = Date.now() + 10 * 60_000;
		for (;;) {
			const [file] = fs.readdirSync(resultDir);
			if (file) {
				await sleep(200); // the hook writes the file in one call; let it finish
				return JSON.parse(fs.readFileSync(path.join(resultDir, file), 'utf8'));
			}
			if (Date.now() > deadline) throw new Error(`${flow.name}: no result after 10 minutes\n${n8n.logOf('main').slice(-3000)}`);
			await sleep(fresh ? 250 : 20);
		}
	} finally {
		if (fresh) await n8n.stop('main');
	}
}

/** Runs one export with a bare client and downloads its file once (building the server's cache); returns its results URL. */
async function resultsUrl(server, client, queryId, compression) {
	const token = await client.fetchToken(server);
	const { status } = await client.runExport(server, token, { queryId, compression });
	const response = await fetch(status.resultsFileUrl);
	await response.arrayBuffer();
	return status.resultsFileUrl;
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
