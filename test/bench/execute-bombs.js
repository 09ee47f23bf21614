// @ts-check
/**
 * Execute Query answers that inflate: peak memory and time until a ~2 MB answer
 * sent with `Content-Encoding: gzip` fails, through the COMPILED Export node run by n8n-core 2.x's
 * real engine (test/helpers/harness.ts) against the local API server (test/server), which serves the
 * bomb as the execute answer.
 *
 * Usage: npm run build && node test/bench/execute-bombs.js [--dist <dir>] [--heap-mb 1024]
 * `--dist` measures another build (e.g. an older commit's, in a temporary clone) for a before/after
 * table. Each case runs in a fresh worker process with `--max-old-space-size=<heap-mb>` (1 GiB by
 * default, like a small n8n container); reported: the outcome (the error's first words, "ok" or how
 * the worker died), wall time, and the worker's peak RSS (`maxRSS`) above its RSS before the run.
 *
 *   json-text     {"data":[{"device.name":"  then 2 GiB of 'x' (one JSON string)
 *   json-objects  {"data":[  then 64 MB of `{},` (21M empty objects)
 *   csv-rows      a CSV header, then 512 MB of `PC-1,fine` rows
 */
const path = require('node:path');
const { registerTypeScript, runBenchmarkScript, runWorker } = require('./benchUtils');

const ROOT = path.join(__dirname, '../..');
const MB = 1024 * 1024;

runBenchmarkScript(worker, main);

/** @param {{ nodeFile: string, credentials: object, executeOptions: object }} args */
async function worker(args) {
	registerTypeScript();
	const { runNode, disposeHarness } = require(path.join(ROOT, 'test/helpers/harness.ts'));
	const { NexthinkExport } = require(args.nodeFile);
	const rssBefore = process.memoryUsage().rss;
	const started = process.hrtime.bigint();
	const result = await runNode({
		nodeType: new NexthinkExport(),
		parameters: { operation: 'executeQuery', queryId: 'devices', options: args.executeOptions },
		credentials: { nexthinkApi: args.credentials },
	});
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	disposeHarness();
	const outcome = result.error ? String(result.error.message).slice(0, 110) : `ok, ${result.items.length} items`;
	return { outcome, seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, rssBeforeMb: rssBefore / MB };
}

async function main() {
	registerTypeScript();
	const { gzipBomb } = require(path.join(ROOT, 'test/helpers/bombs.ts'));
	const { startNexthinkServer } = require(path.join(ROOT, 'test/server'));
	const { credentialData } = require(path.join(ROOT, 'test/server/client'));
	const distIndex = process.argv.indexOf('--dist');
	const dist = path.resolve(distIndex === -1 ? path.join(ROOT, 'dist') : process.argv[distIndex + 1]);
	const heapIndex = process.argv.indexOf('--heap-mb');
	const heapMb = heapIndex === -1 ? 1024 : Number(process.argv[heapIndex + 1]);
	const nodeFile = path.join(dist, 'nodes/Nexthink/export/NexthinkExport.node.js');

	const cases = [
		['json-text', 'application/json', gzipBomb(Buffer.alloc(16 * MB, 'x'), 128, '{"data":[{"device.name":"'), {}],
		['json-objects', 'application/json', gzipBomb(Buffer.from('{},'.repeat(MB)), 21, '{"data":['), {}],
		['csv-rows', 'text/csv', gzipBomb(Buffer.from('PC-1,fine\n'.repeat(1600 * 1024)), 32, 'device.name,device.note\n'), { responseFormat: 'csv' }],
	];
	const server = await startNexthinkServer();
	server.addQuery({ id: '#devices', header: ['device.name'], rows: [['PC-1']] });
	const credentials = credentialData(server);
	console.log(`build: ${dist}; heap ${heapMb} MB; Node ${process.version}`);
	console.log('| case | answer, MB sent | outcome | wall s | peak RSS above before, MB |');
	console.log('|---|---|---|---|---|');
	for (const [name, contentType, bomb, executeOptions] of cases) {
		server.clearFaults();
		server.injectFault({ method: 'POST', path: '/api/v2/nql/execute', times: Infinity, status: 200, contentType, headers: { 'content-encoding': 'gzip' }, body: bomb });
		const sent = (bomb.length / MB).toFixed(1);
		try {
			const r = await runWorker(__filename, { nodeFile, credentials, executeOptions }, name, heapMb);
			console.log(`| ${name} | ${sent} | ${r.outcome} | ${r.seconds.toFixed(1)} | ${Math.round(r.maxRssMb - r.rssBeforeMb)} |`);
		} catch (error) {
			const text = String(/** @type {Error} */ (error).message);
			const died = /heap out of memory|Invalid string length|Cannot create a string/.exec(text)?.[0] ?? (/failed \(null\)/.test(text) ? 'killed by a signal' : text.split('\n')[0].slice(0, 80));
			console.log(`| ${name} | ${sent} | worker died: ${died} | - | - |`);
		}
	}
	await server.close();
}
