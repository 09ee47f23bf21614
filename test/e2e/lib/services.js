// @ts-check
'use strict';

/**
 * PostgreSQL and Redis for the queue-mode run, from Debian's packages
 * (`apt-get install -y redis-server postgresql`), each started in a temporary folder on
 * 127.0.0.1 and a free port, and stopped by the suite. Nothing is installed as a service.
 *
 * PostgreSQL refuses to run as root; when the suite runs as root, the server runs as the
 * `postgres` account the Debian package creates (its data folder is handed to that account).
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

const { freePort, sleep } = require('../../../scripts/n8n-instance');

/** The newest installed PostgreSQL's binaries folder, or undefined. */
function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return undefined;
	const versions = fs.readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
	const dir = versions.map((version) => path.join(root, version, 'bin')).find((candidate) => fs.existsSync(path.join(candidate, 'initdb')));
	return dir;
}

/** What is missing to run queue mode, as an install hint, or undefined when all is there. */
function missingQueueServices() {
	const missing = [];
	if (!postgresBinDir()) missing.push('postgresql');
	if (spawnSync('redis-server', ['--version']).status !== 0) missing.push('redis-server');
	return missing.length > 0 ? `missing Debian packages: apt-get update && apt-get install -y ${missing.join(' ')}` : undefined;
}

/**
 * Runs a command, as the `postgres` account when we are root. @param {string} command @param {string[]} args
 */
function asDatabaseUser(command, args) {
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	return isRoot ? { command: 'runuser', args: ['-u', 'postgres', '--', command, ...args] } : { command, args };
}

/** @param {string} command @param {string[]} args */
function runOk(command, args) {
	const invocation = asDatabaseUser(command, args);
	const result = spawnSync(invocation.command, invocation.args, { encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
	return result;
}

/**
 * Starts a throwaway PostgreSQL with a trusted superuser `n8n` and a database `n8n`.
 * @param {string} dir @returns {Promise<{ port: number, user: string, database: string, stop: () => Promise<void> }>}
 */
async function startPostgres(dir) {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)');
	const dataDir = path.join(dir, 'data');
	const socketDir = path.join(dir, 'socket');
	fs.mkdirSync(dataDir, { recursive: true });
	fs.mkdirSync(socketDir, { recursive: true });
	if (typeof process.getuid === 'function' && process.getuid() === 0) {
		spawnSync('chown', ['-R', 'postgres:postgres', dir]);
		// the postgres account must be able to reach its folder inside our (private) work folder
		for (let ancestor = path.dirname(dir); ancestor.startsWith(os.tmpdir() + path.sep); ancestor = path.dirname(ancestor)) {
			fs.chmodSync(ancestor, fs.statSync(ancestor).mode | 0o111);
		}
	}
	runOk(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'n8n', '--auth=trust', '--encoding=UTF8', '--no-locale']);
	const port = await freePort();
	const logFile = path.join(dir, 'postgres.log');
	runOk(path.join(bin, 'pg_ctl'), [
		'-D', dataDir, '-l', logFile, '-w', '-t', '60',
		'-o', `-c listen_addresses=127.0.0.1 -p ${port} -k ${socketDir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
		'start',
	]);
	runOk(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', 'n8n']);
	return {
		port,
		user: 'n8n',
		database: 'n8n',
		stop: async () => {
			runOk(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
		},
	};
}

/**
 * Starts a throwaway Redis without persistence.
 * @param {string} dir @returns {Promise<{ port: number, stop: () => Promise<void> }>}
 */
async function startRedis(dir) {
	fs.mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const log = fs.openSync(path.join(dir, 'redis.log'), 'a');
	const child = spawn(
		'redis-server',
		['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
		{ stdio: ['ignore', log, log] },
	);
	fs.closeSync(log);
	const deadline = Date.now() + 20_000;
	for (;;) {
		if (child.exitCode !== null) throw new Error(`redis-server exited:\n${fs.readFileSync(path.join(dir, 'redis.log'), 'utf8')}`);
		if (spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG') break;
		if (Date.now() > deadline) throw new Error('redis-server did not answer PING');
		await sleep(100);
	}
	return {
		port,
		stop: async () => {
			if (child.exitCode !== null) return;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
		},
	};
}

module.exports = { startPostgres, startRedis, missingQueueServices };
