// @ts-check
/**
 * `npm run bench`: runs every benchmark one after the other on this machine (never part of
 * `npm test`). Each script prints its own table; the results-decoding and side-by-side tables are
 * also written into docs/benchmarks.md (`--write-docs`), between their `<!-- bench:… -->` markers.
 *
 * Options (after `npm run bench --`):
 *   --quick                smaller inputs (a smoke run of the scripts, not figures to record)
 *   --baseline <commit>    also measure that build (default c07f561, the build before the Zstandard
 *                          decoder's speed-up) in the same rounds; `--baseline none` skips it
 *   --only a.js,b.js       run only these scripts
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const { stringOption } = require('./benchUtils');

const quick = process.argv.includes('--quick');
const baseline = stringOption('--baseline') ?? 'c07f561';
const only = stringOption('--only')?.split(',');
const baselineArgs = baseline === 'none' ? [] : ['--baseline', baseline];
const docsArgs = quick ? [] : ['--write-docs'];
const BENCHMARKS = [
	['zstd-decode.js', (quick ? ['10', '3'] : ['100', '7']).concat(baselineArgs)],
	[
		'results-decode.js',
		(quick ? ['--rows', '1000,100000', '--runs', '3'] : ['--rows', '1000,100000,1000000', '--runs', '5']).concat(baselineArgs, docsArgs),
	],
	['small-export.js', (quick ? ['--reps', '30'] : ['--rows', '1000', '--reps', '300']).concat(baselineArgs, docsArgs)],
	['row-memory.js', (quick ? ['--rows', '100000', '--runs', '1'] : ['--rows', '1000000', '--runs', '3']).concat(baselineArgs)],
	['export-node.js', quick ? ['--rows', '100000', '--runs', '1'] : ['--rows', '1000000', '--runs', '3']],
	['enrichment.js', quick ? ['--items', '10000', '--runs', '3'] : ['--items', '100000', '--runs', '3']],
	['polling.js', quick ? ['--scale', '100', '--runs', '1'] : ['--scale', '20', '--runs', '3']],
	[
		'n8n-side-by-side.js',
		(quick ? ['--rows', '1000,10000', '--runs', '1', '--n8n', '2'] : ['--rows', '1000,1000000', '--runs', '3', '--n8n', '2,1']).concat(baselineArgs, docsArgs),
	],
	['event-trigger-batch.js', quick ? ['--rows', '10000', '--runs', '1'] : ['--rows', '100000', '--runs', '3']],
	['bombs.js', quick ? ['--timeout-s', '30'] : ['--timeout-s', '120']],
	['execute-bombs.js', []],
	['file-output.js', quick ? ['--mb', '64'] : ['--mb', '2048']],
];

let failed = 0;
for (const [script, args] of BENCHMARKS) {
	if (only && !only.includes(script)) continue;
	console.log(`\n== ${script} ${args.join(' ')}`);
	const result = spawnSync(process.execPath, [path.join(__dirname, script), ...args], { stdio: 'inherit' });
	if (result.status !== 0) {
		failed++;
		console.error(`${script} failed with exit code ${result.status}`);
	}
}
process.exit(failed === 0 ? 0 : 1);
