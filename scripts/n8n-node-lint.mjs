// Runs n8n's own `n8n-node lint` (@n8n/node-cli, with the template's eslint.config.mjs) on the
// package as n8n's node template lays it out: package.json, tsconfig.json, eslint.config.mjs,
// nodes/ and credentials/. `n8n-node lint` runs `eslint .`, and the template's config applies the
// community-node rules to every TypeScript file under the folder, so in this repository it would
// also judge the tests, which run on the developer's machine and may use Node built-ins and
// timers. The copy is made in .tmp/ (git-ignored), with node_modules linked.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stage = path.join(root, '.tmp', 'n8n-node-lint');
fs.rmSync(stage, { recursive: true, force: true });
fs.mkdirSync(stage, { recursive: true });
for (const entry of ['package.json', 'tsconfig.json', 'eslint.config.mjs', 'nodes', 'credentials']) {
	fs.cpSync(path.join(root, entry), path.join(stage, entry), { recursive: true });
}
fs.symlinkSync(path.join(root, 'node_modules'), path.join(stage, 'node_modules'), 'dir');

const cli = path.join(root, 'node_modules', '.bin', 'n8n-node');
const result = spawnSync(cli, ['lint'], { cwd: stage, stdio: 'inherit', env: { ...process.env, CI: 'true' } });
fs.rmSync(stage, { recursive: true, force: true });
if (result.status !== 0) {
	console.error(`n8n-node lint failed (exit ${result.status ?? result.signal}) on nodes/, credentials/ and package.json`);
	process.exit(1);
}
console.log('n8n-node lint: clean');
