// @ts-check
'use strict';

/**
 * Drives one real n8n (installed by `n8n-install.js`) on loopback: its own user folder, the CLI
 * (`import:*`, `publish`), `n8n start` / `n8n worker` as child processes, and the REST API with
 * an owner session (which also runs workflows as the editor does). Used by the end-to-end suite,
 * `npm start` and the screenshots.
 * Recipes and their reasons: docs/e2e.md.
 */

const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

/** Settings every run shares: loopback only, no calls home, no banners. */
const BASE_ENV = {
	N8N_LISTEN_ADDRESS: '127.0.0.1',
	N8N_HOST: '127.0.0.1',
	N8N_PROTOCOL: 'http',
	N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
	N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	N8N_HIRING_BANNER_ENABLED: 'false',
	N8N_SECURE_COOKIE: 'false',
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
	N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
	EXTERNAL_FRONTEND_HOOKS_URLS: '',
	N8N_DEV_RELOAD: 'false',
};

/**
 * Settings never passed on from the shell that runs n8n here, because the docs say a user does not
 * need them: n8n offers community nodes as tools without `N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE`
 * (n8n 1.85 removed it: https://github.com/n8n-io/n8n/pull/14042), and the end-to-end suite checks
 * the tools on n8n processes started without it (test/e2e/cases/mcpCases.js).
 */
const LEFT_OUT_ENV = ['N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE'];

/** A free TCP port on 127.0.0.1 (the OS picks it; it is released before use, so take it soon). */
async function freePort() {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a command to completion without blocking the event loop (the caller may be serving the
 * API the command talks to).
 * @param {string} command @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs?: number }} [options]
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function runCommand(command, args, options = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
		/** @type {Buffer[]} */ const out = [];
		/** @type {Buffer[]} */ const err = [];
		child.stdout.on('data', (chunk) => out.push(chunk));
		child.stderr.on('data', (chunk) => err.push(chunk));
		const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
		});
	});
}

/**
 * Packs the package the way it is published (`npm pack`: only the `files` list) and returns the
 * tarball path. The package must have been built (`npm run build`).
 * @param {string} repoDir @param {string} destDir
 */
async function packPackage(repoDir, destDir) {
	fs.mkdirSync(destDir, { recursive: true });
	const result = await runCommand('npm', ['pack', '--json', '--pack-destination', destDir], { cwd: repoDir, env: process.env });
	if (result.code !== 0) throw new Error(`npm pack failed:\n${result.stderr}`);
	const [{ filename }] = JSON.parse(result.stdout);
	return path.join(destDir, filename);
}

/**
 * Installs a packed community package into an n8n user folder as n8n's own installer does:
 * unpack into `.n8n/nodes/node_modules/<name>` and drop dev, peer and optional dependencies from
 * its manifest. The package has no runtime dependencies, so the final `npm install` n8n runs
 * there has nothing to fetch and is skipped. n8n scans that folder at boot.
 * @param {string} userFolder @param {string} tarball @returns {string} the package directory
 */
function installCommunityPackage(userFolder, tarball) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const unpackDir = fs.mkdtempSync(path.join(userFolder, 'package-unpack-'));
	try {
		const untar = spawnSync('tar', ['-xzf', tarball, '-C', unpackDir]);
		if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
		const packageDir = path.join(unpackDir, 'package');
		const manifestPath = path.join(packageDir, 'package.json');
		const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
		if (manifest.dependencies && Object.keys(manifest.dependencies).length > 0) {
			throw new Error(`${manifest.name} declares runtime dependencies; community nodes must ship without them`);
		}
		delete manifest.devDependencies;
		delete manifest.peerDependencies;
		delete manifest.optionalDependencies;
		fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
		const target = path.join(nodesDir, 'node_modules', manifest.name);
		fs.rmSync(target, { recursive: true, force: true });
		fs.mkdirSync(path.dirname(target), { recursive: true });
		fs.renameSync(packageDir, target);
		fs.writeFileSync(
			path.join(nodesDir, 'package.json'),
			JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [manifest.name]: manifest.version } }, null, 2) + '\n',
		);
		return target;
	} finally {
		fs.rmSync(unpackDir, { recursive: true, force: true });
	}
}

class N8nInstance {
	/**
	 * @param {object} options
	 * @param {ReturnType<typeof import('./n8n-install').ensureN8n>} options.runtime
	 * @param {string} options.userFolder  n8n keeps `.n8n/` (database, config, nodes) here
	 * @param {number} options.port        editor/REST/webhook port
	 * @param {number} options.brokerPort  task-runner broker port (2.x starts one per process)
	 * @param {string} options.logDir      where server process logs go
	 * @param {Record<string, string>} [options.env]  extra environment (database, queue, ...)
	 */
	constructor(options) {
		this.runtime = options.runtime;
		this.userFolder = options.userFolder;
		this.port = options.port;
		this.brokerPort = options.brokerPort;
		this.logDir = options.logDir;
		this.extraEnv = options.env ?? {};
		this.baseUrl = `http://127.0.0.1:${this.port}`;
		/** @type {Map<string, import('node:child_process').ChildProcess>} */
		this.processes = new Map();
		fs.mkdirSync(path.join(this.userFolder, '.n8n'), { recursive: true });
		fs.mkdirSync(this.logDir, { recursive: true });
	}

	/**
	 * An instance laid out under `folder` (`home/` is its user folder, `logs/` its process logs), on
	 * `port` or a free one, with a free task-runner broker port.
	 * @param {ReturnType<typeof import('./n8n-install').ensureN8n>} runtime
	 * @param {string} folder
	 * @param {{ port?: number, env?: Record<string, string> }} [options]
	 */
	static async inFolder(runtime, folder, options = {}) {
		return new N8nInstance({
			runtime,
			userFolder: path.join(folder, 'home'),
			logDir: path.join(folder, 'logs'),
			port: options.port ?? (await freePort()),
			brokerPort: await freePort(),
			env: options.env,
		});
	}

	get major() {
		return this.runtime.major;
	}

	/** @param {Record<string, string>} [extra] @returns {NodeJS.ProcessEnv} */
	env(extra = {}) {
		/** @type {NodeJS.ProcessEnv} */
		const env = {
			...process.env,
			...BASE_ENV,
			PATH: `${this.runtime.pathPrefix}${path.delimiter}${process.env.PATH}`,
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: 'e2e-only-not-a-secret-key',
			N8N_PORT: String(this.port),
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_EDITOR_BASE_URL: `${this.baseUrl}/`,
			WEBHOOK_URL: `${this.baseUrl}/`,
			...this.extraEnv,
			...extra,
		};
		// 1.x evaluates expressions in isolated-vm by default, which has no Node 20 build.
		if (this.major === 1 && Number(process.versions.node.split('.')[0]) < 22 && this.runtime.node === process.execPath) {
			env.N8N_EXPRESSION_ENGINE = 'legacy';
		}
		delete env.NODE_OPTIONS;
		for (const name of LEFT_OUT_ENV) delete env[name];
		return env;
	}

	/**
	 * Runs an n8n CLI command. @param {string[]} args
	 * @param {{ env?: Record<string, string>, timeoutMs?: number }} [options]
	 */
	async cli(args, options = {}) {
		return await runCommand(this.runtime.node, [this.runtime.n8nMain, ...args], {
			cwd: this.userFolder,
			env: this.env(options.env),
			timeoutMs: options.timeoutMs ?? 10 * 60 * 1000,
		});
	}

	/** @param {string[]} args @param {{ env?: Record<string, string> }} [options] */
	async cliOk(args, options) {
		const result = await this.cli(args, options);
		if (result.code !== 0) throw new Error(`n8n ${args.join(' ')} exited ${result.code}:\n${tail(result.stdout + result.stderr)}`);
		return result;
	}

	/** Imports credentials given as plain data; n8n encrypts them. @param {object[]} credentials */
	async importCredentials(credentials) {
		const file = path.join(this.userFolder, `credentials-${Date.now()}.json`);
		fs.writeFileSync(file, JSON.stringify(credentials, null, 2));
		try {
			await this.cliOk(['import:credentials', `--input=${file}`]);
		} finally {
			fs.rmSync(file, { force: true });
		}
	}

	/** Imports workflows (each with its own `id`) in one CLI call. @param {object[]} workflows */
	async importWorkflows(workflows) {
		const dir = fs.mkdtempSync(path.join(this.userFolder, 'workflows-'));
		try {
			for (const [index, workflow] of workflows.entries()) {
				fs.writeFileSync(path.join(dir, `${index}.json`), JSON.stringify(workflow, null, 2));
			}
			await this.cliOk(['import:workflow', '--separate', `--input=${dir}`]);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	}

	/**
	 * Makes a webhook- or schedule-started workflow live (a database change: do it before `start`).
	 * @param {string} workflowId
	 */
	async activate(workflowId) {
		if (this.major >= 2) await this.cliOk(['publish:workflow', `--id=${workflowId}`]);
		else await this.cliOk(['update:workflow', `--id=${workflowId}`, '--active=true']);
	}

	/**
	 * Starts a long-running n8n process (`start`, `worker`) and waits until `ready()` resolves true.
	 * @param {string} name  key for `stop`, also the log file name
	 * @param {string[]} args
	 * @param {{ env?: Record<string, string>, ready?: () => Promise<boolean>, timeoutMs?: number }} [options]
	 */
	async spawnProcess(name, args, options = {}) {
		const logFile = path.join(this.logDir, `${name}.log`);
		const log = fs.openSync(logFile, 'a');
		const child = spawn(this.runtime.node, [this.runtime.n8nMain, ...args], {
			cwd: this.userFolder,
			env: this.env(options.env),
			stdio: ['ignore', log, log],
		});
		fs.closeSync(log);
		this.processes.set(name, child);
		let exited = false;
		child.on('exit', () => {
			exited = true;
		});
		const ready = options.ready ?? (() => this.isReady());
		const deadline = Date.now() + (options.timeoutMs ?? 300_000);
		while (Date.now() < deadline) {
			if (exited) throw new Error(`n8n ${args.join(' ')} exited early:\n${tail(fs.readFileSync(logFile, 'utf8'))}`);
			if (await ready().catch(() => false)) return child;
			await sleep(250);
		}
		throw new Error(`n8n ${args.join(' ')} was not ready in time:\n${tail(fs.readFileSync(logFile, 'utf8'))}`);
	}

	/** `n8n start`; resolves once the REST API answers. @param {{ env?: Record<string, string> }} [options] */
	async start(options = {}) {
		return await this.spawnProcess('main', ['start'], options);
	}

	/** The database is up and the REST routes are mounted (1.x answers readiness before mounting them). */
	async isReady() {
		const readiness = await fetch(`${this.baseUrl}/healthz/readiness`);
		if (!readiness.ok) return false;
		const settings = await fetch(`${this.baseUrl}/rest/settings`);
		return settings.ok;
	}

	/**
	 * The environment a running process really got (Linux: `/proc/<pid>/environ`), so a check can
	 * prove what n8n was started without. @param {string} name @returns {Record<string, string>}
	 */
	environmentOf(name) {
		const child = this.processes.get(name);
		if (!child?.pid || child.exitCode !== null) throw new Error(`n8n process "${name}" is not running`);
		const entries = fs.readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0').filter((entry) => entry.includes('='));
		return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
	}

	/** The text a process has logged so far. @param {string} name */
	logOf(name) {
		const file = path.join(this.logDir, `${name}.log`);
		return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	}

	/** Stops one process (SIGTERM, then SIGKILL after 20 s). @param {string} name */
	async stop(name) {
		const child = this.processes.get(name);
		this.processes.delete(name);
		if (!child || child.exitCode !== null || child.signalCode !== null) return;
		const exited = new Promise((resolve) => child.once('exit', resolve));
		child.kill('SIGTERM');
		const killTimer = setTimeout(() => child.kill('SIGKILL'), 20_000);
		await exited;
		clearTimeout(killTimer);
	}

	async stopAll() {
		for (const name of [...this.processes.keys()].reverse()) await this.stop(name);
	}

	/**
	 * Polls a production webhook until it is registered, then posts to it and returns the parsed answer.
	 * @param {string} webhookPath @param {unknown} [body]
	 */
	async callWebhook(webhookPath, body = {}) {
		const deadline = Date.now() + 120_000;
		for (;;) {
			const response = await fetch(`${this.baseUrl}/webhook/${webhookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			const text = await response.text();
			if (response.status === 404 && Date.now() < deadline) {
				await sleep(500);
				continue;
			}
			return { status: response.status, body: text.length > 0 ? JSON.parse(text) : undefined };
		}
	}
}

/**
 * A logged-in owner session on n8n's internal REST API (`/rest/...`).
 */
class RestSession {
	/** @param {string} baseUrl */
	constructor(baseUrl) {
		this.baseUrl = baseUrl;
		this.cookie = '';
		this.browserId = 'n8n-nodes-nexthink-e2e';
	}

	/**
	 * @param {string} method @param {string} urlPath @param {unknown} [body]
	 * @returns {Promise<{ status: number, body: any }>}
	 */
	async request(method, urlPath, body) {
		/** @type {Record<string, string>} */
		const headers = { 'browser-id': this.browserId };
		if (this.cookie) headers.cookie = this.cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const response = await fetch(`${this.baseUrl}/rest${urlPath}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const auth = (response.headers.getSetCookie?.() ?? []).find((cookie) => cookie.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await response.text();
		let parsed;
		try {
			parsed = text.length > 0 ? JSON.parse(text) : undefined;
		} catch {
			parsed = text;
		}
		return { status: response.status, body: parsed };
	}

	/**
	 * Runs a saved workflow from its manual trigger as the editor's *Execute Workflow* button does
	 * (`POST /rest/workflows/:id/run`, execution mode `manual`) and returns the new execution's id;
	 * the run goes on in n8n (read it with `finishedExecution` of test/e2e/lib/runData.js).
	 * 2.x reads the workflow from its database and needs only the trigger to start from; 1.x runs
	 * the `workflowData` the editor sends, so the stored workflow is sent back as it is.
	 * @param {string} workflowId
	 */
	async runManually(workflowId) {
		const stored = await this.request('GET', `/workflows/${workflowId}`);
		if (stored.status !== 200) throw new Error(`GET /workflows/${workflowId} answered ${stored.status}: ${JSON.stringify(stored.body)}`);
		const workflowData = stored.body.data;
		const trigger = workflowData.nodes.find((/** @type {{ type: string }} */ node) => node.type === 'n8n-nodes-base.manualTrigger');
		if (!trigger) throw new Error(`workflow ${workflowId} has no manual trigger`);
		const run = await this.request('POST', `/workflows/${workflowId}/run`, { workflowData, triggerToStartFrom: { name: trigger.name } });
		const executionId = run.body?.data?.executionId;
		if (run.status !== 200 || executionId === undefined) {
			throw new Error(`POST /workflows/${workflowId}/run answered ${run.status}: ${JSON.stringify(run.body)}`);
		}
		return executionId;
	}

	/**
	 * GETs a JSON document outside `/rest` with the session cookie (n8n protects `/types/*.json`).
	 * @param {string} urlPath
	 */
	async getJson(urlPath) {
		const response = await fetch(`${this.baseUrl}${urlPath}`, { headers: { cookie: this.cookie, 'browser-id': this.browserId } });
		if (!response.ok) throw new Error(`GET ${urlPath} answered ${response.status}`);
		return await response.json();
	}

	/**
	 * Creates the owner on a fresh database, or logs in when one exists.
	 * @param {{ email: string, password: string, firstName: string, lastName: string }} owner
	 */
	async ownerSession(owner) {
		const setup = await this.request('POST', '/owner/setup', owner);
		if (setup.status === 200) return;
		const login = await this.request('POST', '/login', { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password });
		if (login.status !== 200) throw new Error(`owner setup (${setup.status}) and login (${login.status}) failed: ${JSON.stringify(login.body)}`);
	}
}

/** The last lines of a long output, for error messages. @param {string} text */
function tail(text, lines = 40) {
	return text.split('\n').slice(-lines).join('\n');
}

module.exports = {
	LEFT_OUT_ENV,
	N8nInstance,
	RestSession,
	freePort,
	packPackage,
	installCommunityPackage,
	runCommand,
	sleep,
	tail,
};
