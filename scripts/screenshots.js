#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run screenshots`: refreshes docs/screenshots (shown by the README and docs/*.md) from a real n8n 2.x with
 * this package and the example workflows, in headless Chromium. Everything runs in a temporary
 * folder on loopback and is removed afterwards.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureN8n } = require('./n8n-install');
const { N8nInstance, RestSession, installCommunityPackage, packPackage, runCommand } = require('./n8n-instance');
const { CREDENTIAL, connectorCredentialRecord, credentialRecord, readExamples, localised } = require('./n8n-examples');
const { startNexthinkServer } = require('../test/server');
const { captureEditor, editorShots } = require('../test/e2e/lib/editor');

const REPO = path.resolve(__dirname, '..');
const OUT_DIR = path.join(REPO, 'docs/screenshots');
const OWNER = { email: 'screenshots@example.com', firstName: 'Docs', lastName: 'Screenshots', password: 'Nexthink-docs-1' };

async function main() {
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-nexthink-screenshots-'));
	// 18080, as under `npm start`, so the credential form in the picture shows what users will see
	const server = await startNexthinkServer({ demo: true, port: 18080 }).catch(() => startNexthinkServer({ demo: true }));
	/** @type {N8nInstance | undefined} */
	let n8n;
	try {
		const build = await runCommand('npm', ['run', 'build'], { cwd: REPO, env: process.env });
		if (build.code !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
		const tarball = await packPackage(REPO, path.join(workDir, 'pack'));
		n8n = await N8nInstance.inFolder(ensureN8n(2), workDir);
		installCommunityPackage(n8n.userFolder, tarball);
		await n8n.importCredentials([credentialRecord(server), connectorCredentialRecord()]);
		const { shots, credentials, workflows } = editorShots(CREDENTIAL);
		await n8n.importWorkflows([...readExamples().map(({ file, workflow }) => localised(file, workflow, { filesDir: path.join(workDir, 'files') })), ...workflows]);
		await n8n.start();
		await new RestSession(n8n.baseUrl).ownerSession(OWNER);
		const written = await captureEditor({ baseUrl: n8n.baseUrl, owner: OWNER, outDir: OUT_DIR, shots, credentials });
		for (const file of written) process.stdout.write(`wrote ${path.relative(REPO, file)}\n`);
	} finally {
		await n8n?.stopAll();
		await server.close();
		fs.rmSync(workDir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
