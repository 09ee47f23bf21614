// @ts-check
/**
 * Polling economy: how many status calls the Export operation makes, and when the result
 * arrives, for exports that complete after 10 s, 60 s and 10 min, with the default wait behaviour
 * beside a fixed 1 s and a fixed 5 s poll (the do-it-yourself Wait-node loop).
 *
 * Usage: npm run build && node test/bench/polling.js [--scale 20] [--runs 3]
 *
 * Everything runs for real: the compiled node in n8n-core's engine polls the local API server over
 * HTTP, and the server completes the export `completeAfterMs` after it was started (its own clock).
 * To keep a 10-minute export affordable, time is compressed by `--scale`: the export durations and
 * every schedule setting (the 1 s floor between status calls included) are divided by it, and the
 * measured arrival time is multiplied back. Status
 * calls are counted from the server's request log. Each poll's own latency (about a millisecond
 * here) is compressed too, so the fixed short polls come out slightly under their ideal count.
 */
const path = require('node:path');
const { medianOf, numberOption, registerTypeScript } = require('./benchUtils');

const ROOT = path.join(__dirname, '../..');
const NODE_FILE = path.join(ROOT, 'dist/nodes/Nexthink/export/NexthinkExport.node.js');
const DURATIONS_S = [10, 60, 600];

/** Wait behaviours compared, in real seconds (before compression). `undefined` = the node's defaults. */
const SCHEDULES = [
	{ name: 'default', options: undefined },
	{ name: 'fixed 1 s', options: { firstPollSeconds: 1, pollGrowthFactor: 1, maxPollIntervalSeconds: 1 } },
	{ name: 'fixed 5 s', options: { firstPollSeconds: 5, pollGrowthFactor: 1, maxPollIntervalSeconds: 5 } },
];

main().catch((error) => {
	console.error(error);
	process.exit(1);
});

async function main() {
	const scale = numberOption('--scale', 20);
	const runs = numberOption('--runs', 3);
	registerTypeScript();
	const { runNode, disposeHarness, nexthinkCredentials } = require(path.join(ROOT, 'test/helpers/harness.ts'));
	const { NexthinkExport } = require(NODE_FILE);
	const waitSchedule = require(path.join(ROOT, 'dist/nodes/Nexthink/nql/waitSchedule.js'));
	const { DEFAULT_WAIT_SETTINGS } = waitSchedule;
	// The 1 s floor between status calls is a schedule setting too: compressed like the others (the
	// compiled module reads it from its exports at each use, and the node loads this same module).
	if (typeof waitSchedule.MIN_POLL_GAP_MS === 'number') waitSchedule.MIN_POLL_GAP_MS /= scale;
	const { startNexthinkServer } = require(path.join(ROOT, 'test/server'));
	const server = await startNexthinkServer();
	const credentials = { nexthinkApi: nexthinkCredentials(server) };
	const compress = (/** @type {number} */ seconds) => seconds / scale;
	// a first run loads and compiles the engine's code, which would otherwise count as waiting time
	server.addQuery({ id: '#poll_warm_up', header: ['device.name'], rows: [['pc-1']], completeAfterPolls: 0 });
	await runNode({ nodeType: new NexthinkExport(), parameters: { queryId: '#poll_warm_up', compression: 'NONE', advancedOptions: { firstPollSeconds: 0 } }, credentials });
	try {
		console.log(`time compressed ${scale}×; median of ${runs} runs; default wait behaviour: first poll after ` +
			`${DEFAULT_WAIT_SETTINGS.firstDelayMs / 1000} s, interval × ${DEFAULT_WAIT_SETTINGS.factor}, at most ${DEFAULT_WAIT_SETTINGS.maxIntervalMs / 1000} s\n`);
		/** @type {Record<string, Record<string, string>>} */
		const table = {};
		for (const durationS of DURATIONS_S) {
			const queryId = `#poll_${durationS}s`;
			server.addQuery({ id: queryId, header: ['device.name'], rows: [['pc-1']], completeAfterMs: compress(durationS) * 1000 });
			/** @type {Record<string, number>} */
			const callsBySchedule = {};
			for (const schedule of SCHEDULES) {
				const defaults = DEFAULT_WAIT_SETTINGS;
				const realOptions = schedule.options ?? {
					firstPollSeconds: defaults.firstDelayMs / 1000,
					pollGrowthFactor: defaults.factor,
					maxPollIntervalSeconds: defaults.maxIntervalMs / 1000,
				};
				const options = {
					firstPollSeconds: compress(realOptions.firstPollSeconds),
					pollGrowthFactor: realOptions.pollGrowthFactor,
					maxPollIntervalSeconds: compress(realOptions.maxPollIntervalSeconds),
				};
				const samples = [];
				for (let run = 0; run < runs; run++) {
					server.clearRequests();
					const started = process.hrtime.bigint();
					const result = await runNode({ nodeType: new NexthinkExport(), parameters: { queryId, compression: 'NONE', advancedOptions: options }, credentials });
					const seconds = (Number(process.hrtime.bigint() - started) / 1e9) * scale;
					if (result.error) throw new Error(`${schedule.name}, ${durationS} s: ${result.error.message}`);
					const statusCalls = server.requests.filter((request) => request.path.startsWith('/api/v1/nql/status/')).length;
					samples.push({ seconds, statusCalls });
				}
				const statusCalls = medianOf(samples.map((sample) => sample.statusCalls));
				const arrivalS = medianOf(samples.map((sample) => sample.seconds));
				callsBySchedule[schedule.name] = statusCalls;
				table[`${durationS} s export, ${schedule.name}`] = {
					'status calls': String(statusCalls),
					'result after s': arrivalS.toFixed(1),
					'bound 1.5×d+2 s': (1.5 * durationS + 2).toFixed(0),
					'calls ÷ fixed 5 s': schedule.name === 'fixed 5 s' ? '1.00' : '',
				};
			}
			for (const schedule of SCHEDULES) {
				const row = table[`${durationS} s export, ${schedule.name}`];
				row['calls ÷ fixed 5 s'] = (callsBySchedule[schedule.name] / callsBySchedule['fixed 5 s']).toFixed(2);
			}
		}
		console.table(table);
	} finally {
		disposeHarness();
		await server.close();
	}
}
