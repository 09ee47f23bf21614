// @ts-check
/** Helpers shared by the benchmark scripts. */
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '../..');
const BENCHMARKS_DOC = path.join(ROOT, 'docs/benchmarks.md');

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

/** @param {string} name @returns {string | undefined} */
function stringOption(name) {
	const index = process.argv.indexOf(name);
	return index === -1 ? undefined : process.argv[index + 1];
}

/** The 1-, 5- and 15-minute load averages, as `cat /proc/loadavg` shows them. */
function loadAverage() {
	return os
		.loadavg()
		.map((value) => value.toFixed(2))
		.join(' ');
}

/**
 * Replaces the generated part of a section of docs/benchmarks.md: the text between
 * `<!-- bench:<name> -->` and `<!-- /bench:<name> -->` (appended at the end of the file when the
 * markers are missing). Scripts call it when run with `--write-docs` (as `npm run bench` does).
 * @param {string} name @param {string} markdown
 */
function writeDocsSection(name, markdown) {
	const start = `<!-- bench:${name} -->`;
	const end = `<!-- /bench:${name} -->`;
	const doc = fs.readFileSync(BENCHMARKS_DOC, 'utf8');
	const block = `${start}\n${markdown.trim()}\n${end}`;
	const from = doc.indexOf(start);
	const to = doc.indexOf(end);
	const updated = from !== -1 && to > from ? doc.slice(0, from) + block + doc.slice(to + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
	fs.writeFileSync(BENCHMARKS_DOC, updated);
	console.log(`docs/benchmarks.md: section ${name} written`);
}

/**
 * A compiled checkout to compare against (`--baseline <dir or commit>`): a directory is used as it is
 * (it must be built); a commit is exported with `git archive` into a temporary directory that shares
 * this checkout's node_modules, and built there (`npm run build`), once per commit.
 * @param {string | undefined} spec
 * @returns {{ dir: string, label: string } | undefined}
 */
function prepareBaseline(spec) {
	if (spec === undefined) return undefined;
	if (fs.existsSync(spec)) {
		if (!fs.existsSync(path.join(spec, 'dist'))) throw new Error(`--baseline ${spec}: no dist/ there, build it first`);
		return { dir: path.resolve(spec), label: path.basename(spec) };
	}
	const commit = execFileSync('git', ['rev-parse', '--short', spec], { cwd: ROOT, encoding: 'utf8' }).trim();
	const dir = path.join(os.tmpdir(), `nexthink-baseline-${commit}`);
	if (!fs.existsSync(path.join(dir, 'dist/nodes/Nexthink/results/readCsvRows.js'))) {
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${dir}'`], { cwd: ROOT });
		fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
		console.log(`building baseline ${commit} in ${dir}`);
		execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
	}
	return { dir, label: commit };
}

/** A markdown table. @param {string[]} header @param {Array<Array<string | number>>} rows @param {string} [align] one of l/r per column */
function markdownTable(header, rows, align = '') {
	const line = (/** @type {Array<string | number>} */ cells) => `| ${cells.join(' | ')} |`;
	const rule = header.map((_, index) => (align[index] === 'r' ? '---:' : '---'));
	return [line(header), line(rule), ...rows.map(line)].join('\n');
}

module.exports = {
	registerTypeScript,
	runWorker,
	runBenchmarkScript,
	medianOf,
	numberOption,
	stringOption,
	loadAverage,
	writeDocsSection,
	prepareBaseline,
	markdownTable,
};
