// @ts-check
'use strict';

/**
 * Checks that need a running n8n (`n8n start`) and an owner session: the credential test as the
 * editor's "Test" button runs it, the node types n8n serves to the editor (including the AI-tool
 * variants), the AI agent example, the examples started by a webhook, and (2.x) the editor itself
 * in headless Chromium.
 */

const assert = require('node:assert/strict');

/** @typedef {import('../../../scripts/n8n-instance').RestSession} RestSession */
const { ACTIONS_NODE, CREDENTIAL, ENRICHMENT_NODE, EXPORT_NODE, WRONG_SECRET, WRONG_SECRET_CREDENTIAL } = require('../lib/workflow');
const { basicAuth, credentialData } = require('../../server/client');

const OWNER = { email: 'owner@example.com', firstName: 'E2E', lastName: 'Owner', password: 'Nexthink-e2e-1' };

const SERVER_CHECKS = [
	{ key: 'credentialOk', title: 'credential test: the right secret connects' },
	{ key: 'credentialNew', title: 'credential test: a new credential costs one token exchange and a host check carrying nothing secret' },
	{ key: 'credentialWrong', title: 'credential test: a wrong secret is refused with a clear message' },
	{ key: 'nodeTypes', title: 'node types: the nodes, their AI-tool variants, the triggers and the credentials are served to the editor' },
	{ key: 'aiAgent', title: 'example: AI agent offers the Export node as a tool' },
	{ key: 'editor', title: 'editor: each node panel and the credential form render (headless Chromium)', editor: true },
];

/** @param {string} key */
const titleOf = (key) => /** @type {{ title: string }} */ (SERVER_CHECKS.find((check) => check.key === key)).title;

/**
 * Runs the editor's credential test for a stored credential, sending what the editor sends: the
 * stored data with the secret redacted, which n8n fills in from the database.
 * @param {RestSession} session @param {{ id: string, name: string }} credential
 */
async function testStoredCredential(session, credential) {
	const stored = await session.request('GET', `/credentials/${credential.id}?includeData=true`);
	assert.equal(stored.status, 200, JSON.stringify(stored.body));
	const data = stored.body.data.data;
	assert.notEqual(data.clientSecret, undefined);
	const result = await session.request('POST', '/credentials/test', {
		credentials: { id: credential.id, name: credential.name, type: 'nexthinkApi', data },
	});
	assert.equal(result.status, 200, JSON.stringify(result.body));
	return result.body.data;
}

/**
 * Runs in the n8n the suite started (`n8n start`), with its owner session.
 * @param {import('../lib/suite').Suite} suite
 * @param {import('../../../scripts/n8n-instance').N8nInstance} n8n
 * @param {RestSession} session
 * @param {import('./nodeCases').NexthinkServer} server
 * @param {{ label: string, examples: { id: string }[], webhookExamples: import('./exampleCases').ExampleCase[], editor: boolean, screenshotDir: string }} options
 *   `webhookExamples`: examples started by a webhook, activated before `n8n start`
 */
async function runServerChecks(suite, n8n, session, server, options) {
	const { label } = options;

	await suite.test(`${label} ${titleOf('credentialOk')}`, async () => {
		server.clearRequests();
		const result = await testStoredCredential(session, CREDENTIAL);
		assert.equal(result.status, 'OK', JSON.stringify(result));
		const tokenCalls = server.requests.filter((request) => request.path === '/oauth2/default/v1/token');
		const hostChecks = server.requests.filter((request) => request.method === 'GET' && request.path === '/');
		// The stored token was fetched by the cases before: n8n renews it or not, and the test exchanges
		// a token itself unless one was fetched with these values in the last minute (then it checks the host).
		assert.ok(tokenCalls.length <= 1, `${tokenCalls.length} token exchanges`);
		assert.equal(tokenCalls.length + hostChecks.length >= 1, true, 'the secret was proven or the host checked after a fresh proof');
		for (const call of tokenCalls) assert.equal(call.headers.authorization, basicAuth(server.clientId, server.clientSecret));
		for (const call of hostChecks) assert.equal(call.headers.authorization, undefined, 'nothing secret goes to the host check');
		assert.equal(server.requests.filter((request) => request.path.startsWith('/api/')).length, 0, 'no API call is needed');
	});

	await suite.test(`${label} ${titleOf('credentialNew')}`, async () => {
		// the editor's credential form saves a new credential, then tests it: no token is stored yet
		const created = await session.request('POST', '/credentials', { name: 'Nexthink API (new)', type: 'nexthinkApi', data: credentialData(server) });
		assert.equal(created.status, 200, JSON.stringify(created.body));
		server.clearRequests();
		const result = await testStoredCredential(session, { id: created.body.data.id, name: 'Nexthink API (new)' });
		assert.equal(result.status, 'OK', JSON.stringify(result));
		const tokenCalls = server.requests.filter((request) => request.path === '/oauth2/default/v1/token');
		assert.equal(tokenCalls.length, 1, `${tokenCalls.length} token exchanges`);
		assert.equal(tokenCalls[0].headers.authorization, basicAuth(server.clientId, server.clientSecret));
		const hostChecks = server.requests.filter((request) => request.method === 'GET' && request.path === '/');
		assert.equal(hostChecks.length, 1, 'the API host is checked once');
		assert.equal(hostChecks[0].headers.authorization, undefined, 'nothing secret goes to the host check');
		assert.equal(server.requests.filter((request) => request.path.startsWith('/api/')).length, 0, 'no API call is needed');
	});

	await suite.test(`${label} ${titleOf('credentialWrong')}`, async () => {
		server.clearRequests();
		const result = await testStoredCredential(session, WRONG_SECRET_CREDENTIAL);
		assert.equal(result.status, 'Error', JSON.stringify(result));
		assert.match(result.message, /client|secret|credential|401|invalid/i);
		assert.ok(!JSON.stringify(result).includes(WRONG_SECRET), 'the secret is not echoed');
		const tokenCalls = server.requests.filter((request) => request.path === '/oauth2/default/v1/token');
		assert.ok(tokenCalls.length >= 1, 'the secret was tried');
		for (const call of tokenCalls) assert.equal(call.headers.authorization, basicAuth(server.clientId, WRONG_SECRET));
	});

	await suite.test(`${label} ${titleOf('nodeTypes')}`, async () => {
		const nodes = /** @type {any[]} */ (await session.getJson('/types/nodes.json'));
		const byName = new Map(nodes.map((node) => [node.name, node]));
		for (const name of [EXPORT_NODE, ENRICHMENT_NODE, ACTIONS_NODE]) {
			assert.ok(byName.has(name), `${name} is loaded`);
			assert.ok(byName.has(`${name}Tool`), `${name}Tool (the AI-tool variant) is offered`);
			assert.deepEqual(byName.get(`${name}Tool`).outputs, ['ai_tool']);
		}
		const trigger = byName.get('n8n-nodes-nexthink.nexthinkTrigger');
		assert.ok(trigger, 'the Nexthink Trigger is loaded');
		assert.equal(trigger.polling, true);
		assert.ok(trigger.properties.some((/** @type {any} */ property) => property.name === 'pollTimes'), 'n8n gave the trigger its Poll Times');
		const eventTrigger = byName.get('n8n-nodes-nexthink.nexthinkEventTrigger');
		assert.ok(eventTrigger, 'the Nexthink Event Trigger is loaded');
		assert.deepEqual(eventTrigger.webhooks.map((/** @type {any} */ webhook) => webhook.httpMethod).sort(), ['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
		const credentials = /** @type {any[]} */ (await session.getJson('/types/credentials.json'));
		assert.ok(credentials.some((credential) => credential.name === 'nexthinkApi'), 'nexthinkApi credential is served');
		assert.ok(credentials.some((credential) => credential.name === 'nexthinkConnectorApi'), 'nexthinkConnectorApi credential is served');
	});

	await suite.test(`${label} ${titleOf('aiAgent')}`, async () => {
		const example = options.examples.find((candidate) => candidate.id === 'nxExAiAgentTool');
		assert.ok(example, 'the AI agent example was imported');
		const workflow = await session.request('GET', `/workflows/${example.id}`);
		assert.equal(workflow.status, 200, JSON.stringify(workflow.body));
		const { nodes, connections } = workflow.body.data;
		const tool = nodes.find((/** @type {any} */ node) => node.type === `${EXPORT_NODE}Tool`);
		assert.ok(tool, 'the workflow holds the Export node as a tool');
		const agentLinks = connections[tool.name]?.ai_tool?.[0] ?? [];
		assert.deepEqual(agentLinks.map((/** @type {any} */ link) => link.node), ['AI Agent']);
		const known = /** @type {any[]} */ (await session.getJson('/types/nodes.json')).map((node) => node.name);
		for (const node of nodes) {
			if (node.type !== 'n8n-nodes-base.stickyNote') assert.ok(known.includes(node.type), `${node.type} is a known node type`);
		}
	});

	for (const example of options.webhookExamples) {
		await suite.test(`${label} ${example.title}`, async () => {
			await /** @type {NonNullable<typeof example.exercise>} */ (example.exercise)({ n8n, server, session });
		});
	}

	if (options.editor) {
		const { runEditorCheck } = require('./editor');
		await suite.test(`${label} ${titleOf('editor')}`, async () => {
			await runEditorCheck({ baseUrl: n8n.baseUrl, owner: OWNER, screenshotDir: options.screenshotDir });
		});
	}
}

module.exports = { runServerChecks, SERVER_CHECKS, OWNER };
