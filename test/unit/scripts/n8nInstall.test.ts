/**
 * The n8n installer's bookkeeping (`scripts/n8n-install.js`): when an install counts as done, and
 * what happens to a cached one that no longer works. The real installs (minutes, gigabytes) run in
 * the end-to-end suite and `npm start`; here the steps are stand-ins that record what was called.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const { ensureInstalled, npmEnv, probe } = require('../../../scripts/n8n-install');

interface Stand {
	calls: string[];
	/** what the quick check and the thorough check report (undefined: fine) */
	quick: () => string | undefined;
	thorough: () => string | undefined;
	repairFixes: boolean;
	installWorks: boolean;
}

let root: string;
let dir: string;
let stand: Stand;

function steps() {
	return {
		install: (target: string) => {
			stand.calls.push('install');
			fs.writeFileSync(path.join(target, 'payload'), stand.installWorks ? 'good' : 'bad');
		},
		verify: () => {
			stand.calls.push('verify');
			return fs.readFileSync(path.join(dir, 'payload'), 'utf8') === 'good' ? stand.quick() : 'payload is broken';
		},
		accept: () => {
			stand.calls.push('accept');
			return stand.thorough();
		},
		repair: () => {
			stand.calls.push('repair');
			if (stand.repairFixes) fs.writeFileSync(path.join(dir, 'payload'), 'good');
		},
	};
}

const marker = () => path.join(dir, '.complete');

beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-install-test-'));
	dir = path.join(root, 'n8n-x');
	stand = { calls: [], quick: () => undefined, thorough: () => undefined, repairFixes: true, installWorks: true };
	jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(() => {
	jest.restoreAllMocks();
	fs.rmSync(root, { recursive: true, force: true });
});

describe('ensureInstalled', () => {
	it('installs, checks thoroughly, then writes the marker; a later call only runs the quick check', () => {
		ensureInstalled(dir, steps());
		expect(stand.calls).toEqual(['install', 'verify', 'accept']);
		expect(fs.existsSync(marker())).toBe(true);

		stand.calls = [];
		ensureInstalled(dir, steps());
		expect(stand.calls).toEqual(['verify']);
	});

	it('writes no marker when the new install fails its check, and says why', () => {
		stand.thorough = () => 'n8n list:workflow exited 1: SQLite package has not been found installed';
		expect(() => ensureInstalled(dir, steps())).toThrow(/does not work: n8n list:workflow exited 1: SQLite package/);
		expect(fs.existsSync(marker())).toBe(false);

		// the next call starts over instead of trusting the half-done folder
		stand.thorough = () => undefined;
		stand.calls = [];
		ensureInstalled(dir, steps());
		expect(stand.calls).toEqual(['install', 'verify', 'accept']);
		expect(fs.existsSync(marker())).toBe(true);
	});

	it('repairs a cached install that fails the quick check, and keeps it once it passes the thorough one', () => {
		ensureInstalled(dir, steps());
		fs.writeFileSync(path.join(dir, 'payload'), 'bad'); // e.g. the SQLite driver's build is gone
		stand.calls = [];
		ensureInstalled(dir, steps());
		expect(stand.calls).toEqual(['verify', 'verify', 'repair', 'verify', 'accept']);
		expect(fs.existsSync(marker())).toBe(true);
	});

	it('installs again when the repair does not help', () => {
		ensureInstalled(dir, steps());
		fs.writeFileSync(path.join(dir, 'payload'), 'bad');
		fs.writeFileSync(path.join(dir, 'left-over'), '');
		stand.repairFixes = false;
		stand.calls = [];
		ensureInstalled(dir, steps());
		expect(stand.calls).toEqual(['verify', 'verify', 'repair', 'verify', 'install', 'verify', 'accept']);
		expect(fs.existsSync(path.join(dir, 'left-over'))).toBe(false);
		expect(fs.existsSync(marker())).toBe(true);
	});
});

describe('npmEnv', () => {
	it('drops what npm passes to the scripts of this project, and keeps what the user chose', () => {
		const saved = { ...process.env };
		try {
			Object.assign(process.env, {
				npm_config_ignore_scripts: 'true',
				npm_config_local_prefix: '/clone',
				npm_config_nodedir: '/usr',
				npm_package_name: 'n8n-nodes-nexthink',
				npm_lifecycle_event: 'start',
				npm_config_cache: '/tmp/npm-cache',
				npm_config_registry: 'https://registry.example/',
			});
			const env = npmEnv({ npm_config_nodedir: '/node24' });
			expect(env.npm_config_ignore_scripts).toBeUndefined();
			expect(env.npm_config_local_prefix).toBeUndefined();
			expect(env.npm_package_name).toBeUndefined();
			expect(env.npm_lifecycle_event).toBeUndefined();
			expect(env.npm_config_nodedir).toBe('/node24');
			expect(env.npm_config_cache).toBe('/tmp/npm-cache');
			expect(env.npm_config_registry).toBe('https://registry.example/');
		} finally {
			for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
			Object.assign(process.env, saved);
		}
	});
});

describe('probe', () => {
	it('passes a program that runs, and reports the error message of one that throws', () => {
		expect(probe(process.execPath, os.tmpdir(), 'require("node:path")')).toBeUndefined();
		const problem = probe(process.execPath, os.tmpdir(), 'require("sqlite3-that-is-not-installed")');
		expect(problem).toMatch(/^the check in .*node exited 1: Error: Cannot find module 'sqlite3-that-is-not-installed'/);
	});
});
