// @ts-check
'use strict';

/** The editor check: every Nexthink node panel and the credential forms render in real n8n. */

const assert = require('node:assert/strict');
const fs = require('node:fs');

const { captureEditor, editorShots } = require('../lib/editor');
const { CREDENTIAL } = require('../lib/workflow');

/**
 * @param {{ baseUrl: string, owner: { email: string, password: string }, screenshotDir: string }} options
 */
async function runEditorCheck(options) {
	const { shots, credentials } = editorShots(CREDENTIAL);
	const written = await captureEditor({ baseUrl: options.baseUrl, owner: options.owner, outDir: options.screenshotDir, shots, credentials });
	assert.equal(written.length, shots.length + credentials.length);
	for (const file of written) assert.ok(fs.statSync(file).size > 10_000, `${file} is a real picture`);
}

module.exports = { runEditorCheck };
