// @ts-check
'use strict';

/**
 * The Nexthink Event Trigger in a running n8n (both generations), called on its production URL by
 * the test server's Nexthink side (test/server/outbound.js). The workflows below and the three
 * Event Trigger examples are published before `n8n start`, like the ticket example. Checked:
 * - Webhook: POST, PUT and PATCH start one execution each, with the body, the headers redacted and
 *   the table; a wrong or missing credential is answered 401 and starts nothing; the test URL
 *   (`/webhook-test/…`) does not answer while no editor listens;
 * - Data Exporter: NDJSON sent as `application/json` reaches the node (n8n would refuse it with 422
 *   if it parsed the body first) and becomes one item per row; a batch of 25,000 rows becomes
 *   25,000 items with one batch identity;
 * - Workflow Call: the answer of the last node, read by the thinklet's JSONPath; an unhandled
 *   failure is answered by n8n itself with 500 `{"message":"Error in workflow"}`.
 * Each "starts nothing" is checked against the workflow's executions: only the good calls made one.
 * Queue mode (cases/queueMode.js) adds the webhook received by the main process and run by a worker,
 * and a batch over n8n's default payload limit once N8N_PAYLOAD_SIZE_MAX is raised.
 */

const assert = require('node:assert/strict');

const { buildWorkflow, noOpNode } = require('../lib/workflow');
const { CONNECTOR_CREDENTIAL, CONNECTOR_TOKEN } = require('../../../scripts/n8n-examples');
const { latestExecution, jsonOf, assertSucceeded } = require('../lib/runData');
const { ALERT_TEMPLATE, callWorkflow, send, sendExporterBatch, sendWebhook } = require('../../server/outbound');

const EVENT_TRIGGER = 'n8n-nodes-nexthink.nexthinkEventTrigger';
const credential = { type: /** @type {const} */ ('bearer'), token: CONNECTOR_TOKEN };
const ALERT = { 'alert.monitor.name': 'Teams crashes', 'alert.status': 'open', 'alert.context': 'LAPTOP-ZRH-001', 'monitor.priority': 'high', trigger_time: '2026-11-27T09:00:00Z', recovery_time: '' };

const WORKFLOWS = {
	events: { id: 'nxE2eEventHook01', path: 'e2e-nexthink-events' },
	batch: { id: 'nxE2eEventBatch1', path: 'e2e-nexthink-batch' },
	lastNode: { id: 'nxE2eEventLast01', path: 'e2e-nexthink-last-node' },
	failing: { id: 'nxE2eEventFail01', path: 'e2e-nexthink-failing' },
};

/** @param {string} path @param {object} parameters */
function eventTrigger(path, parameters) {
	return {
		name: 'Nexthink Event Trigger',
		type: EVENT_TRIGGER,
		typeVersion: 1,
		webhookId: `0e2e0000-0000-4000-8000-${Buffer.from(path).toString('hex').slice(0, 12).padEnd(12, '0')}`,
		parameters: { path, ...parameters },
		credentials: { nexthinkConnectorApi: { ...CONNECTOR_CREDENTIAL } },
	};
}

/** @param {string} name @param {string} jsCode */
const code = (name, jsCode) => ({ name, type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode } });

function eventTriggerWorkflows() {
	return [
		buildWorkflow({
			...WORKFLOWS.events,
			name: 'e2e: Nexthink Event Trigger, webhooks',
			nodes: [eventTrigger(WORKFLOWS.events.path, { mode: 'webhook' }), noOpNode('Received')],
			connections: [['Nexthink Event Trigger', 'Received']],
		}),
		buildWorkflow({
			...WORKFLOWS.batch,
			name: 'e2e: Nexthink Event Trigger, exporter batches',
			nodes: [
				eventTrigger(WORKFLOWS.batch.path, { mode: 'dataExporter' }),
				// Summarize runs in n8n's process (a Code node on tens of thousands of items waits for the task runner)
				{
					name: 'Count',
					type: 'n8n-nodes-base.summarize',
					typeVersion: 1,
					parameters: {
						fieldsToSummarize: {
							values: [
								{ aggregation: 'count', field: 'name' },
								{ aggregation: 'countUnique', field: 'name' },
								{ aggregation: 'countUnique', field: 'nexthinkBatch.id' },
								{ aggregation: 'max', field: 'nexthinkBatch.rowCount' },
							],
						},
						options: {},
					},
				},
			],
			connections: [['Nexthink Event Trigger', 'Count']],
		}),
		buildWorkflow({
			...WORKFLOWS.lastNode,
			name: 'e2e: Nexthink Event Trigger, workflow call answered by the last node',
			nodes: [
				eventTrigger(WORKFLOWS.lastNode.path, { mode: 'workflowCall', responseMode: 'lastNode' }),
				code('Answer', "return [{ json: { status: 'ok', device: $json.body.device, method: $json.method } }];"),
			],
			connections: [['Nexthink Event Trigger', 'Answer']],
		}),
		buildWorkflow({
			...WORKFLOWS.failing,
			name: 'e2e: Nexthink Event Trigger, workflow call whose workflow fails',
			nodes: [eventTrigger(WORKFLOWS.failing.path, { mode: 'workflowCall', responseMode: 'lastNode' }), code('Fail', "throw new Error('the lookup failed');")],
			connections: [['Nexthink Event Trigger', 'Fail']],
		}),
	];
}

/**
 * Rows of three short columns (about 57 bytes each), and a note of `noteLength` characters.
 * @param {number} count @param {number} [noteLength]
 */
function* compactRows(count, noteLength = 0) {
	const note = 'n'.repeat(noteLength);
	for (let index = 0; index < count; index++) {
		yield { name: `PC-${String(index).padStart(6, '0')}`, uid: `0000${index}`, os: index % 3 === 0 ? 'Windows 10' : 'Windows 11', ...(noteLength ? { note } : {}) };
	}
}

/** The batch the generations send in real n8n: 100,000 rows are checked in process (test/integration/eventTrigger) and measured in real n8n (test/bench/event-trigger-batch.js); here the channel, at a size that keeps the suite short. */
const E2E_BATCH_ROWS = 25_000;

/** What the Count node (Summarize) gives for a batch of `rows` rows. @param {number} rows */
const summary = (rows) => ({
	count_name: rows,
	unique_count_name: rows,
	unique_count_nexthinkBatch_id: 1,
	max_nexthinkBatch_rowCount: rows,
});

const eventTriggerWorkflowIds = () => Object.values(WORKFLOWS).map((workflow) => workflow.id);

const CHECKS = [
	{ key: 'webhook', title: 'Event Trigger: webhooks by POST, PUT and PATCH start one execution each, headers redacted; a wrong or missing credential gets 401 and starts nothing' },
	{ key: 'urls', title: 'Event Trigger: the test URL does not answer while no editor listens; the production URL does' },
	{ key: 'batch', title: 'Event Trigger: an exporter batch of 25,000 rows becomes 25,000 items with one batch identity; NDJSON sent as application/json reaches the node' },
	{ key: 'workflowCall', title: "Event Trigger: a workflow call gets the last node's answer; a failing workflow gets n8n's 500 error" },
];
const EVENT_TRIGGER_CHECKS = CHECKS.map(({ title }) => ({ title }));

/**
 * Every execution id of a workflow, finished or not.
 * @param {import('../../../scripts/n8n-instance').RestSession} session @param {string} workflowId
 */
async function executionIds(session, workflowId) {
	const list = await session.request('GET', `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
	assert.equal(list.status, 200, JSON.stringify(list.body));
	return /** @type {{ id: string }[]} */ (list.body.data.results ?? list.body.data).map((execution) => Number(execution.id));
}

/**
 * Polls the production URL until n8n serves it (it registers published webhooks at start).
 * @param {string} url
 */
async function untilRegistered(url) {
	const deadline = Date.now() + 120_000;
	for (;;) {
		const answer = await send({ url, method: 'POST', body: '{}' });
		if (answer.status !== 404 || Date.now() > deadline) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/**
 * @param {import('../lib/suite').Suite} suite
 * @param {{ n8n: import('../../../scripts/n8n-instance').N8nInstance, session: import('../../../scripts/n8n-instance').RestSession, label: string }} context
 */
async function runEventTriggerChecks(suite, { n8n, session, label }) {
	const url = (/** @type {{ path: string }} */ workflow) => `${n8n.baseUrl}/webhook/${workflow.path}`;
	const n8nDir = n8n.runtime.dir;
	const title = (/** @type {string} */ key) => `${label} ${/** @type {{ title: string }} */ (CHECKS.find((check) => check.key === key)).title}`;

	await suite.test(title('webhook'), async () => {
		await untilRegistered(url(WORKFLOWS.events));
		const known = Math.max(0, ...(await executionIds(session, WORKFLOWS.events.id)));
		for (const wrong of [{ type: 'none' }, { type: 'bearer', token: `${CONNECTOR_TOKEN}x` }, { type: 'basic', user: 'nexthink', password: CONNECTOR_TOKEN }]) {
			const [answer] = await sendWebhook({ url: url(WORKFLOWS.events), credential: wrong, template: ALERT_TEMPLATE, values: ALERT });
			assert.equal(answer.status, 401, answer.text);
			assert.deepEqual(answer.json?.status, 'error');
		}
		const seen = [];
		for (const method of ['POST', 'PUT', 'PATCH']) {
			const before = Math.max(known, ...(await executionIds(session, WORKFLOWS.events.id)));
			const [answer] = await sendWebhook({ url: `${url(WORKFLOWS.events)}?via=${method}`, method, credential, template: ALERT_TEMPLATE, values: ALERT });
			assert.equal(answer.status, 200, answer.text);
			assert.deepEqual(answer.json, { status: 'ok', items: 1, duplicates: 0 });
			const execution = await latestExecution(session, WORKFLOWS.events.id, n8nDir, before);
			assertSucceeded(execution.run);
			const [item] = jsonOf(execution.run, 'Received');
			assert.equal(item.method, method);
			assert.deepEqual(item.query, { via: method });
			assert.equal(item.body.monitor, 'Teams crashes');
			assert.equal(item.headers.authorization, '[redacted]');
			assert.deepEqual(item.nexthink, { ...item.nexthink, channel: 'webhook', eventTable: 'alert.alerts', eventTableBasis: 'declared', isTest: false });
			assert.ok(!JSON.stringify(execution.run).includes(CONNECTOR_TOKEN), 'the token is nowhere in the execution');
			seen.push(execution.id);
		}
		const all = (await executionIds(session, WORKFLOWS.events.id)).filter((id) => id > known);
		assert.deepEqual(all.sort(), seen.sort(), 'the refused calls started nothing');
		assert.ok(!n8n.logOf('main').includes(CONNECTOR_TOKEN), "the token is not in n8n's log");
	});

	await suite.test(title('urls'), async () => {
		const test = await send({ url: `${n8n.baseUrl}/webhook-test/${WORKFLOWS.events.path}`, credential, body: '{"monitor":"x"}' });
		assert.equal(test.status, 404, `the test URL answers only while the editor listens: ${test.status} ${test.text}`);
		const production = await send({ url: url(WORKFLOWS.events), credential, body: '{"monitor":"x"}' });
		assert.equal(production.status, 200, production.text);
	});

	await suite.test(title('batch'), async () => {
		await untilRegistered(url(WORKFLOWS.batch));
		const known = Math.max(0, ...(await executionIds(session, WORKFLOWS.batch.id)));
		const ndjson = await send({ url: url(WORKFLOWS.batch), credential, body: '{"name":"PC-1"}\r\n{"name":"PC-2"}\r\n{"name":"PC-3"}\r\n', contentType: 'application/json' });
		assert.equal(ndjson.status, 200, ndjson.text);
		assert.deepEqual(ndjson.json, { status: 'ok', items: 3, duplicates: 0 });
		const small = await latestExecution(session, WORKFLOWS.batch.id, n8nDir, known);
		assert.deepEqual(jsonOf(small.run, 'Count')[0], summary(3));
		const batch = await sendExporterBatch({ url: url(WORKFLOWS.batch), credential, shape: 'records', properties: { exporter: 'e2e' }, rows: compactRows(E2E_BATCH_ROWS), chunked: true });
		assert.equal(batch.status, 200, batch.text);
		assert.deepEqual(batch.json, { status: 'ok', items: E2E_BATCH_ROWS, duplicates: 0 });
		const big = await latestExecution(session, WORKFLOWS.batch.id, n8nDir, small.id);
		assertSucceeded(big.run);
		assert.deepEqual(jsonOf(big.run, 'Count')[0], summary(E2E_BATCH_ROWS));
		assert.deepEqual(jsonOf(big.run, 'Nexthink Event Trigger')[0].nexthinkBatch.properties, { exporter: 'e2e' });
	});

	await suite.test(title('workflowCall'), async () => {
		await untilRegistered(url(WORKFLOWS.lastNode));
		for (const method of /** @type {const} */ (['POST', 'GET'])) {
			const result = await callWorkflow({
				url: `${url(WORKFLOWS.lastNode)}${method === 'GET' ? '?device=PC-7' : ''}`,
				method,
				credential,
				payload: method === 'POST' ? { device: 'PC-7' } : undefined,
				outputs: { status: '$.status', method: '$.method' },
			});
			// a GET carries the device in the query: the Code node reads the body, so device is absent
			assert.equal(result.failed, undefined, JSON.stringify(result));
			assert.deepEqual(result.outputs, { status: 'ok', method });
		}
		const failing = await callWorkflow({ url: url(WORKFLOWS.failing), credential, payload: { device: 'PC-7' }, outputs: { message: '$.message' } });
		assert.equal(failing.status, 500);
		assert.deepEqual(failing.outputs, { message: 'Error in workflow' });
	});
}

/** Queue mode (cases/queueMode.js): the webhook arrives at the main process, the execution runs on a worker. */
const QUEUE_EVENT_TRIGGER_TESTS = [
	'Event Trigger: an alert arrives at the main process and runs on the worker; its repeat starts nothing',
	'Event Trigger: a workflow call is answered by the Respond to Webhook node the worker runs',
	'Event Trigger: a 30,000-row batch of about 20 MB passes once N8N_PAYLOAD_SIZE_MAX is raised on the main process',
];

/**
 * The workflows queue mode imports and publishes: the alert and open-ticket examples and the batch workflow.
 * @param {any[]} examples  every example workflow
 */
function queueEventTriggerWorkflows(examples) {
	const wanted = new Set(['nxExAlertTicket', 'nxExOpenTicket']);
	return [...examples.filter((workflow) => wanted.has(workflow.id)), ...eventTriggerWorkflows().filter((workflow) => workflow.id === WORKFLOWS.batch.id)];
}

/**
 * @param {import('../lib/suite').Suite} suite
 * @param {{ n8n: import('../../../scripts/n8n-instance').N8nInstance, session: import('../../../scripts/n8n-instance').RestSession, label: string }} context
 * @returns {Promise<number[]>} the executions started, for the worker-log check
 */
async function runQueueEventTriggerChecks(suite, { n8n, session, label }) {
	const n8nDir = n8n.runtime.dir;
	/** @type {number[]} */
	const started = [];
	await suite.test(`${label} ${QUEUE_EVENT_TRIGGER_TESTS[0]}`, async () => {
		const url = `${n8n.baseUrl}/webhook/nexthink-alerts`;
		await untilRegistered(url);
		const alert = { ...ALERT, trigger_time: new Date().toISOString() };
		const answers = await sendWebhook({ url, credential, template: ALERT_TEMPLATE, values: alert, repeats: 2 });
		assert.deepEqual(answers.map((/** @type {any} */ answer) => [answer.status, answer.json?.items]), [[200, 1], [200, 0]]);
		const execution = await latestExecution(session, 'nxExAlertTicket', n8nDir, 0);
		assertSucceeded(execution.run);
		assert.equal(execution.mode, 'webhook');
		assert.equal(jsonOf(execution.run, 'Ticket')[0].short_description, '[Nexthink] Teams crashes triggered on LAPTOP-ZRH-001');
		assert.equal((await executionIds(session, 'nxExAlertTicket')).length, 1, 'the repeat started nothing');
		started.push(execution.id);
	});
	await suite.test(`${label} ${QUEUE_EVENT_TRIGGER_TESTS[1]}`, async () => {
		const url = `${n8n.baseUrl}/webhook/nexthink-open-ticket`;
		await untilRegistered(url);
		const result = await callWorkflow({ url, credential, payload: { device: 'LAPTOP-ZRH-001' }, outputs: { hasOpenTicket: '$.hasOpenTicket', ticket: '$.ticket' } });
		assert.equal(result.failed, undefined, JSON.stringify(result));
		assert.deepEqual(result.outputs, { hasOpenTicket: 'yes', ticket: 'INC0012345' });
		started.push((await latestExecution(session, 'nxExOpenTicket', n8nDir, 0)).id);
	});
	await suite.test(`${label} ${QUEUE_EVENT_TRIGGER_TESTS[2]}`, async () => {
		const url = `${n8n.baseUrl}/webhook/${WORKFLOWS.batch.path}`;
		await untilRegistered(url);
		// about 20 MB: over n8n's default 16 MiB
		const batch = await sendExporterBatch({ url, credential, shape: 'array', rows: compactRows(30_000, 600), chunked: true });
		assert.equal(batch.status, 200, batch.text.slice(0, 300));
		assert.deepEqual(batch.json, { status: 'ok', items: 30_000, duplicates: 0 });
		const execution = await latestExecution(session, WORKFLOWS.batch.id, n8nDir, 0);
		assertSucceeded(execution.run);
		assert.deepEqual(jsonOf(execution.run, 'Count')[0], summary(30_000));
		started.push(execution.id);
	});
	return started;
}

module.exports = {
	QUEUE_EVENT_TRIGGER_TESTS,
	queueEventTriggerWorkflows,
	runQueueEventTriggerChecks,
	EVENT_TRIGGER_CHECKS, eventTriggerWorkflows, eventTriggerWorkflowIds, runEventTriggerChecks, executionIds, untilRegistered, ALERT };
