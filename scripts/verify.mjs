// `npm run verify`: the verification scanner's own analysis (`analyzePackage` from
// @n8n/scan-community-package), as `npx @n8n/scan-community-package` runs it minus the provenance
// step: once on the source (package.json, nodes/, credentials/) and once on the packed tarball,
// exactly what npm would publish. Fails on any finding.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = process.cwd();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nexthink-verify-'));
let failed = false;

async function check(label, dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	if (result.passed) {
		console.log(`verify: ${label}: passed${result.message ? ` (${result.message})` : ''}`);
	} else {
		failed = true;
		console.error(`verify: ${label}: ${result.message}\n${result.details ?? ''}`);
	}
}

try {
	await check('source', root, SOURCE_FILE_PATTERNS);
	const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: root, encoding: 'utf8' }).trim().split('\n').pop();
	execFileSync('tar', ['-xzf', path.join(work, tarball), '-C', work]);
	const packageDir = path.join(work, 'package');
	const files = execFileSync('find', ['.', '-type', 'f'], { cwd: packageDir, encoding: 'utf8' }).trim().split('\n');
	const unexpected = files.filter((f) => !/^\.\/(dist\/|package\.json$|README\.md$|LICENSE\.md$|CHANGELOG\.md$)/.test(f));
	if (unexpected.length > 0) {
		failed = true;
		console.error(`verify: tarball holds files outside dist/, README, licence, changelog and package.json:\n${unexpected.join('\n')}`);
	} else {
		console.log(`verify: tarball holds ${files.length} files, all expected`);
	}
	await check('tarball', packageDir, ['**/*.js', 'package.json']);
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
