// @ts-check
/** Helpers shared by the benchmark scripts. */
const { spawn } = require('node:child_process');
const fs = require('node:fs');

/** Loads .ts files by transpiling them (types are not checked): the in-process harness is TypeScript. */
function registerTypeScript() {
	const ts = require('typescript');
	require.extensions['.ts'] = (module, filename) => {
		const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
			fileName: filename,
			compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
		});
		/** @type {any} */ (module)._compile(outputText, filename);
	};
}

/**
 * Runs `script --worker <json args>` in a fresh Node process (so its peak RSS is its own) and
 * resolves with the JSON it prints. Asynchronous on purpose: a server living in the calling process
 * must keep answering while the worker runs.
 * @param {string} script
 * @param {object} args
 * @param {string} label
 * @param {number} [heapMb]  the worker's --max-old-space-size (default 4096)
 * @returns {Promise<any>}
 */
function runWorker(script, args, label, heapMb = 4096) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, script, '--worker', JSON.stringify(args)], {
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env, N8N_LOG_LEVEL: 'silent' },
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('close', (code) => {
			if (code !== 0) reject(new Error(`${label} worker failed (${code}): ${stderr}`));
			else resolve(JSON.parse(stdout));
		});
	});
}

/** @param {number[]} values */
function medianOf(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** @param {string} name @param {number} fallback */
function numberOption(name, fallback) {
	const index = process.argv.indexOf(name);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
}

/**
 * Entry point of a benchmark script: `script --worker <json>` runs `worker(args)` and prints its
 * JSON result (see runWorker); otherwise `main()` runs.
 * @param {(args: any) => Promise<object>} worker
 * @param {() => Promise<void>} main
 */
function runBenchmarkScript(worker, main) {
	const fail = (/** @type {unknown} */ error) => {
		console.error(error);
		process.exit(1);
	};
	if (process.argv[2] === '--worker') {
		worker(JSON.parse(process.argv[3])).then(
			// exit at once: idle keep-alive sockets would otherwise hold the measured process open
			(result) => process.stdout.write(JSON.stringify(result), () => process.exit(0)),
			fail,
		);
	} else {
		main().catch(fail);
	}
}

module.exports = { registerTypeScript, runWorker, runBenchmarkScript, medianOf, numberOption };
