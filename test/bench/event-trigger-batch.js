// @ts-check
/**
 * A data exporter batch into items, in real n8n: the same 100,000-row batch (15 device columns, as
 * an object with one array of records, about 59 MB) posted to
 * - the **Nexthink Event Trigger** (Data Exporter): one item per row straight from the trigger;
 * - n8n's **Webhook** node + **Split Out** (`body.records`): what a user builds without this package.
 * Both followed by a No Operation node named `Rows`, in the same pinned n8n 2.x.
 *
 * Usage: npm run build && node test/bench/event-trigger-batch.js [--rows N] [--runs N]
 *
 * Each run is a fresh `n8n start` (so the process's peak RSS is that run's own) with
 * `N8N_PAYLOAD_SIZE_MAX=64` and executions not saved (n8nRuns.js). Time is measured from the first
 * byte sent to the moment n8n's `workflow.postExecute` hook has run, i.e. upload, body reading and
 * parsing, the split, and the workflow; the hook records the process's peak RSS and each node's
 * item count (`Rows` must hold every row). The two workflows run interleaved; medians.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { medianOf, numberOption } = require('./benchUtils');
const { ensureN8n } = require('../../scripts/n8n-install');
const { packPackage, sleep } = require('../../scripts/n8n-instance');
const { awaitRunRecord, benchN8n, clearRunRecords } = require('./n8nRuns');
const { buildWorkflow, noOpNode, uuid } = require('../e2e/lib/workflow');
const { exporterBody, exporterRows, send } = require('../server/outbound');

const ROOT = path.join(__dirname, '../..');

const TRIGGER = {
	id: 'benchEventTrigger',
	name: 'Nexthink Event Trigger',
	path: 'bench-event-trigger',
	nodes: [
		{
			name: 'Start',
			type: 'n8n-nodes-nexthink.nexthinkEventTrigger',
			typeVersion: 1,
			webhookId: uuid('bench-event-trigger'),
			parameters: { mode: 'dataExporter', authentication: 'none', path: 'bench-event-trigger' },
		},
		noOpNode('Rows'),
	],
	connections: /** @type {[string, string][]} */ ([['Start', 'Rows']]),
};

const WEBHOOK_SPLIT = {
	id: 'benchWebhookSplit',
	name: 'Webhook + Split Out',
	path: 'bench-webhook-split',
	nodes: [
		{
			name: 'Start',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: uuid('bench-webhook-split'),
			parameters: { httpMethod: 'POST', path: 'bench-webhook-split', responseMode: 'onReceived', options: {} },
		},
		{ name: 'Split Out', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'body.records', include: 'noOtherFields', options: {} } },
		noOpNode('Rows'),
	],
	connections: /** @type {[string, string][]} */ ([
		['Start', 'Split Out'],
		['Split Out', 'Rows'],
	]),
};

async function main() {
	const rows = numberOption('--rows', 100_000);
	const runs = numberOption('--runs', 3);
	if (!fs.existsSync(path.join(ROOT, 'dist/nodes/Nexthink/eventTrigger/NexthinkEventTrigger.node.js'))) {
		console.error('dist/ is missing: run `npm run build` first');
		process.exit(1);
	}
	const runtime = ensureN8n(2);
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexthink-event-trigger-bench-'));
	try {
		const body = Buffer.from([...exporterBody('records', exporterRows(rows, 11), { properties: { exporter: 'bench' } })].join(''));
		const tarball = await packPackage(ROOT, path.join(workDir, 'pack'));
		const { n8n, resultDir } = await benchN8n(runtime, workDir, tarball, { N8N_PAYLOAD_SIZE_MAX: '64' });
		const workflows = [TRIGGER, WEBHOOK_SPLIT];
		await n8n.importWorkflows(workflows.map((workflow) => buildWorkflow(workflow)));
		for (const workflow of workflows) await n8n.activate(workflow.id);

		console.log(
			`n8n ${runtime.version}, ${os.cpus().length} CPUs; ${rows.toLocaleString('en-US')} rows × 15 columns, ${(body.length / 1024 / 1024).toFixed(1)} MB; ` +
				`median of ${runs} runs, each in a fresh n8n process\n`,
		);
		/** @type {Record<string, { ms: number[], rss: number[], splitMs: number[] }>} */
		const samples = {};
		for (let run = 0; run < runs; run++) {
			for (const workflow of workflows) {
				const result = await runOnce(n8n, workflow, body, resultDir);
				if (result.error || result.nodes.Rows?.items !== rows) throw new Error(`${workflow.name}: ${result.error ?? `${result.nodes.Rows?.items} items for ${rows} rows`}`);
				const entry = (samples[workflow.name] ??= { ms: [], rss: [], splitMs: [] });
				entry.ms.push(result.ms);
				entry.rss.push(result.peakRssMb);
				entry.splitMs.push(result.nodes['Split Out']?.executionTimeMs ?? 0);
				console.log(`  run ${run + 1}, ${workflow.name}: ${(result.ms / 1000).toFixed(2)} s to the last item, peak RSS ${result.peakRssMb.toFixed(0)} MB`);
			}
		}
		const base = samples[WEBHOOK_SPLIT.name];
		/** @type {Record<string, Record<string, string>>} */
		const table = {};
		for (const [name, entry] of Object.entries(samples)) {
			table[name] = {
				'sent → items s': (medianOf(entry.ms) / 1000).toFixed(2),
				'Split Out s': (medianOf(entry.splitMs) / 1000).toFixed(2),
				'n8n peak RSS MB': medianOf(entry.rss).toFixed(0),
				'Webhook+Split time ÷ this': (medianOf(base.ms) / medianOf(entry.ms)).toFixed(2),
				'this RSS ÷ Webhook+Split': (medianOf(entry.rss) / medianOf(base.rss)).toFixed(2),
			};
		}
		console.table(table);
	} finally {
		if (!process.argv.includes('--keep')) fs.rmSync(workDir, { recursive: true, force: true });
		else console.log(`kept ${workDir}`);
	}
}

/**
 * One measured run: a fresh `n8n start`, the batch posted, the hook's record awaited.
 * @param {import('../../scripts/n8n-instance').N8nInstance} n8n @param {{ id: string, name: string, path: string }} workflow @param {Buffer} body @param {string} resultDir
 */
async function runOnce(n8n, workflow, body, resultDir) {
	await n8n.start();
	try {
		const url = `${n8n.baseUrl}/webhook/${workflow.path}`;
		for (let attempt = 0; (await send({ url, method: 'POST', body: '{"probe":true}' })).status === 404 && attempt < 240; attempt++) await sleep(500);
		clearRunRecords(resultDir);
		const started = Date.now();
		const answer = await send({ url, method: 'POST', body });
		if (answer.status !== 200) throw new Error(`${workflow.name}: answered ${answer.status} ${answer.text.slice(0, 200)}`);
		// the probe's run (one item) may end after the batch was sent
		const record = await awaitRunRecord(n8n, resultDir, workflow.name, (result) => (result.nodes.Rows?.items ?? 0) > 1);
		return { ...record, ms: record.endedAt - started };
	} finally {
		await n8n.stop('main');
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
