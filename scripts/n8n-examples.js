// @ts-check
'use strict';

/**
 * The example workflows of docs/examples, ready to import into a local n8n: the nightly export's
 * target folder (`/data/nexthink/` in the file, for a real server) is pointed at a folder the
 * local n8n may write to. Used by `npm start` and the end-to-end suite.
 */

const fs = require('node:fs');
const path = require('node:path');

const { credentialData } = require('../test/server/client');

const EXAMPLES_DIR = path.resolve(__dirname, '../docs/examples');

/** The credential every example names; `npm start` and the suite import it under this id. */
const CREDENTIAL = Object.freeze({ id: 'nxLocalServer001', name: 'Nexthink API (local server)' });

/**
 * That credential as `n8n import:credentials` takes it, pointing at a local server.
 * @param {import('../test/server/client').ServerAddress} server
 * @param {{ clientSecret?: string, id?: string, name?: string }} [overrides] e.g. a wrong secret
 */
function credentialRecord(server, overrides = {}) {
	return {
		id: overrides.id ?? CREDENTIAL.id,
		name: overrides.name ?? CREDENTIAL.name,
		type: 'nexthinkApi',
		data: { ...credentialData(server), clientSecret: overrides.clientSecret ?? server.clientSecret },
	};
}

/**
 * The Nexthink connector credential the Event Trigger examples check calls against (Bearer), and
 * the token the sandbox's Nexthink stand-in (test/server/outbound.js) sends.
 */
const CONNECTOR_CREDENTIAL = Object.freeze({ id: 'nxConnectorLocal01', name: 'Nexthink connector (local)' });
const CONNECTOR_TOKEN = 'local-nexthink-connector-token-7c2e9b41';

/** That credential as `n8n import:credentials` takes it. */
function connectorCredentialRecord() {
	return { ...CONNECTOR_CREDENTIAL, type: 'nexthinkConnectorApi', data: { authType: 'bearer', token: CONNECTOR_TOKEN } };
}

/** The examples Nexthink calls (Nexthink Event Trigger): published on import, so their production URLs answer. */
const EVENT_TRIGGER_TYPE = 'n8n-nodes-nexthink.nexthinkEventTrigger';
/** @param {any} workflow */
const isCalledByNexthink = (workflow) => workflow.nodes.some((/** @type {any} */ node) => node.type === EVENT_TRIGGER_TYPE);

const NIGHTLY_FILE = 'nightly-device-inventory-export.json';
const NIGHTLY_FOLDER = '/data/nexthink/';

/** @returns {{ file: string, workflow: any }[]} every example, in file name order */
function readExamples() {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) }));
}

/**
 * An example as it should be imported locally.
 * @param {string} file @param {any} workflow @param {{ filesDir: string }} options
 */
function localised(file, workflow, options) {
	if (file !== NIGHTLY_FILE) return workflow;
	const copy = structuredClone(workflow);
	const write = copy.nodes.find((/** @type {any} */ node) => node.type === 'n8n-nodes-base.readWriteFile');
	if (!write || !String(write.parameters.fileName).includes(NIGHTLY_FOLDER)) {
		throw new Error(`${file}: expected a Read/Write Files node writing under ${NIGHTLY_FOLDER}`);
	}
	write.parameters.fileName = write.parameters.fileName.replace(NIGHTLY_FOLDER, `${options.filesDir}/`);
	return copy;
}

/** The example that serves the Nexthink tools to MCP clients (`npm start` publishes it on first import). */
const MCP_EXAMPLE_FILE = 'nexthink-mcp-server.json';

/**
 * The MCP URL of a workflow's MCP Server Trigger in an n8n at `baseUrl`: its production URL, live once
 * the workflow is published. Version 2 of the trigger (n8n 1.x and 2.x) serves Streamable HTTP
 * (POST) and SSE (GET) at `/mcp/<path>` (n8n's `N8N_ENDPOINT_MCP`, default `mcp`).
 * @param {string} baseUrl @param {any} workflow
 */
function mcpServerUrl(baseUrl, workflow) {
	const trigger = workflow.nodes.find((/** @type {any} */ node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger');
	if (!trigger || trigger.typeVersion < 2) throw new Error(`${workflow.name}: expected an MCP Server Trigger of version 2 or later`);
	return `${baseUrl}/mcp/${trigger.parameters.path}`;
}

module.exports = {
	CONNECTOR_CREDENTIAL,
	CONNECTOR_TOKEN,
	connectorCredentialRecord,
	isCalledByNexthink,
	CREDENTIAL,
	credentialRecord, readExamples, localised, mcpServerUrl, EXAMPLES_DIR, MCP_EXAMPLE_FILE };
