#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm start`: try the nodes in a real n8n on this machine, against the local Nexthink API server.
 *
 *   node scripts/start.js [--n8n 2|1] [--port 5678] [--api-port 18080] [--fresh]
 *   (npm start -- --n8n 1)
 *
 * Builds and packs this package, installs the pinned n8n of that generation (2.x on Node 24 by
 * default, 1.x with `--n8n 1`; first run only: several minutes; cached under
 * ~/.cache/n8n-nodes-nexthink), starts `test/server/cli.js --demo`, installs the package into that
 * generation's n8n user folder kept in the same cache (`try-it-n8n2`, `try-it-n8n1`), creates the
 * owner account and the "Nexthink API (local server)" credential, imports docs/examples (first run,
 * or with --fresh), and publishes the MCP server example whenever that folder lacks it. Starts n8n
 * on 127.0.0.1, prints the URL and login, and the MCP URL once an MCP client got the tools from it
 * (otherwise what is wrong). Ctrl-C stops everything.
 */

const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const { parseArgs } = require('node:util');

const { cacheRoot, ensureN8n } = require('./n8n-install');
const { N8nInstance, RestSession, installCommunityPackage, packPackage, runCommand } = require('./n8n-instance');
const { probeMcpServer } = require('./mcp-probe');
const {
	CONNECTOR_TOKEN,
	CREDENTIAL,
	connectorCredentialRecord,
	credentialRecord,
	isCalledByNexthink,
	readExamples,
	localised,
	mcpServerUrl,
	MCP_EXAMPLE_FILE,
} = require('./n8n-examples');

const REPO = path.resolve(__dirname, '..');
const OWNER = { email: 'demo@example.com', firstName: 'Demo', lastName: 'User', password: 'Nexthink-demo-1' };

/** @param {string} message */
function say(message) {
	process.stdout.write(`[start] ${message}\n`);
}

/**
 * Starts the local Nexthink API server as its own process and waits for its ready line.
 * @param {number} port
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, address: { baseUrl: string, tokenUrl: string, clientId: string, clientSecret: string } }>}
 */
function startApiServer(port) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [path.join(REPO, 'test/server/cli.js'), '--port', String(port), '--demo'], {
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		const lines = readline.createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) });
		lines.on('line', (line) => {
			if (line.startsWith('NEXTHINK_SERVER_READY ')) resolve({ child, address: JSON.parse(line.slice('NEXTHINK_SERVER_READY '.length)) });
		});
		child.on('exit', (code) => reject(new Error(`the local Nexthink API server exited (${code}); is port ${port} free?`)));
	});
}

/** Fails early with a clear message when a port is taken. @param {number} port */
async function assertPortFree(port) {
	const net = require('node:net');
	await new Promise((resolve, reject) => {
		const probe = net.createServer();
		probe.once('error', () => reject(new Error(`port ${port} on 127.0.0.1 is in use; choose another with --port / --api-port`)));
		probe.listen(port, '127.0.0.1', () => probe.close(resolve));
	});
}

async function main() {
	const { values } = parseArgs({
		options: {
			n8n: { type: 'string', default: '2' },
			port: { type: 'string', default: '5678' },
			'api-port': { type: 'string', default: '18080' },
			fresh: { type: 'boolean', default: false },
		},
	});
	if (values.n8n !== '1' && values.n8n !== '2') throw new Error(`--n8n takes 1 or 2 (the n8n generation), not ${JSON.stringify(values.n8n)}`);
	const major = /** @type {1 | 2} */ (Number(values.n8n));
	const port = Number(values.port);
	const apiPort = Number(values['api-port']);
	await assertPortFree(port);
	await assertPortFree(apiPort);

	// one user folder per generation: a database n8n 2.x has migrated is not one 1.x can open
	const home = path.join(cacheRoot(), `try-it-n8n${major}`);
	if (values.fresh) fs.rmSync(home, { recursive: true, force: true });
	const examplesMarker = path.join(home, 'examples-imported');
	const filesDir = path.join(home, 'files');
	fs.mkdirSync(filesDir, { recursive: true });

	say('building the package (npm run build)');
	const build = await runCommand('npm', ['run', 'build'], { cwd: REPO, env: process.env });
	if (build.code !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
	const tarball = await packPackage(REPO, path.join(home, 'pack'));

	say(`making sure n8n ${major}.x is installed (the first time takes several minutes)`);
	const runtime = ensureN8n(major);

	say(`starting the local Nexthink API server with the demo estate on 127.0.0.1:${apiPort}`);
	const api = await startApiServer(apiPort);
	const n8n = await N8nInstance.inFolder(runtime, home, { port, env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir } });

	let stopping = false;
	/** @param {number} exitCode */
	const stop = async (exitCode) => {
		if (stopping) return;
		stopping = true;
		say('stopping n8n and the API server');
		await n8n.stopAll();
		api.child.kill('SIGTERM');
		process.exit(exitCode);
	};
	process.on('SIGINT', () => stop(0));
	process.on('SIGTERM', () => stop(0));
	try {
		await serve(n8n, api.address, { examplesMarker, filesDir, tarball, home });
	} catch (error) {
		process.stderr.write(`[start] ${/** @type {Error} */ (error).message}\n`);
		await stop(1);
	}
	n8n.processes.get('main')?.on('exit', (code) => {
		if (!stopping) {
			say(`n8n exited (${code}); see ${path.join(home, 'logs', 'main.log')}`);
			stop(1);
		}
	});
}

/**
 * Installs the package, the credential and (first run) the examples, starts n8n and prints how to log in.
 * @param {N8nInstance} n8n @param {{ baseUrl: string, tokenUrl: string, clientId: string, clientSecret: string }} api
 * @param {{ examplesMarker: string, filesDir: string, tarball: string, home: string }} options
 */
async function serve(n8n, api, options) {
	const { filesDir, home } = options;
	installCommunityPackage(n8n.userFolder, options.tarball);
	await n8n.importCredentials([credentialRecord(api), connectorCredentialRecord()]);
	// Imported once, so later runs keep the user's edits (--fresh starts over).
	const mcpExample = readExamples().find(({ file }) => file === MCP_EXAMPLE_FILE)?.workflow;
	let mcpPublished = mcpExample !== undefined;
	if (!fs.existsSync(options.examplesMarker)) {
		say('importing the example workflows');
		await n8n.importWorkflows(readExamples().map(({ file, workflow }) => localised(file, workflow, { filesDir })));
		// the MCP server example is live from the start: an MCP client can connect at once
		if (mcpExample) await n8n.activate(mcpExample.id);
		// the examples Nexthink calls are live too: test/server/outbound.js plays Nexthink against them
		for (const { workflow } of readExamples().filter(({ workflow }) => isCalledByNexthink(workflow))) await n8n.activate(workflow.id);
		fs.writeFileSync(options.examplesMarker, new Date().toISOString() + '\n');
	} else if (mcpExample && !(await workflowIds(n8n, { active: true })).includes(mcpExample.id)) {
		if ((await workflowIds(n8n)).includes(mcpExample.id)) {
			mcpPublished = false; // the user unpublished it: leave it so
		} else {
			// a folder from before the example existed, or one where it was deleted
			say(`importing and publishing the MCP server example "${mcpExample.name}"`);
			await n8n.importWorkflows([mcpExample]);
			await n8n.activate(mcpExample.id);
		}
	}
	say(`starting n8n ${n8n.runtime.version} (log: ${path.join(home, 'logs', 'main.log')})`);
	await n8n.start();
	await new RestSession(n8n.baseUrl).ownerSession(OWNER);
	const mcpLines = mcpExample ? await mcpServerLines(n8n, mcpExample, mcpPublished) : [];

	process.stdout.write(
		[
			'',
			`  n8n with the Nexthink nodes:   ${n8n.baseUrl}`,
			`  login:                         ${OWNER.email} / ${OWNER.password}`,
			`  local Nexthink API server:     ${api.baseUrl} (client ${api.clientId} / ${api.clientSecret})`,
			`  credential "${CREDENTIAL.name}" points at it; example workflows are under Overview.`,
			...mcpLines,
			`  files written by workflows:    ${filesDir}`,
			`  Nexthink calling n8n:          node test/server/outbound.js alert|exporter|workflow ${n8n.baseUrl}/webhook/<path> ${CONNECTOR_TOKEN}`,
			`                                 (the Event Trigger examples; credential "Nexthink connector (local)")`,
			'',
			'  Press Ctrl-C to stop.',
			'',
		].join('\n'),
	);
}

/**
 * The IDs of the workflows in the instance's database (`n8n list:workflow`; with `active`, the
 * published ones). @param {N8nInstance} n8n @param {{ active?: boolean }} [filter]
 */
async function workflowIds(n8n, filter = {}) {
	const result = await n8n.cliOk(['list:workflow', '--onlyId', ...(filter.active ? ['--active=true'] : [])]);
	return result.stdout.split('\n').map((line) => line.trim());
}

/**
 * The lines about the MCP server example: its URL once an MCP client got the tools from it,
 * otherwise what is wrong. @param {N8nInstance} n8n @param {any} example @param {boolean} published
 */
async function mcpServerLines(n8n, example, published) {
	const url = mcpServerUrl(n8n.baseUrl, example);
	if (!published) return [`  MCP server:                    not published: publish "${example.name}" in the editor; its URL is ${url}`];
	say('checking the MCP server example with an MCP client');
	const probe = await probeMcpServer(url, { timeoutMs: 90_000 });
	if (!probe.ok) return [`  MCP server:                    ${url} does not answer as an MCP server: ${probe.reason} (see the log)`];
	return [`  MCP server (${probe.tools.length} Nexthink tools): ${url}`, `                                 (example "${example.name}"; client set-ups: docs/ai-agents.md)`];
}

main().catch((error) => {
	process.stderr.write(`[start] ${error.message}\n`);
	process.exit(1);
});
