// @ts-check
/**
 * Benchmark of the Enrichment node: time and peak memory to enrich N items (default 100,000) against
 * the local Nexthink server, beside the same requests sent by a bare HTTP client.
 *
 * Usage: npx tsc -p tsconfig.json && node test/bench/enrichment.js [--items N] [--runs N] [--batch N]
 *
 * The server runs in this process with N devices and the `#tier` custom field. Each measured run is
 * a fresh Node process (so peak RSS is its own) in one of these modes:
 * - `node-auto`:   the COMPILED node from dist/ run through n8n-core's real engine (test/helpers/harness.ts,
 *                  transpiled on load), "Map Automatically From Input": one expression per item;
 * - `node-manual`: the same with "Map Each Field" (identification + two field expressions per item);
 * - `modules`:     the node's own pure code path from dist/ (identification, auto-mapping, batching,
 *                  request bodies) without n8n, sending with fetch: what the node costs apart from n8n;
 * - `fetch`:       a bare client: builds the request bodies straight from the data and POSTs them with fetch.
 * All modes send the same batches one after the other, with a token from the same token endpoint.
 * Medians of `--runs` runs.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { medianOf, numberOption, registerTypeScript, runBenchmarkScript, runWorker } = require('./benchUtils');

const ROOT = path.join(__dirname, '../..');
const DIST = path.join(ROOT, 'dist/nodes/Nexthink/enrichment');
const MODES = ['node-auto', 'node-manual', 'modules', 'fetch'];

runBenchmarkScript(worker, main);

/**
 * @typedef {{ mode: string, items: number, batchSize: number, baseUrl: string, tokenUrl: string, clientId: string, clientSecret: string }} WorkerArgs
 * @typedef {{ seconds: number, maxRssMb: number, applied: number }} WorkerResult
 */

/** @param {number} count */
function inputRows(count) {
	const rows = new Array(count);
	for (let i = 0; i < count; i++) {
		rows[i] = {
			'device.name': `BENCH-${i}`,
			'device.#tier': `tier-${i % 5}`,
			'device.virtualization.desktop_pool': `pool-${i % 20}`,
		};
	}
	return rows;
}

/**
 * @param {WorkerArgs} args
 * @returns {Promise<WorkerResult>}
 */
async function worker(args) {
	const rows = inputRows(args.items);
	const started = process.hrtime.bigint();
	const outcome = args.mode.startsWith('node') ? await runThroughN8n(args, rows) : await runWithFetch(args, rows);
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	return { seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, ...outcome };
}

/**
 * @param {WorkerArgs} args
 * @param {Array<Record<string, string>>} rows
 */
async function runThroughN8n(args, rows) {
	registerTypeScript();
	const { runNode, disposeHarness, nexthinkCredentials } = require(path.join(ROOT, 'test/helpers/harness.ts'));
	const { NexthinkEnrichment } = require(path.join(DIST, 'NexthinkEnrichment.node.js'));
	const common = { objectType: 'device', identifyBy: 'name', identificationValue: '={{ $json["device.name"] }}', domain: 'bench' };
	const parameters =
		args.mode === 'node-auto'
			? { ...common, mappingMode: 'autoMapInputData', options: { batchSize: args.batchSize } }
			: {
					...common,
					mappingMode: 'defineBelow',
					deviceFields: {
						fieldValues: [
							{ field: 'customField', customFieldId: '#tier', value: '={{ $json["device.#tier"] }}' },
							{ field: 'virtualization/desktop_pool', value: '={{ $json["device.virtualization.desktop_pool"] }}' },
						],
					},
					options: { batchSize: args.batchSize },
				};
	const result = await runNode({
		nodeType: new NexthinkEnrichment(),
		parameters,
		items: rows.map((json) => ({ json })),
		credentials: {
			nexthinkApi: nexthinkCredentials(args),
		},
	});
	disposeHarness();
	if (result.error) throw new Error(`node run failed: ${result.error.message}`);
	const applied = result.items.filter((/** @type {any} */ item) => item.json.enrichment.applied === true).length;
	return { applied };
}

/**
 * @param {WorkerArgs} args
 * @param {Array<Record<string, string>>} rows
 */
async function runWithFetch(args, rows) {
	const token = await fetchToken(args);
	const bodies = args.mode === 'modules' ? bodiesFromNodeModules(rows, args.batchSize) : bodiesByHand(rows, args.batchSize);
	let applied = 0;
	for (const body of bodies()) {
		const response = await fetch(`${args.baseUrl}/api/v1/enrichment/data/fields`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
			body: JSON.stringify(body),
		});
		await response.json();
		if (response.status !== 200) throw new Error(`enrichment answered ${response.status}`);
		applied += body.enrichments.length;
	}
	return { applied };
}

/** The bare client: one enrichment per row, fields named by hand. */
function bodiesByHand(/** @type {Array<Record<string, string>>} */ rows, /** @type {number} */ batchSize) {
	return function* () {
		for (let start = 0; start < rows.length; start += batchSize) {
			yield {
				domain: 'bench',
				enrichments: rows.slice(start, start + batchSize).map((row) => ({
					identification: [{ name: 'device/device/name', value: row['device.name'] }],
					fields: [
						{ name: 'device/device/#tier', value: row['device.#tier'] },
						{ name: 'device/device/virtualization/desktop_pool', value: row['device.virtualization.desktop_pool'] },
					],
				})),
			};
		}
	};
}

/** The node's own modules from dist/, as its execute() uses them, minus n8n. */
function bodiesFromNodeModules(/** @type {Array<Record<string, string>>} */ rows, /** @type {number} */ batchSize) {
	const { createKeyResolver } = require(path.join(DIST, 'fieldCatalogue.js'));
	const { fieldsFromInput, prepareIdentification } = require(path.join(DIST, 'itemPreparation.js'));
	const { buildBatches, requestBody } = require(path.join(DIST, 'api.js'));
	const resolveKey = createKeyResolver('device');
	const context = { timezone: 'UTC' };
	const prepared = rows.map((row, itemIndex) => ({
		itemIndex,
		identification: prepareIdentification('device', 'name', row['device.name']),
		fields: fieldsFromInput('device', row, resolveKey, context).fields,
	}));
	const batches = buildBatches(prepared, batchSize);
	return function* () {
		for (const batch of batches) yield requestBody(batch, 'bench');
	};
}

/** @param {WorkerArgs} args */
async function fetchToken(args) {
	const response = await fetch(args.tokenUrl, {
		method: 'POST',
		headers: {
			Authorization: `Basic ${Buffer.from(`${args.clientId}:${args.clientSecret}`).toString('base64')}`,
			'Content-Type': 'application/x-www-form-urlencoded',
		},
		body: 'grant_type=client_credentials&scope=service%3Aintegration',
	});
	const body = await response.json();
	return body.access_token;
}


async function main() {
	const items = numberOption('--items', 100_000);
	const runs = numberOption('--runs', 3);
	const batchSize = numberOption('--batch', 1000);
	if (!fs.existsSync(path.join(DIST, 'NexthinkEnrichment.node.js'))) {
		console.error('dist/ is missing: run `npx tsc -p tsconfig.json` first');
		process.exit(1);
	}
	const { startNexthinkServer } = require(path.join(ROOT, 'test/server'));
	const server = await startNexthinkServer();
	for (let i = 0; i < items; i++) server.inventory.addDevice({ name: `BENCH-${i}` });
	try {
		console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}); ${items} items, batches of ${batchSize}; median of ${runs} runs\n`);
		/** @type {Record<string, Record<string, string>>} */
		const table = {};
		for (const mode of MODES) {
			/** @type {Array<WorkerResult & { requests: number }>} */
			const samples = [];
			for (let run = 0; run < runs; run++) {
				server.clearRequests();
				const sample = await runWorker(__filename, {
					mode,
					items,
					batchSize,
					baseUrl: server.baseUrl,
					tokenUrl: server.tokenUrl,
					clientId: server.clientId,
					clientSecret: server.clientSecret,
				}, mode);
				if (sample.applied !== items) throw new Error(`${mode}: ${sample.applied} of ${items} items applied`);
				// counted where they arrive: the requests this run sent to the API (token exchanges included)
				samples.push({ ...sample, requests: server.requests.length });
				server.clearRequests();
			}
			const seconds = medianOf(samples.map((sample) => sample.seconds));
			table[mode] = {
				seconds: seconds.toFixed(2),
				'items/s': Math.round(items / seconds).toLocaleString('en-US'),
				'µs/item': ((seconds * 1e6) / items).toFixed(1),
				'peak RSS MB': medianOf(samples.map((sample) => sample.maxRssMb)).toFixed(0),
				requests: String(samples[0].requests),
			};
		}
		// ratios against the bare client, measured in the same run
		const bare = table.fetch;
		for (const row of Object.values(table)) {
			row['time ÷ fetch'] = (Number(row.seconds) / Number(bare.seconds)).toFixed(2);
			row['RSS ÷ fetch'] = (Number(row['peak RSS MB']) / Number(bare['peak RSS MB'])).toFixed(2);
		}
		console.table(table);
	} finally {
		await server.close();
	}
}



