// @ts-check
/**
 * `npm run bench`: runs every benchmark one after the other on this machine (never part of
 * `npm test`). Each script prints its own table; docs/benchmarks.md records the latest figures.
 * Pass `--quick` for smaller inputs (a smoke run of the scripts, not figures to record).
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const quick = process.argv.includes('--quick');
const BENCHMARKS = [
	['zstd-decode.js', quick ? ['10', '3'] : ['100', '7']],
	['results-decode.js', quick ? ['--rows', '100000', '--runs', '3'] : ['--rows', '1000000', '--runs', '5']],
	['export-node.js', quick ? ['--rows', '100000', '--runs', '1'] : ['--rows', '1000000', '--runs', '3']],
	['enrichment.js', quick ? ['--items', '10000', '--runs', '3'] : ['--items', '100000', '--runs', '3']],
	['polling.js', quick ? ['--scale', '100', '--runs', '1'] : ['--scale', '20', '--runs', '3']],
	['n8n-side-by-side.js', quick ? ['--rows', '10000', '--runs', '1'] : ['--rows', '1000000', '--runs', '3']],
	['event-trigger-batch.js', quick ? ['--rows', '10000', '--runs', '1'] : ['--rows', '100000', '--runs', '3']],
	['bombs.js', quick ? ['--timeout-s', '30'] : ['--timeout-s', '120']],
	['execute-bombs.js', []],
	['file-output.js', quick ? ['--mb', '64'] : ['--mb', '2048']],
];

let failed = 0;
for (const [script, args] of BENCHMARKS) {
	console.log(`\n== ${script} ${args.join(' ')}`);
	const result = spawnSync(process.execPath, [path.join(__dirname, script), ...args], { stdio: 'inherit' });
	if (result.status !== 0) {
		failed++;
		console.error(`${script} failed with exit code ${result.status}`);
	}
}
process.exit(failed === 0 ? 0 : 1);
