// @ts-check
/**
 * What the benchmarks in real n8n share (n8n-side-by-side.js, event-trigger-batch.js): an n8n 2.x
 * user folder with the packed package installed as a community package, executions not saved, and
 * an external hook file (n8n's `EXTERNAL_HOOK_FILES`, hook `workflow.postExecute`) that records,
 * inside the n8n process, every node's `executionTime` (summed over its runs) and item count, the
 * process's peak RSS and when the run ended, one JSON file per execution.
 */
const fs = require('node:fs');
const path = require('node:path');

const { N8nInstance, installCommunityPackage, sleep } = require('../../scripts/n8n-instance');

/** The hook n8n loads: it writes what the run measured to `$BENCH_RESULT_DIR/<executionId>.json`. */
const HOOK_SOURCE = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
module.exports = {
	workflow: {
		postExecute: [
			async function (run, workflowData, executionId) {
				const nodes = {};
				for (const [name, taskRuns] of Object.entries(run?.data?.resultData?.runData ?? {})) {
					nodes[name] = {
						runs: taskRuns.length,
						executionTimeMs: taskRuns.reduce((sum, taskRun) => sum + (taskRun.executionTime ?? 0), 0),
						items: (taskRuns.at(-1)?.data?.main ?? []).reduce((sum, output) => sum + (output?.length ?? 0), 0),
						error: taskRuns.find((taskRun) => taskRun.error)?.error?.message,
					};
				}
				const result = {
					workflow: workflowData.name,
					error: run?.data?.resultData?.error?.message,
					nodes,
					peakRssMb: process.resourceUsage().maxRSS / 1024,
					endedAt: Date.now(),
				};
				fs.writeFileSync(path.join(process.env.BENCH_RESULT_DIR, executionId + '.json'), JSON.stringify(result));
			},
		],
	},
};
`;

/**
 * An n8n in `workDir` with the package, the hook and `env` (beside the benchmark defaults).
 * @param {ReturnType<typeof import('../../scripts/n8n-install').ensureN8n>} runtime @param {string} workDir @param {string} tarball
 * @param {Record<string, string>} [env]
 */
async function benchN8n(runtime, workDir, tarball, env = {}) {
	const resultDir = path.join(workDir, 'results');
	fs.mkdirSync(resultDir);
	const hookFile = path.join(workDir, 'bench-hooks.js');
	fs.writeFileSync(hookFile, HOOK_SOURCE);
	const n8n = await N8nInstance.inFolder(runtime, workDir, {
		env: {
			EXTERNAL_HOOK_FILES: hookFile,
			BENCH_RESULT_DIR: resultDir,
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none',
			EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'false',
			N8N_LOG_LEVEL: 'warn',
			...env,
		},
	});
	installCommunityPackage(n8n.userFolder, tarball);
	return { n8n, resultDir };
}

/** Forgets the records of earlier runs. @param {string} resultDir */
function clearRunRecords(resultDir) {
	for (const file of fs.readdirSync(resultDir)) fs.rmSync(path.join(resultDir, file));
}

/**
 * Waits (10 minutes at most) for the record of a run that `accept` takes, and returns it.
 * @param {N8nInstance} n8n @param {string} resultDir @param {string} label
 * @param {(record: any) => boolean} [accept]
 */
async function awaitRunRecord(n8n, resultDir, label, accept = () => true) {
	const deadline = Date.now() + 10 * 60_000;
	for (;;) {
		// a file the hook is still writing does not parse yet: read again at the next turn
		const records = fs.readdirSync(resultDir).flatMap((file) => {
			try {
				return [JSON.parse(fs.readFileSync(path.join(resultDir, file), 'utf8'))];
			} catch {
				return [];
			}
		});
		const record = records.find(accept);
		if (record) return record;
		if (Date.now() > deadline) throw new Error(`${label}: no result after 10 minutes\n${n8n.logOf('main').slice(-3000)}`);
		await sleep(100);
	}
}

module.exports = { HOOK_SOURCE, benchN8n, clearRunRecords, awaitRunRecord };
