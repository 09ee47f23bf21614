#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * End-to-end suite: the packed package inside real n8n, against the local Nexthink API server.
 *
 *   node test/e2e/run.js [--n8n 2,1] [--no-queue | --queue-only] [--no-editor] [--no-build] [--serial] [--keep] [--only <text>[|<text>...]]
 *
 * For each pinned n8n (2.x on Node 24, 1.x on the system Node 20): a fresh user folder with the
 * `npm pack` tarball installed as n8n installs community packages, the credential imported pointing
 * at the local server, every case's workflow imported; then one `n8n start` runs every case as the
 * editor's *Execute Workflow* button does (REST API, results read from the stored executions), and
 * the credential test, the AI-tool check, the example started by a webhook and (2.x) the editor
 * check; then another `n8n start` with the trigger example active. Beside them, one queue-mode run
 * (2.x: PostgreSQL, Redis, a main and a worker), then one where n8n installs the package itself from
 * its environment variables (`cases/queueModeEnvInstall.js`). The generations and the queue-mode
 * phases run side by side (`--serial`: one after the other). Ends with `N passed, N failed`. See
 * docs/e2e.md.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { ensureN8n } = require('../../scripts/n8n-install');
const { N8nInstance, RestSession, installCommunityPackage, packPackage, runCommand, tail } = require('../../scripts/n8n-instance');
const { startNexthinkServer } = require('../server');
const { Suite, log } = require('./lib/suite');
const { connectorCredentialRecord, credentialRecord } = require('../../scripts/n8n-examples');
const { CREDENTIAL, WRONG_SECRET, WRONG_SECRET_CREDENTIAL } = require('./lib/workflow');
const { nodeCases } = require('./cases/nodeCases');
const { errorOutputCases } = require('./cases/errorOutputCases');
const { editorShots } = require('./lib/editor');
const { agentCases, fakeModelCredentialRecord } = require('./cases/agentCases');
const { startFakeChatModel } = require('./lib/fakeChatModel');
const { exampleCases } = require('./cases/exampleCases');
const { runServerChecks, SERVER_CHECKS, OWNER } = require('./cases/serverChecks');
const { finishedExecution } = require('./lib/runData');
const { runActiveTriggerChecks } = require('./cases/triggerCheck');
const { runQueueMode, queueTestNames } = require('./cases/queueMode');
const { runQueueModeEnvInstall, envInstallTestNames } = require('./cases/queueModeEnvInstall');
const { MCP_CHECKS, mcpCredentials, mcpWorkflows, mcpWorkflowIds, runMcpChecks } = require('./cases/mcpCases');
const { EVENT_TRIGGER_CHECKS, eventTriggerWorkflows, eventTriggerWorkflowIds, runEventTriggerChecks } = require('./cases/eventTriggerCases');

const REPO = path.resolve(__dirname, '../..');

/** Options of the local server for the suite: the demo estate, a #slow_export that takes 3 s. */
const SERVER_OPTIONS = { demo: true, slowExportMs: 3000 };

/**
 * Runs one case in the running n8n, as the editor's *Execute Workflow* button runs it: the case
 * prepares the server, may act while n8n runs, then checks the execution n8n stored.
 * @param {Suite} suite @param {N8nInstance} n8n @param {RestSession} session @param {import('./cases/nodeCases').NexthinkServer} server
 * @param {{ id: string, title: string, during?: import('./cases/nodeCases').E2eCase['during'], check?: import('./cases/nodeCases').E2eCase['check'] }} testCase
 * @param {string} label
 * @param {Record<string, unknown>} [context]  extra fields for the case's check
 */
async function runCase(suite, n8n, session, server, testCase, label, context = {}) {
	await suite.test(`${label} ${testCase.title}`, async () => {
		const exportsBefore = new Set(server.exports.keys());
		server.clearRequests();
		/** @type {any} */ (context.fakeModel)?.clear();
		const logBefore = n8n.logOf('main').length;
		const during = testCase.during?.(server);
		let execution;
		try {
			execution = await finishedExecution(session, await session.runManually(testCase.id), n8n.runtime.dir);
		} finally {
			during?.stop();
		}
		try {
			assert.equal(execution.mode, 'manual');
			await testCase.check?.(execution.run, { ...context, server, exportsBefore, userFolder: n8n.userFolder, during: await during?.result });
		} catch (error) {
			if (error instanceof Error) error.message += `\n--- n8n log of this run (tail) ---\n${tail(n8n.logOf('main').slice(logBefore), 25)}`;
			throw error;
		}
	});
}

/**
 * @param {Suite} suite @param {1 | 2} major @param {string} tarball @param {string} workDir
 * @param {{ only?: string, editor: boolean }} options
 */
async function runMajor(suite, major, tarball, workDir, options) {
	const label = `[n8n ${major}.x]`;
	// --only "a|b": the cases whose title or id contains any of the texts
	const wanted = options.only?.split('|') ?? [];
	const picked = (/** @type {string[]} */ ...texts) => wanted.length === 0 || wanted.some((part) => texts.some((text) => text.includes(part)));
	const cases = [...nodeCases, ...errorOutputCases, ...agentCases].filter((testCase) => picked(testCase.title, testCase.id));
	// every example is imported (the server checks open some); --only picks which ones are executed
	const examples = exampleCases();
	const executedExamples = examples.filter((testCase) => testCase.kind === 'execute' && picked(testCase.title));
	const webhookExamples = examples.filter((testCase) => testCase.kind === 'webhook' && picked(testCase.title));
	// activated and checked in a running n8n after the server checks (cases/triggerCheck.js)
	const activeExamples = examples.filter((testCase) => testCase.kind === 'active' && picked(testCase.title));
	// the MCP server example and its copy with writes on, published before `n8n start` (cases/mcpCases.js)
	const mcpChecks = MCP_CHECKS.filter((check) => picked(check.title));
	// the Event Trigger's workflows, published before `n8n start` and called as Nexthink calls (cases/eventTriggerCases.js)
	const eventTriggerChecks = EVENT_TRIGGER_CHECKS.filter((check) => picked(check.title));
	const testNames = [
		...cases.map((testCase) => `${label} ${testCase.title}`),
		...executedExamples.map((testCase) => `${label} ${testCase.title}`),
		...webhookExamples.map((testCase) => `${label} ${testCase.title}`),
		...SERVER_CHECKS.filter((check) => check.editor !== true || (options.editor && major === 2)).map((check) => `${label} ${check.title}`),
		...mcpChecks.map((check) => `${label} ${check.title}`),
		...eventTriggerChecks.map((check) => `${label} ${check.title}`),
		...activeExamples.map((testCase) => `${label} ${testCase.title}`),
	];

	const runtime = await suite.setUp(`${label} install`, testNames, async () => ensureN8n(major));
	if (!runtime) return;
	const server = await startNexthinkServer(SERVER_OPTIONS);
	// the chat model behind the AI Agent cases (cases/agentCases.js)
	const fakeModel = await startFakeChatModel();
	const home = path.join(workDir, `n8n${major}`);
	const n8n = await N8nInstance.inFolder(runtime, home, {
		env: {
			// The nightly-export example writes its file here.
			N8N_RESTRICT_FILE_ACCESS_TO: path.join(home, 'files'),
		},
	});
	try {
		const ready = await suite.setUp(`${label} package, credential and workflows`, testNames, async () => {
			installCommunityPackage(n8n.userFolder, tarball);
			fs.mkdirSync(path.join(home, 'files'), { recursive: true });
			for (const testCase of cases) testCase.prepare?.(server);
			await n8n.importCredentials([
				credentialRecord(server),
				credentialRecord(server, { ...WRONG_SECRET_CREDENTIAL, clientSecret: WRONG_SECRET }),
				fakeModelCredentialRecord(fakeModel.url),
				connectorCredentialRecord(),
				...mcpCredentials(),
			]);
			await n8n.importWorkflows([
				...cases.map((testCase) => testCase.workflow('manual')),
				...editorShots(CREDENTIAL).workflows,
				...examples.map((testCase) => testCase.workflow({ filesDir: path.join(home, 'files') })),
				...mcpWorkflows(),
				...eventTriggerWorkflows(),
			]);
			// a webhook example answers once `n8n start` (below) registers its production webhook; so does an MCP
			// server (one MCP copy stays unpublished: cases/mcpCases.js checks what a client gets from it)
			for (const testCase of webhookExamples) await n8n.activate(testCase.id);
			if (mcpChecks.length > 0) for (const id of mcpWorkflowIds()) await n8n.activate(id);
			if (eventTriggerChecks.length > 0) for (const id of eventTriggerWorkflowIds()) await n8n.activate(id);
			return true;
		});
		if (!ready) return;
		// one `n8n start` serves the cases, the examples and the checks of a running n8n (cases/serverChecks.js)
		const session = await suite.setUp(`${label} n8n start and owner`, testNames.slice(0, testNames.length - activeExamples.length), async () => {
			await n8n.start();
			const rest = new RestSession(n8n.baseUrl);
			await rest.ownerSession(OWNER);
			return rest;
		});
		if (session) {
			for (const testCase of cases) await runCase(suite, n8n, session, server, testCase, label, { fakeModel });
			for (const testCase of executedExamples) await runCase(suite, n8n, session, server, testCase, label, { filesDir: path.join(home, 'files') });
			await runServerChecks(suite, n8n, session, server, {
				label,
				examples,
				webhookExamples,
				editor: options.editor && major === 2,
				screenshotDir: path.join(workDir, 'screenshots'),
			});
			await runMcpChecks(suite, { n8n, session, server, label, checks: mcpChecks });
			if (eventTriggerChecks.length > 0) await runEventTriggerChecks(suite, { n8n, session, label });
		}
		// also after a start that never became ready: the Trigger check starts n8n again
		await n8n.stop('main');
		await runActiveTriggerChecks(suite, n8n, server, { label, examples: activeExamples });
	} finally {
		await n8n.stopAll();
		await server.close();
		await fakeModel.close();
	}
}

async function main() {
	const { values } = parseArgs({
		options: {
			n8n: { type: 'string', default: '2,1' },
			'no-queue': { type: 'boolean', default: false },
			'queue-only': { type: 'boolean', default: false },
			'no-editor': { type: 'boolean', default: false },
			'no-build': { type: 'boolean', default: false },
			keep: { type: 'boolean', default: false },
			serial: { type: 'boolean', default: false },
			only: { type: 'string' },
		},
	});
	const majors = /** @type {(1 | 2)[]} */ (values.n8n.split(',').map(Number));
	const suite = new Suite();
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-nexthink-e2e-'));
	log(`work folder ${workDir}`);

	const tarball = await suite.setUp('build and pack', [], async () => {
		if (!values['no-build']) {
			const build = await runCommand('npm', ['run', 'build'], { cwd: REPO, env: process.env });
			if (build.code !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
		}
		return await packPackage(REPO, path.join(workDir, 'pack'));
	});
	if (!tarball) {
		suite.record('build and pack the package', false, 0, 'see above');
		process.exitCode = suite.finish();
		return;
	}
	const editor = !values['no-editor'];
	// Each generation (its own n8n, local server and chat model) and the queue-mode phases (their
	// own PostgreSQL, Redis, main and worker) run side by side: most of their time is waiting for
	// n8n's boots, polls and timers, so two cores serve them together. --serial runs them one after
	// the other.
	const generations = async () => {
		if (values['queue-only']) return;
		const run = (/** @type {1 | 2} */ major) => runMajor(suite, major, tarball, workDir, { only: values.only, editor });
		if (values.serial) for (const major of majors) await run(major);
		else await Promise.all(majors.map(run));
	};
	// --only skips queue mode (it is slow) unless --queue-only asks for it; then --only picks the
	// queue-mode phases whose test names contain the text (e.g. "environment variables")
	const queueMode = async () => {
		if (values['no-queue'] || !(majors.includes(2) || values['queue-only']) || (values.only && !values['queue-only'])) return;
		const wanted = (/** @type {string[]} */ names) => !values.only || names.some((name) => name.includes(/** @type {string} */ (values.only)));
		const queueOptions = { credentialFor: credentialRecord, serverOptions: SERVER_OPTIONS };
		const phases = [
			{ names: queueTestNames(), run: (/** @type {any} */ runtime) => runQueueMode(suite, runtime, tarball, path.join(workDir, 'queue'), queueOptions) },
			{ names: envInstallTestNames(), run: (/** @type {any} */ runtime) => runQueueModeEnvInstall(suite, runtime, tarball, path.join(workDir, 'queue-env-install'), queueOptions) },
		].filter((phase) => wanted(phase.names));
		if (phases.length === 0) return;
		const runtime = await suite.setUp('[queue mode] install', phases.flatMap((phase) => phase.names), async () => ensureN8n(2));
		if (runtime) for (const phase of phases) await phase.run(runtime);
	};
	if (values.serial) {
		await generations();
		await queueMode();
	} else {
		await Promise.all([generations(), queueMode()]);
	}
	const exitCode = suite.finish();
	if (exitCode === 0 && !values.keep) fs.rmSync(workDir, { recursive: true, force: true });
	else log(`kept ${workDir} (logs, user folders, screenshots)`);
	process.exitCode = exitCode;
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n0 passed, 1 failed\n`);
	process.exitCode = 1;
});
