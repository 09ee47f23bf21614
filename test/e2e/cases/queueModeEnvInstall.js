// @ts-check
'use strict';

/**
 * Queue mode with the package installed by n8n itself through its environment variables (n8n
 * 2.x), as docs/queue-mode.md tells users to do:
 *
 * - main: `N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true`, `N8N_COMMUNITY_PACKAGES=[{ name, version }]`
 *   (and `N8N_UNVERIFIED_PACKAGES_ENABLED=true`); n8n installs the package at start and records it
 *   in the database;
 * - worker, started afterwards in a user folder of its own (another machine, for n8n) with no
 *   `nodes` folder: `N8N_REINSTALL_MISSING_PACKAGES=true` (and `N8N_UNVERIFIED_PACKAGES_ENABLED=true`);
 *   n8n installs at start what the database lists and the worker lacks.
 *
 * n8n is not patched and has no licence: it downloads from https://registry.npmjs.org as for any
 * user. That name is answered by the test's stand-in (`../lib/registryStandIn.js`), reached through
 * `HTTPS_PROXY` with a throwaway certificate authority in `NODE_EXTRA_CA_CERTS`, which serves the
 * tarball the suite packed and refuses every other host. Then the gzip Export case runs on the
 * worker through its webhook, with the same checks as everywhere else.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const { N8nInstance, RestSession, freePort } = require('../../../scripts/n8n-instance');
const { startRegistryStandIn } = require('../lib/registryStandIn');
const { nodeCases } = require('./nodeCases');
const { queueEnvironment, startQueueServices } = require('./queueMode');
const { latestExecution } = require('../lib/runData');
const { OWNER } = require('./serverChecks');

const LABEL = '[queue mode, n8n 2.x, package installed through environment variables]';
const EXPORT_CASE_ID = 'nxE2eExportGzip1';

function exportCase() {
	const testCase = nodeCases.find((candidate) => candidate.id === EXPORT_CASE_ID);
	if (!testCase) throw new Error(`case ${EXPORT_CASE_ID} not found`);
	return testCase;
}

function envInstallTestNames() {
	return [
		`${LABEL} main installed it from N8N_COMMUNITY_PACKAGES, the worker from N8N_REINSTALL_MISSING_PACKAGES; only the stand-in registry was asked`,
		`${LABEL} ${exportCase().title}`,
		`${LABEL} the worker ran the execution`,
	];
}

/** Every file of a directory, as relative paths. @param {string} dir @returns {string[]} */
function filesUnder(dir) {
	return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
		.sort();
}

/**
 * Asserts that an n8n user folder holds the packed package as n8n installs it: every file of the
 * tarball byte for byte, the manifest without dev/peer dependencies, and the ledger n8n keeps.
 * @param {string} userFolder @param {string} unpacked the tarball's `package/` folder
 * @param {{ name: string, version: string }} pkg @param {string} who
 */
function assertInstalled(userFolder, unpacked, pkg, who) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const installed = path.join(nodesDir, 'node_modules', pkg.name);
	assert.ok(fs.existsSync(installed), `${who}: ${installed} exists`);
	const expected = filesUnder(unpacked);
	const actual = filesUnder(installed);
	assert.deepEqual(actual, expected, `${who}: the installed files are the tarball's`);
	for (const file of expected.filter((name) => name !== 'package.json')) {
		assert.ok(fs.readFileSync(path.join(installed, file)).equals(fs.readFileSync(path.join(unpacked, file))), `${who}: ${file} equals the tarball's`);
	}
	const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
	assert.equal(manifest.name, pkg.name);
	assert.equal(manifest.version, pkg.version);
	assert.equal(manifest.devDependencies, undefined, `${who}: n8n dropped the dev dependencies`);
	const ledger = JSON.parse(fs.readFileSync(path.join(nodesDir, 'package.json'), 'utf8'));
	assert.equal(ledger.dependencies?.[pkg.name], pkg.version, `${who}: n8n's ledger lists ${pkg.name}@${pkg.version}`);
}

/**
 * @param {import('../lib/suite').Suite} suite
 * @param {ReturnType<typeof import('../../../scripts/n8n-install').ensureN8n>} runtime
 * @param {string} tarball @param {string} workDir
 * @param {{ credentialFor: (server: import('./nodeCases').NexthinkServer) => object, serverOptions: object }} options
 */
async function runQueueModeEnvInstall(suite, runtime, tarball, workDir, options) {
	const names = envInstallTestNames();
	const testCase = exportCase();
	/** @type {(() => Promise<void>)[]} */
	const cleanups = [];
	try {
		const fixture = await suite.setUp(`${LABEL} PostgreSQL, Redis, registry stand-in, main and worker`, names, async () => {
			const { postgres, redis, server } = await startQueueServices(workDir, options.serverOptions, cleanups);
			const registry = await startRegistryStandIn({ dir: path.join(workDir, 'registry'), tarball });
			cleanups.push(() => registry.close());
			const unpackDir = path.join(workDir, 'unpacked');
			fs.mkdirSync(unpackDir, { recursive: true });
			const untar = spawnSync('tar', ['-xzf', tarball, '-C', unpackDir]);
			if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
			const unpacked = path.join(unpackDir, 'package');

			const main = await N8nInstance.inFolder(runtime, path.join(workDir, 'main'), {
				env: {
					...queueEnvironment(postgres, redis),
					...registry.environment(await registry.listen('main'), path.join(workDir, 'main', 'npm-cache')),
					// docs/queue-mode.md's settings for the main process
					N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
					N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: registry.name, version: registry.version }]),
					N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
				},
			});
			cleanups.push(() => main.stopAll());
			testCase.prepare?.(server);
			await main.importCredentials([options.credentialFor(server)]);
			await main.importWorkflows([testCase.workflow('webhook')]);
			await main.activate(testCase.id);
			const mainInstall = registry.requests.length;
			await main.start();
			const mainRequests = registry.requests.slice(mainInstall);

			// the worker: its own user folder (no package), the same database, Redis and encryption key
			const workerHost = await N8nInstance.inFolder(runtime, path.join(workDir, 'worker'), {
				env: {
					...queueEnvironment(postgres, redis),
					...registry.environment(await registry.listen('worker'), path.join(workDir, 'worker', 'npm-cache')),
					// docs/queue-mode.md's settings for every worker
					N8N_REINSTALL_MISSING_PACKAGES: 'true',
					N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
				},
			});
			cleanups.push(() => workerHost.stopAll());
			assert.ok(!fs.existsSync(path.join(workerHost.userFolder, '.n8n', 'nodes')), 'the worker starts without community packages');
			const workerHealthPort = await freePort();
			await workerHost.spawnProcess('worker', ['worker', '--concurrency=2'], {
				env: { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(workerHealthPort) },
				ready: async () => (await fetch(`http://127.0.0.1:${workerHealthPort}/healthz/readiness`)).ok,
			});
			const session = new RestSession(main.baseUrl);
			await session.ownerSession(OWNER);
			return { main, workerHost, server, session, registry, unpacked, mainRequests };
		});
		if (!fixture) return;
		const { main, workerHost, server, session, registry, unpacked, mainRequests } = fixture;
		const pkg = { name: registry.name, version: registry.version };

		await suite.test(names[0], async () => {
			assertInstalled(main.userFolder, unpacked, pkg, 'main');
			assertInstalled(workerHost.userFolder, unpacked, pkg, 'worker');
			// n8n recorded the package and its nodes in the database (what the worker installs from)
			const listed = await session.request('GET', '/community-packages');
			assert.equal(listed.status, 200, JSON.stringify(listed.body));
			const record = listed.body.data.find((/** @type {any} */ entry) => entry.packageName === pkg.name);
			assert.ok(record, `the database lists ${pkg.name}: ${JSON.stringify(listed.body.data)}`);
			assert.equal(record.installedVersion, pkg.version);
			const nodeTypes = record.installedNodes.map((/** @type {any} */ node) => node.type);
			for (const type of ['n8n-nodes-nexthink.nexthinkExport', 'n8n-nodes-nexthink.nexthinkEnrichment', 'n8n-nodes-nexthink.nexthinkActions']) {
				assert.ok(nodeTypes.includes(type), `the database lists ${type}: ${nodeTypes.join(', ')}`);
			}
			// each process fetched the tarball itself (main while it started), from the stand-in, and
			// asked nothing else of it
			const log = JSON.stringify(registry.requests);
			assert.ok(mainRequests.some((request) => request.target === registry.tarballPath), `main downloaded the tarball while starting: ${log}`);
			assert.ok(registry.requests.some((request) => request.via === 'worker' && request.target === registry.tarballPath), `the worker downloaded the tarball: ${log}`);
			const notServed = registry.requests.filter((request) => request.kind === 'not-found');
			assert.deepEqual(notServed, [], 'n8n and npm asked the registry only for this package');
			// n8n's own check that the version exists went through the proxy too (npm asks for `/<name>`)
			assert.ok(mainRequests.some((request) => request.target === `/${pkg.name}/${pkg.version}`), 'main asked for the version document');
			assert.match(main.logOf('main'), new RegExp(`Installed community package '${pkg.name}@${pkg.version}' from env`));
			assert.match(workerHost.logOf('worker'), /Packages reinstalled successfully/);
		});

		/** @type {{ id: number } | undefined} */
		let execution;
		await suite.test(names[1], async () => {
			const exportsBefore = new Set(server.exports.keys());
			server.clearRequests();
			const answer = await main.callWebhook(testCase.id.toLowerCase());
			assert.equal(answer.status, 200, `webhook answered ${answer.status}: ${JSON.stringify(answer.body)}`);
			const finished = await latestExecution(session, testCase.id, runtime.dir, 0);
			execution = finished;
			assert.equal(finished.mode, 'webhook');
			await testCase.check(finished.run, { server, exportsBefore, userFolder: main.userFolder });
		});
		await suite.test(names[2], async () => {
			assert.ok(execution, 'the webhook produced an execution');
			assert.match(workerHost.logOf('worker'), new RegExp(`execution ${execution.id}\\b`), `the worker ran execution ${execution.id}`);
		});
	} finally {
		for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => process.stdout.write(`cleanup: ${error.message}\n`));
	}
}

module.exports = { runQueueModeEnvInstall, envInstallTestNames };
