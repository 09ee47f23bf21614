// @ts-check
/**
 * Peak memory of Output "File": Download Results by URL of a large results file
 * through the COMPILED node run by n8n-core 2.x's real engine (test/helpers/harness.ts), with n8n's
 * binary data in `filesystem` mode (2.x's default outside queue mode: the file goes to disk) and in
 * the in-memory `default` mode (what the harness uses when binary data is not initialised, and 1.x's
 * default).
 *
 * Usage: npm run build && node test/bench/file-output.js [--mb 2048] [--dist <dir>] [--modes filesystem,default]
 * `--dist` measures another build (e.g. main's, in a temporary clone) for a before/after table.
 *
 * The file is served by a plain HTTP server in the main process, generated as it is sent (a gzip
 * magic number, then a repeated 64 KiB block), so neither side holds it. Each case runs in a fresh
 * worker process (`--max-old-space-size=4096`); reported: its peak RSS (`maxRSS`), its RSS before the
 * run, and the stored file's size.
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { numberOption, registerTypeScript, runBenchmarkScript, runWorker } = require('./benchUtils');

const ROOT = path.join(__dirname, '../..');

runBenchmarkScript(worker, main);

/** @param {{ url: string, nodeFile: string, mode: string, storage: string }} args */
async function worker(args) {
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	process.env.N8N_STORAGE_PATH = args.storage;
	process.env.N8N_USER_FOLDER = args.storage;
	registerTypeScript();
	const { runNode, disposeHarness } = require(path.join(ROOT, 'test/helpers/harness.ts'));
	if (args.mode === 'filesystem') {
		const corePackage = require.resolve('n8n-core/package.json');
		const { Container } = require(require.resolve('@n8n/di', { paths: [path.dirname(corePackage)] }));
		const { BinaryDataService } = require('n8n-core');
		await Container.get(BinaryDataService).init();
	}
	const { NexthinkExport } = require(args.nodeFile);
	const rssBefore = process.memoryUsage().rss;
	const started = process.hrtime.bigint();
	const result = await runNode({
		nodeType: new NexthinkExport(),
		parameters: { operation: 'downloadResults', resultsSource: 'url', resultsFileUrl: args.url, options: { output: 'file', requestTimeoutSeconds: 3600 } },
		credentials: { nexthinkApi: { useCustomUrls: true, apiBaseUrl: 'http://127.0.0.1:1', tokenUrl: 'http://127.0.0.1:1/token', clientId: 'x', clientSecret: 'y' } },
	});
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	disposeHarness();
	if (result.error) return { error: String(result.error.message).slice(0, 120), seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, rssBeforeMb: rssBefore / 1048576 };
	const binary = result.items[0].binary.data;
	return { seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, rssBeforeMb: rssBefore / 1048576, bytes: binary.bytes ?? null, stored: binary.id ? 'by id' : 'inline' };
}

async function main() {
	const mb = numberOption('--mb', 2048);
	const distIndex = process.argv.indexOf('--dist');
	const dist = path.resolve(distIndex === -1 ? path.join(ROOT, 'dist') : process.argv[distIndex + 1]);
	const nodeFile = path.join(dist, 'nodes/Nexthink/export/NexthinkExport.node.js');
	if (!fs.existsSync(nodeFile)) {
		console.error(`${nodeFile} is missing: build first`);
		process.exit(1);
	}
	const block = Buffer.alloc(64 * 1024, 0x61);
	const server = http.createServer(async (_req, res) => {
		res.writeHead(200, { 'content-type': 'application/gzip' });
		res.write(Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
		for (let sent = 0; sent < mb * 16; sent++) {
			if (!res.write(block)) await new Promise((resolve) => res.once('drain', resolve));
		}
		res.end();
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	const url = `http://127.0.0.1:${address.port}/files/bench.csv.gz`;
	console.log(`build: ${dist}; file ${mb} MB; Node ${process.version}`);
	console.log('| binary data mode | outcome | wall s | RSS before, MB | peak RSS, MB | peak above before, MB |');
	console.log('|---|---|---|---|---|---|');
	const modesIndex = process.argv.indexOf('--modes');
	const modes = modesIndex === -1 ? ['filesystem', 'default'] : process.argv[modesIndex + 1].split(',');
	for (const mode of modes) {
		const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'nexthink-file-bench-'));
		try {
			const r = await runWorker(__filename, { url, nodeFile, mode, storage }, mode);
			const outcome = r.error ? `error: ${r.error}` : `ok, ${r.bytes === null ? '?' : Math.round(r.bytes / 1048576)} MB stored ${r.stored}`;
			console.log(`| ${mode} | ${outcome} | ${r.seconds.toFixed(1)} | ${Math.round(r.rssBeforeMb)} | ${Math.round(r.maxRssMb)} | ${Math.round(r.maxRssMb - r.rssBeforeMb)} |`);
		} catch (error) {
			console.log(`| ${mode} | worker failed: ${String(/** @type {Error} */ (error).message).split('\n')[0].slice(0, 100)} | - | - | - | - |`);
		} finally {
			fs.rmSync(storage, { recursive: true, force: true });
		}
	}
	server.close();
}
