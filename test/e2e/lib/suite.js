// @ts-check
'use strict';

/**
 * A minimal sequential test runner: the end-to-end cases share expensive fixtures (an n8n
 * install, a running n8n, a database), so they run one after the other inside phases that set
 * those fixtures up, and the suite ends with one `N passed, N failed` line.
 */

class Suite {
	constructor() {
		/** @type {{ name: string, ok: boolean, ms: number, error?: string }[]} */
		this.results = [];
		/** @type {{ name: string, ms: number }[]} fixture set-ups and how long each took */
		this.setUps = [];
		this.started = Date.now();
	}

	/**
	 * Runs one test and records its outcome; a failure never stops the suite.
	 * @param {string} name @param {() => Promise<void> | void} body
	 */
	async test(name, body) {
		const started = Date.now();
		try {
			await body();
			this.record(name, true, Date.now() - started);
		} catch (error) {
			this.record(name, false, Date.now() - started, error instanceof Error ? error.stack ?? error.message : String(error));
		}
	}

	/**
	 * Runs a phase's fixture set-up; when it throws, every test the phase would have run is
	 * recorded as failed with the set-up error.
	 * @template T @param {string} name @param {string[]} dependentTests @param {() => Promise<T>} setUp
	 * @returns {Promise<T | undefined>}
	 */
	async setUp(name, dependentTests, setUp) {
		const started = Date.now();
		try {
			const value = await setUp();
			this.setUps.push({ name, ms: Date.now() - started });
			log(`${name}: ready in ${seconds(Date.now() - started)}`);
			return value;
		} catch (error) {
			const message = `set-up "${name}" failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`;
			for (const test of dependentTests) this.record(test, false, 0, message);
			return undefined;
		}
	}

	/** @param {string} name @param {boolean} ok @param {number} ms @param {string} [error] */
	record(name, ok, ms, error) {
		this.results.push({ name, ok, ms, error });
		process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name} (${seconds(ms)})\n`);
		if (error) process.stdout.write(indent(error) + '\n');
	}

	/** Prints the summary and returns the process exit code. */
	finish() {
		const failed = this.results.filter((result) => !result.ok);
		const passed = this.results.length - failed.length;
		process.stdout.write('\nslowest ten (tests and set-ups):\n');
		const timed = [...this.results.map((result) => ({ name: result.name, ms: result.ms })), ...this.setUps.map((setUp) => ({ name: `set-up: ${setUp.name}`, ms: setUp.ms }))];
		for (const entry of timed.sort((a, b) => b.ms - a.ms).slice(0, 10)) process.stdout.write(`  ${seconds(entry.ms).padStart(8)}  ${entry.name}\n`);
		process.stdout.write(`e2e total time ${seconds(Date.now() - this.started)}\n`);
		if (failed.length > 0) {
			process.stdout.write('failed:\n');
			for (const result of failed) process.stdout.write(`  ${result.name}\n`);
		}
		process.stdout.write(`${passed} passed, ${failed.length} failed\n`);
		return failed.length === 0 && this.results.length > 0 ? 0 : 1;
	}
}

/** @param {number} ms */
function seconds(ms) {
	return `${(ms / 1000).toFixed(1)} s`;
}

/** @param {string} text */
function indent(text) {
	return text
		.split('\n')
		.map((line) => `      ${line}`)
		.join('\n');
}

/** @param {string} message */
function log(message) {
	process.stdout.write(`-- ${message}\n`);
}

module.exports = { Suite, log, seconds };
