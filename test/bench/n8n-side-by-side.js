// @ts-check
/**
 * Real n8n, side by side: the same 1,000,000-row export done by the Nexthink Export node
 * and by the do-it-yourself workflow a user would build without this package (HTTP Request for the
 * token, HTTP Request to start, a Wait → HTTP Request → IF polling loop, HTTP Request downloading
 * the file, Extract From File parsing the CSV), in the same pinned n8n 2.x.
 *
 * Usage: npm run build && node test/bench/n8n-side-by-side.js [--rows N] [--runs N]
 *
 * Each run is a fresh `n8n start` (so the process's peak RSS is that run's own) with the packed
 * package installed as a community package; the workflow is started by its webhook (answering at
 * once). An external hook file (n8n's `EXTERNAL_HOOK_FILES`, hook `workflow.postExecute`) records,
 * inside the n8n process, every node's `executionTime` (summed over its runs) and item count and the
 * process's peak RSS, then the process is stopped. Executions are not saved
 * (`EXECUTIONS_DATA_SAVE_ON_SUCCESS=none`), as a production instance running such exports would do.
 *
 * Both sides wait 1 s before the first status check, and the export completes at once, so waiting
 * is the same small share on both. The local server builds each file once and serves it from memory
 * (`cacheFiles`), so its CSV and compression work does not compete with n8n on the same cores.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { medianOf, numberOption } = require('./benchUtils');
const { ensureN8n } = require('../../scripts/n8n-install');
const { packPackage } = require('../../scripts/n8n-instance');
const { awaitRunRecord, benchN8n, clearRunRecords } = require('./n8nRuns');
const { credentialRecord } = require('../../scripts/n8n-examples');
const { buildWorkflow, exportNode, ifEqualsNode, uuid, waitNode } = require('../e2e/lib/workflow');

const ROOT = path.join(__dirname, '../..');
const QUERY_ID = '#bench_inventory';

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

/** @param {string} compression */
function nodeWorkflow(compression) {
	const id = `benchNode${compression}`;
	return buildWorkflow({
		id,
		name: `Export node, ${compression}`,
		nodes: [
			webhookStart(id),
			exportNode('Nexthink Export', { queryId: QUERY_ID, compression, options: { firstPollSeconds: 1 } }),
		],
		connections: [['Start', 'Nexthink Export']],
	});
}

/**
 * The do-it-yourself workflow, as a user would build it from n8n's documentation.
 * @param {{ baseUrl: string, tokenUrl: string, clientId: string, clientSecret: string }} server
 * @param {string} scope  the token scope the API asks for
 */
function diyWorkflow(server, scope) {
	const id = 'benchDiyNONE';
	const basic = Buffer.from(`${server.clientId}:${server.clientSecret}`).toString('base64');
	const bearer = { name: 'Authorization', value: "=Bearer {{ $('Get token').first().json.access_token }}" };
	/** @param {string} name @param {object} parameters */
	const http = (name, parameters) => ({ name, type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, parameters: { options: {}, ...parameters } });
	return buildWorkflow({
		id,
		name: 'Do it yourself, NONE',
		nodes: [
			webhookStart(id),
			http('Get token', {
				method: 'POST',
				url: server.tokenUrl,
				sendHeaders: true,
				headerParameters: { parameters: [{ name: 'Authorization', value: `Basic ${basic}` }] },
				sendBody: true,
				contentType: 'form-urlencoded',
				bodyParameters: { parameters: [{ name: 'grant_type', value: 'client_credentials' }, { name: 'scope', value: scope }] },
			}),
			http('Start export', {
				url: `${server.baseUrl}/api/v1/nql/export`,
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'queryId', value: QUERY_ID }, { name: 'compression', value: 'NONE' }] },
				sendHeaders: true,
				headerParameters: { parameters: [bearer] },
			}),
			waitNode('Wait', 1),
			http('Get status', {
				url: `=${server.baseUrl}/api/v1/nql/status/{{ $('Start export').first().json.exportId }}`,
				sendHeaders: true,
				headerParameters: { parameters: [bearer] },
			}),
			ifEqualsNode('Completed?', '={{ $json.status }}', 'COMPLETED'),
			http('Download file', { url: '={{ $json.resultsFileUrl }}', options: { response: { response: { responseFormat: 'file' } } } }),
			{ name: 'Extract From File', type: 'n8n-nodes-base.extractFromFile', typeVersion: 1.1, parameters: { operation: 'csv', options: {} } },
		],
		connections: [
			['Start', 'Get token'],
			['Get token', 'Start export'],
			['Start export', 'Wait'],
			['Wait', 'Get status'],
			['Get status', 'Completed?'],
			['Completed?', 'Download file', 0],
			['Completed?', 'Wait', 1],
			['Download file', 'Extract From File'],
		],
	});
}

async function main() {
	const rows = numberOption('--rows', 1_000_000);
	const runs = numberOption('--runs', 3);
	if (!fs.existsSync(path.join(ROOT, 'dist/nodes/Nexthink/export/NexthinkExport.node.js'))) {
		console.error('dist/ is missing: run `npm run build` first');
		process.exit(1);
	}
	const { startNexthinkServer, generateDeviceRows, DEVICE_COLUMNS } = require(path.join(ROOT, 'test/server'));
	const { REQUIRED_SCOPE } = require(path.join(ROOT, 'test/server/tokens'));
	const client = require(path.join(ROOT, 'test/server/client'));
	const runtime = ensureN8n(2);
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexthink-side-by-side-'));
	const server = await startNexthinkServer({ maxRecordedRequests: 100 });
	try {
		server.addQuery({ id: QUERY_ID, header: DEVICE_COLUMNS, rows: () => generateDeviceRows(rows, 1), completeAfterPolls: 0, cacheFiles: true });
		for (const compression of ['NONE', 'GZIP']) await buildFileOnce(server, client, compression);

		const tarball = await packPackage(ROOT, path.join(workDir, 'pack'));
		const { n8n, resultDir } = await benchN8n(runtime, workDir, tarball);
		await n8n.importCredentials([credentialRecord(server)]);
		const workflows = [nodeWorkflow('GZIP'), nodeWorkflow('NONE'), diyWorkflow(server, REQUIRED_SCOPE)];
		await n8n.importWorkflows(workflows);
		for (const workflow of workflows) await n8n.activate(workflow.id);

		console.log(`n8n ${runtime.version} on Node ${runtime.node === process.execPath ? process.version : '24'}, ${os.cpus().length} CPUs; ` +
			`${rows.toLocaleString('en-US')} rows × ${DEVICE_COLUMNS.length} columns; median of ${runs} runs, each in a fresh n8n process\n`);
		/** @type {Record<string, { workflowMs: number[], downloadAndParseMs: number[], peakRssMb: number[] }>} */
		const samples = {};
		for (let run = 0; run < runs; run++) {
			// interleaved, so that changing load on the machine spreads over all three
			for (const workflow of workflows) {
				const result = await runOnce(n8n, workflow, resultDir);
				const itemsOut = workflow.id.startsWith('benchDiy') ? result.nodes['Extract From File']?.items : result.nodes['Nexthink Export']?.items;
				if (result.error || itemsOut !== rows) {
					throw new Error(`${workflow.name}: ${result.error ?? `${itemsOut} items for ${rows} rows`}\n${JSON.stringify(result.nodes, null, 2)}`);
				}
				const entry = (samples[workflow.name] ??= { workflowMs: [], downloadAndParseMs: [], peakRssMb: [] });
				const timed = Object.entries(result.nodes).filter(([name]) => name !== 'Start');
				entry.workflowMs.push(timed.reduce((sum, [, node]) => sum + node.executionTimeMs, 0));
				entry.downloadAndParseMs.push(
					timed.filter(([name]) => ['Nexthink Export', 'Download file', 'Extract From File'].includes(name)).reduce((sum, [, node]) => sum + node.executionTimeMs, 0),
				);
				entry.peakRssMb.push(result.peakRssMb);
				console.log(`  run ${run + 1}, ${workflow.name}: ${Object.entries(result.nodes).map(([name, node]) => `${name} ${node.executionTimeMs} ms×${node.runs}`).join(', ')}; peak RSS ${result.peakRssMb.toFixed(0)} MB`);
			}
		}
		const diy = samples['Do it yourself, NONE'];
		const diyMs = medianOf(diy.workflowMs);
		const diyRss = medianOf(diy.peakRssMb);
		/** @type {Record<string, Record<string, string>>} */
		const table = {};
		for (const [name, entry] of Object.entries(samples)) {
			const ms = medianOf(entry.workflowMs);
			const rss = medianOf(entry.peakRssMb);
			table[name] = {
				'nodes s (sum)': (ms / 1000).toFixed(2),
				'download+parse s': (medianOf(entry.downloadAndParseMs) / 1000).toFixed(2),
				'rows/s': Math.round(rows / (ms / 1000)).toLocaleString('en-US'),
				'n8n peak RSS MB': rss.toFixed(0),
				'DIY time ÷ this': (diyMs / ms).toFixed(2),
				'this RSS ÷ DIY': (rss / diyRss).toFixed(2),
			};
		}
		console.table(table);
	} finally {
		await server.close();
		if (!process.argv.includes('--keep')) fs.rmSync(workDir, { recursive: true, force: true });
		else console.log(`kept ${workDir}`);
	}
}

/**
 * One measured run: a fresh `n8n start`, the workflow's webhook called, the hook's record awaited.
 * @param {import('../../scripts/n8n-instance').N8nInstance} n8n @param {{ id: string, name: string }} workflow @param {string} resultDir
 */
async function runOnce(n8n, workflow, resultDir) {
	clearRunRecords(resultDir);
	await n8n.start();
	try {
		const answer = await n8n.callWebhook(workflow.id);
		if (answer.status !== 200) throw new Error(`${workflow.name}: webhook answered ${answer.status}`);
		return await awaitRunRecord(n8n, resultDir, workflow.name);
	} finally {
		await n8n.stop('main');
	}
}

/** Starts one export per compression with a bare client and downloads it, so the server's file cache is built outside the runs. */
async function buildFileOnce(server, client, compression) {
	const token = await client.fetchToken(server);
	const { status } = await client.runExport(server, token, { queryId: QUERY_ID, compression });
	const response = await fetch(status.resultsFileUrl);
	await response.arrayBuffer();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
