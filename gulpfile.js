// What n8n's own `n8n-node` CLI does not do for this package (docs/decisions.md, "n8n's own
// toolchain"). `n8n-node build` compiles and copies the icons, `n8n-node lint` lints with the
// template's eslint.config.mjs; this file holds only the rest.

/**
 * `gulp lint`: the verification scanner's own rules, as the scanner applies them and unlike
 * `n8n-node lint`: its flat config (`buildScanConfig()` of @n8n/scan-community-package), inline
 * `eslint-disable` comments ignored (`allowInlineConfig: false`), on the scanner's files
 * (`SOURCE_FILE_PATTERNS`: package.json, nodes/, credentials/). Unlike the scanner, warnings fail too.
 */
async function lintScannerRules() {
	const { ESLint } = require('eslint');
	const glob = require('fast-glob');
	const { buildScanConfig, SOURCE_FILE_PATTERNS } = await import('@n8n/scan-community-package/scanner/scanner.mjs');
	const eslint = new ESLint({ cwd: __dirname, allowInlineConfig: false, overrideConfigFile: true, overrideConfig: await buildScanConfig() });
	const files = glob.sync(SOURCE_FILE_PATTERNS, { cwd: __dirname, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
	const results = await eslint.lintFiles(files);
	const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
	if (problems > 0) {
		const formatter = await eslint.loadFormatter('stylish');
		throw new Error(`${await formatter.format(results)}\nn8n scanner rules: ${problems} problem(s)`);
	}
	console.log(`n8n scanner rules: ${files.length} files clean`);
}

exports.lint = lintScannerRules;
