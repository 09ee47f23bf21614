// Lints the package exactly as n8n's verification scanner does: the flat config comes from
// `buildScanConfig()` of @n8n/scan-community-package, inline `eslint-disable` comments are ignored
// (`allowInlineConfig: false`), and the files are the scanner's SOURCE_FILE_PATTERNS
// (package.json plus nodes/ and credentials/). Unlike the scanner, warnings fail too.
import { ESLint } from 'eslint';
import glob from 'fast-glob';
import { buildScanConfig, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = process.argv[2] ?? process.cwd();
const patterns = process.argv[3] ? [process.argv[3]] : SOURCE_FILE_PATTERNS;
const eslint = new ESLint({
	cwd: root,
	allowInlineConfig: false,
	overrideConfigFile: true,
	overrideConfig: await buildScanConfig(),
});
const files = glob.sync(patterns, {
	cwd: root,
	absolute: true,
	ignore: ['node_modules/**', '**/package-lock.json'],
});
const results = await eslint.lintFiles(files);
const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
if (problems > 0) {
	const formatter = await eslint.loadFormatter('stylish');
	console.error(await formatter.format(results));
	console.error(`n8n scanner lint: ${problems} problem(s) in ${root}`);
	process.exit(1);
}
console.log(`n8n scanner lint: ${files.length} files clean`);
