// Two projects run the in-process suites against both n8n generations:
// `n8n2` uses the n8n-core / n8n-workflow 2.x devDependencies as installed;
// `n8n1` maps the same imports onto the 1.x copies installed under npm aliases, so the node code
// under test (which imports plain `n8n-workflow`) runs against the 1.x runtime.
// Pure unit tests (test/unit, in folders mirroring nodes/Nexthink/) and the local server's own tests
// (test/server/tests) do not touch n8n and run once.
const path = require('node:path');

// ts-jest only transpiles, file by file: test/tsconfig.json sets `isolatedModules`, which ts-jest
// takes as "no type-check" (`npm run lint` type-checks the tests with `tsc -p test/tsconfig.json`).
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }] };
const common = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };

function v1Workflow() {
	// n8n-core-v1 carries its own nested n8n-workflow 1.x when npm could not hoist it.
	const nested = path.join(__dirname, 'node_modules/n8n-core-v1/node_modules/n8n-workflow');
	try {
		require.resolve(path.join(nested, 'package.json'));
		return nested;
	} catch {
		return path.join(__dirname, 'node_modules/n8n-workflow-v1');
	}
}

module.exports = {
	// n8n-core 1.x leaves handles open after a run (timers of its dependency-injection container and
	// HTTP keep-alive sockets) that no public API closes; without this jest would wait forever.
	forceExit: true,
	// jest's default is one worker less than the cores (one on a 2-core machine); the suites spend
	// much of their time waiting on local HTTP and n8n's timers (retries, poll gaps, Maximum Wait),
	// so four workers keep two cores busy: on an idle 2-core machine jest took 185 s with four, about
	// 315 s with two (docs/e2e.md). No test depends on the speed, so the extra contention is harmless.
	maxWorkers: 4,
	// Every in-process n8n run makes HTTP requests on loopback: on a machine busy with other work
	// a single run can take seconds, so no test relies on jest's 5 s default. Files that wait out
	// real back-offs or decode megabytes still declare longer bounds (test/helpers/timeouts.ts).
	testTimeout: 30_000,
	projects: [
		{ ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/server/tests/**/*.test.ts'] },
		{ ...common, displayName: 'n8n2', testMatch: ['<rootDir>/test/integration/**/*.test.ts'] },
		{
			...common,
			displayName: 'n8n1',
			testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
			moduleNameMapper: {
				'^n8n-workflow$': v1Workflow(),
				'^n8n-core$': '<rootDir>/node_modules/n8n-core-v1',
				'^n8n-core/(.*)$': '<rootDir>/node_modules/n8n-core-v1/$1',
			},
		},
	],
};
