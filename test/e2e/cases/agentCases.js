// @ts-check
'use strict';

/**
 * In real n8n: n8n's AI Agent runs this package's nodes as tools (the tool
 * variants n8n derives from `usableAsTool`), with a scripted chat model (lib/fakeChatModel.js)
 * behind n8n's OpenAI Chat Model. The model calls the tool with the arguments written as the
 * prompt; what the tool gave it is read back from the fake model's records.
 *
 * Two agent versions, so both ways n8n runs a tool are covered: Agent 2.2 invokes the tool through
 * n8n-core's `createNodeAsTool`; Agent 3 asks the engine to run the tool node (where the n8n
 * version has that path).
 */

const assert = require('node:assert/strict');

const { parsedJson } = require('../lib/fakeChatModel');
const { assertSucceeded } = require('../lib/runData');
const { ACTIONS_NODE, CREDENTIAL, EXPORT_NODE, ENRICHMENT_NODE, uuid } = require('../lib/workflow');

/** The OpenAI credential the suite imports, pointing at the fake chat model. */
const FAKE_MODEL_CREDENTIAL = { id: 'nxFakeChatModel1', name: 'Fake chat model' };

/** @param {string} url the fake model's base URL */
function fakeModelCredentialRecord(url) {
	return { ...FAKE_MODEL_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'not-a-real-key', url } };
}


/** How often `needle` occurs in `text`. @param {string} text @param {string} needle */
function occurrences(text, needle) {
	return text.split(needle).length - 1;
}

/**
 * A workflow: Start → AI Agent, with the OpenAI Chat Model (at the fake model) and one tool.
 * @param {{ id: string, name: string, agentVersion: number, prompt: object, tool: { name: string, type: string, parameters: object } }} spec
 */
function agentWorkflow(spec) {
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
		{
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: spec.agentVersion,
			parameters: { promptType: 'define', text: JSON.stringify(spec.prompt), options: {} },
		},
		{
			name: 'Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1,
			parameters: { model: 'gpt-4o-mini', options: {} },
			credentials: { openAiApi: { ...FAKE_MODEL_CREDENTIAL } },
		},
		{
			name: spec.tool.name,
			type: `${spec.tool.type}Tool`,
			typeVersion: 1,
			parameters: spec.tool.parameters,
			credentials: { nexthinkApi: { ...CREDENTIAL } },
		},
	];
	return {
		id: spec.id,
		name: spec.name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: nodes.map((node, index) => ({ id: uuid(`${spec.id}/${node.name}`), position: [index * 240, index > 1 ? 240 : 0], ...node })),
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			[spec.tool.name]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		pinData: {},
	};
}

const FAST_POLLING = { firstPollSeconds: 0.2, pollGrowthFactor: 1.5, maxPollIntervalSeconds: 1 };

/**
 * What a check gets: the case context of nodeCases.js plus the fake model.
 * @typedef {import('./nodeCases').CaseContext & { fakeModel: Awaited<ReturnType<typeof import('../lib/fakeChatModel').startFakeChatModel>> }} AgentCaseContext
 */

/** The one answer the tool gave the model in this case. @param {any} ctx */
function toolAnswer(ctx) {
	const answers = /** @type {AgentCaseContext} */ (ctx).fakeModel.toolAnswers;
	assert.equal(answers.length, 1, `expected one tool answer to the model, got ${answers.length}`);
	return answers[0];
}

const agentCases = [
	{
		id: 'nxE2eAgentExprt1',
		title: 'AI agent (Agent 3): Export as a tool gives the model at most 50 rows and a note on the rest',
		workflow: () =>
			agentWorkflow({
				id: 'nxE2eAgentExprt1',
				name: 'e2e agent export tool',
				agentVersion: 3,
				prompt: { queryId: 'all_devices' },
				tool: {
					name: 'Query Nexthink',
					type: EXPORT_NODE,
					parameters: {
						operation: 'export',
						queryId: "={{ $fromAI('queryId', 'ID of a stored Nexthink NQL query', 'string') }}",
						options: { maxWaitSeconds: 120 },
						advancedOptions: FAST_POLLING,
					},
				},
			}),
		/** @param {any} run @param {any} ctx */
		check(run, ctx) {
			assertSucceeded(run);
			const answer = toolAnswer(ctx);
			assert.ok(answer.includes('only the first 50 rows of the export of #all_devices are shown'), `no note in: ${answer.slice(0, 300)}`);
			assert.equal(occurrences(answer, '"device.name"'), 50, 'the model got 50 rows');
			// 50 rows of 15 columns are about 30 KB; a little room for how the agent wraps the answer
			assert.ok(Buffer.byteLength(answer) <= 33 * 1024, `the answer is ${Buffer.byteLength(answer)} bytes`);
		},
	},
	{
		id: 'nxE2eAgentExec01',
		title: 'AI agent (Agent 2.2): Execute Query as a tool is bounded by Max Output Size, the note counts the rows left out',
		workflow: () =>
			agentWorkflow({
				id: 'nxE2eAgentExec01',
				name: 'e2e agent execute tool',
				agentVersion: 2.2,
				prompt: { queryId: 'all_devices' },
				tool: {
					name: 'Ask Nexthink',
					type: EXPORT_NODE,
					parameters: {
						operation: 'executeQuery',
						queryId: "={{ $fromAI('queryId', 'ID of a stored Nexthink NQL query', 'string') }}",
						options: { maxOutputKBAsTool: 8 },
					},
				},
			}),
		/** @param {any} run @param {any} ctx */
		check(run, ctx) {
			assertSucceeded(run);
			const answer = toolAnswer(ctx);
			assert.ok(Buffer.byteLength(answer) <= 9 * 1024, `the answer is ${Buffer.byteLength(answer)} bytes`);
			const items = parsedJson(answer);
			assert.ok(Array.isArray(items), `the answer is not the items' JSON: ${answer.slice(0, 300)}`);
			const [note, ...rows] = items;
			assert.equal(note.rowsShown, rows.length);
			assert.ok(rows.length > 0 && rows.length < 50, `${rows.length} rows`);
			// Nexthink's 1,000-row limit of a direct query: more rows may exist, nobody counted them
			assert.match(note.nexthinkToolNote, /of at least 1,000 rows of the query #all_devices are shown/);
			assert.equal(note.moreRowsNotCounted, true);
			assert.match(note.nexthinkToolNote, /limited to 8 KB of JSON/);
		},
	},
	{
		id: 'nxE2eAgentFile01',
		title: 'AI agent (Agent 2.2): Export with Output File as a tool gives the model the export\'s metadata, never the file (n8n drops binary data)',
		workflow: () =>
			agentWorkflow({
				id: 'nxE2eAgentFile01',
				name: 'e2e agent export file tool',
				agentVersion: 2.2,
				prompt: { queryId: 'high_cpu_devices' },
				tool: {
					name: 'Export Nexthink File',
					type: EXPORT_NODE,
					parameters: {
						operation: 'export',
						queryId: "={{ $fromAI('queryId', 'ID of a stored Nexthink NQL query', 'string') }}",
						options: { maxWaitSeconds: 120, output: 'file' },
						advancedOptions: FAST_POLLING,
					},
				},
			}),
		/** @param {any} run @param {any} ctx */
		check(run, ctx) {
			assertSucceeded(run);
			const answer = toolAnswer(ctx);
			assert.ok(answer.includes('"exportId"') && answer.includes('#high_cpu_devices'), `no export metadata in: ${answer.slice(0, 300)}`);
			// a binary entry would carry its mimeType and fileName, and the file's content in base64
			for (const binaryField of ['mimeType', 'fileName', 'fileExtension']) assert.ok(!answer.includes(binaryField), `${binaryField} in: ${answer.slice(0, 300)}`);
			assert.ok(Buffer.byteLength(answer) < 2048, `the answer is ${Buffer.byteLength(answer)} bytes`);
		},
	},
	{
		id: 'nxE2eAgentEnrch1',
		title: 'AI agent (Agent 2.2): Enrichment as a tool only validates and tells the model nothing was written',
		workflow: () =>
			agentWorkflow({
				id: 'nxE2eAgentEnrch1',
				name: 'e2e agent enrichment tool',
				agentVersion: 2.2,
				prompt: { deviceName: 'LAPTOP-ZRH-001', tier: 'agent-gold' },
				tool: {
					name: 'Update Nexthink',
					type: ENRICHMENT_NODE,
					parameters: {
						objectType: 'device',
						identifyBy: 'name',
						identificationValue: "={{ $fromAI('deviceName', 'Name of the Nexthink device', 'string') }}",
						mappingMode: 'defineBelow',
						deviceFields: {
							fieldValues: [{ field: 'customField', customFieldId: '#tier', value: "={{ $fromAI('tier', 'Support tier', 'string') }}" }],
						},
						domain: 'n8n',
						options: {},
					},
				},
			}),
		/** @param {any} run @param {any} ctx */
		check(run, ctx) {
			assertSucceeded(run);
			const answer = toolAnswer(ctx);
			assert.ok(answer.includes('Nothing was written to Nexthink'), `no note in: ${answer.slice(0, 300)}`);
			assert.ok(answer.includes('Allow Writes When Used as a Tool'));
			assert.ok(answer.includes('"status":"valid"'));
			const writes = ctx.server.requests.filter((/** @type {any} */ request) => request.path === '/api/v1/enrichment/data/fields');
			assert.equal(writes.length, 0, 'nothing was sent to the Enrichment API');
		},
	},
	{
		id: 'nxE2eAgentSpark1',
		title: 'AI agent (Agent 3): Spark Hand Off as a tool, writes allowed, hands the person over with the UPN and message the model gave',
		workflow: () =>
			agentWorkflow({
				id: 'nxE2eAgentSpark1',
				name: 'e2e agent spark hand-off tool',
				agentVersion: 3,
				prompt: { upn: 'chloe.dubois@example.com', message: 'Outlook freezes when I open attachments' },
				tool: {
					name: 'Hand Off to Spark',
					type: ACTIONS_NODE,
					parameters: {
						resource: 'spark',
						operation: 'handOff',
						userPrincipalName: "={{ $fromAI('upn', 'Work email address (UPN) of the person', 'string') }}",
						handOffMessage: "={{ $fromAI('message', 'The person\\'s request in their words', 'string') }}",
						handOffMetadata: { entry: [{ key: 'source', value: 'n8n agent' }] },
						// a hand-off writes to a person: as a tool it is sent only with writes allowed
						options: { allowWritesAsTool: true },
					},
				},
			}),
		/** @param {any} run @param {any} ctx */
		check(run, ctx) {
			assertSucceeded(run);
			const answer = toolAnswer(ctx);
			assert.ok(answer.includes('handedOff'), `no hand-off in: ${answer.slice(0, 300)}`);
			const handoffs = ctx.server.spark.handoffs.filter((/** @type {any} */ handoff) => handoff.upn === 'chloe.dubois@example.com');
			assert.equal(handoffs.length, 1, 'one handoff reached Spark');
			assert.deepEqual(handoffs[0].parts, [{ type: 'TEXT', text: 'Outlook freezes when I open attachments' }]);
			assert.deepEqual(handoffs[0].metadata, { source: 'n8n agent' });
		},
	},
	{
		id: 'nxE2eAgentDelet1',
		title: 'AI agent (Agent 2.2): Device Delete as a tool only previews and tells the model nothing was sent',
		workflow: () =>
			agentWorkflow({
				id: 'nxE2eAgentDelet1',
				name: 'e2e agent device delete tool',
				agentVersion: 2.2,
				prompt: { uid: '5c5ce04f-a8fa-416f-822b-0e0200000003', name: 'LT-ZRH-0000004' },
				tool: {
					name: 'Delete Device',
					type: ACTIONS_NODE,
					parameters: {
						resource: 'device',
						operation: 'delete',
						deviceUid: "={{ $fromAI('uid', 'The device UID', 'string') }}",
						deviceName: "={{ $fromAI('name', 'The device name', 'string') }}",
						maxDevicesPerRun: 5,
						options: {},
					},
				},
			}),
		/** @param {any} run @param {any} ctx */
		check(run, ctx) {
			assertSucceeded(run);
			const answer = toolAnswer(ctx);
			assert.ok(answer.includes('nexthinkDeletionPreview'), `no preview in: ${answer.slice(0, 300)}`);
			assert.ok(answer.includes('Allow Writes When Used as a Tool'));
			assert.ok(answer.includes('LT-ZRH-0000004'));
			const sent = ctx.server.requests.filter((/** @type {any} */ request) => request.path === '/api/v1/data-management/device/deletions');
			assert.equal(sent.length, 0, 'nothing was sent to the Data Management API');
		},
	},
];

module.exports = { agentCases, fakeModelCredentialRecord, FAKE_MODEL_CREDENTIAL };
