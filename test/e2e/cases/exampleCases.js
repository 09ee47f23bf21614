// @ts-check
'use strict';

/**
 * The example workflows of docs/examples, imported as `npm start` imports them (the nightly
 * export writes into a folder of the run). Examples started by hand are executed
 * (`kind: 'execute'`) against the local server and their nodes' outputs are checked; an example
 * started by a webhook is activated and called in the running n8n (`kind: 'webhook'`, see
 * serverChecks.js), and its replies and what reached the server are checked; the AI agent one is
 * imported and checked in the running n8n (`kind: 'import'`), since running it would call a model;
 * the trigger one is activated and checked in its own running n8n (`kind: 'active'`, see
 * triggerCheck.js); the MCP server one is published and used by an MCP client (`kind: 'mcp'`, see
 * mcpCases.js).
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const { csvRecords } = require('../../helpers/csvReference');
const { assertSucceeded, itemsOf, jsonOf, latestExecution, runCount } = require('../lib/runData');
const { ALERT, executionIds, untilRegistered } = require('./eventTriggerCases');
const { assertRowsEqualServerCsv, newExport } = require('./nodeCases');
const { FAKE_MODEL_CREDENTIAL } = require('./agentCases');
const { readExamples, localised } = require('../../../scripts/n8n-examples');
const { apiRequest, fetchToken } = require('../../server/client');
const { ALERT_TEMPLATE, callWorkflow, exporterRows, sendExporterBatch, sendWebhook } = require('../../server/outbound');
const { CONNECTOR_TOKEN } = require('../../../scripts/n8n-examples');

/** What the sandbox's Nexthink sends with: the token of the examples' connector credential. */
const CONNECTOR = { type: /** @type {const} */ ('bearer'), token: CONNECTOR_TOKEN };

/**
 * @typedef {{ file: string, id: string, title: string, kind: 'execute' | 'webhook' | 'import' | 'active' | 'mcp',
 *   workflow: (options: { filesDir: string }) => any, adapt?: (workflow: any) => any,
 *   check?: (run: any, ctx: any) => void | Promise<void>,
 *   exercise?: (ctx: { n8n: import('../../../scripts/n8n-instance').N8nInstance, server: any, session: import('../../../scripts/n8n-instance').RestSession }) => Promise<void> }} ExampleCase
 */

/**
 * A chat example runnable by hand: a manual trigger under the chat trigger's name (a run cannot open a
 * chat), `prompt` as the agent's prompt (the scripted model's tool arguments or script,
 * lib/fakeChatModel.js), and the model's credential pointed at that model.
 * @param {any} workflow @param {object} prompt
 */
function withScriptedChat(workflow, prompt) {
	const copy = structuredClone(workflow);
	const trigger = copy.nodes.find((/** @type {any} */ node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger');
	Object.assign(trigger, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
	delete trigger.webhookId;
	const agent = copy.nodes.find((/** @type {any} */ node) => node.type === '@n8n/n8n-nodes-langchain.agent');
	agent.parameters = { ...agent.parameters, promptType: 'define', text: JSON.stringify(prompt) };
	const model = copy.nodes.find((/** @type {any} */ node) => node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi');
	model.credentials = { openAiApi: { ...FAKE_MODEL_CREDENTIAL } };
	return copy;
}

/** @returns {ExampleCase[]} */
function exampleCases() {
	/** @type {Omit<ExampleCase, 'id' | 'workflow'>[]} */
	const cases = [
		{
			file: 'nightly-device-inventory-export.json',
			title: 'example: nightly device inventory export writes the gzip file',
			kind: 'execute',
			check(run, ctx) {
				assertSucceeded(run);
				const entry = newExport(ctx);
				assert.equal(entry.queryId, '#all_devices');
				const [metadata] = jsonOf(run, 'Export All Devices');
				assert.equal(metadata.exportId, entry.id);
				// File output does not parse the rows; the metadata may say it did not count them, never that there were none.
				assert.ok(metadata.rowCount === 2500 || metadata.rowCount === null, `rowCount ${metadata.rowCount} for a 2,500-row file`);
				const [written] = jsonOf(run, 'Write File');
				const fileName = written.fileName;
				assert.ok(fileName.startsWith(path.join(ctx.filesDir, 'all-devices-')), fileName);
				assert.match(path.basename(fileName), /^all-devices-\d{4}-\d{2}-\d{2}\.csv\.gz$/);
				const csv = zlib.gunzipSync(fs.readFileSync(fileName)).toString('utf8');
				assert.equal(csv, ctx.server.csvFor(entry.id));
			},
		},
		{
			file: 'cmdb-custom-field-sync.json',
			title: 'example: CMDB custom-field sync sets the fields, reports the unknown device',
			kind: 'execute',
			check(run, ctx) {
				assertSucceeded(run);
				const synced = jsonOf(run, 'Synced');
				assert.deepEqual(synced.map((item) => [item.Hostname, item.enrichment.status]), [
					['LAPTOP-ZRH-001', 'applied'],
					['LAPTOP-ZRH-002', 'applied'],
					['DESKTOP-LIS-001', 'applied'],
					['SRV-FRA-001', 'applied'],
				]);
				const [missing, ...more] = jsonOf(run, 'Not in Nexthink');
				assert.equal(more.length, 0);
				assert.equal(missing.hostname, 'LAPTOP-RETIRED-07');
				assert.equal(missing.assetTag, 'CMDB-999999');
				assert.match(missing.reason, /not found|OBJECT_NOT_FOUND/i);
				const server = ctx.server;
				const fields = server.inventory.find('device/device/name', 'SRV-FRA-001').fields;
				assert.equal(fields['device/device/#cmdb_id'], 'CMDB-300005');
				assert.equal(fields['device/device/#owner_team'], 'Datacenter "FRA1"');
				assert.equal(fields['device/device/#tier'], 'gold');
				assert.equal(server.inventory.find('device/device/name', 'LAPTOP-ZRH-001').fields['device/device/#owner_team'], 'Zürich Workplace');
			},
		},
		{
			file: 'vdi-desktop-pool-enrichment.json',
			title: 'example: VDI desktop-pool enrichment updates every device whose pool differs',
			kind: 'execute',
			check(run, ctx) {
				assertSucceeded(run);
				const exported = jsonOf(run, 'Export VDI Devices');
				assertRowsEqualServerCsv(ctx, exported, { queryId: '#vdi_devices', compression: 'ZSTD' });
				const changed = jsonOf(run, 'Pools From Broker');
				assert.ok(changed.length > 0 && changed.length < exported.length, `${changed.length} of ${exported.length} changed`);
				const outcomes = jsonOf(run, 'Set Virtualization Fields');
				assert.equal(outcomes.length, changed.length);
				for (const outcome of outcomes) {
					assert.equal(outcome.enrichment.status, 'applied', JSON.stringify(outcome.enrichment.errors));
					const device = ctx.server.inventory.find('device/device/uid', outcome['device.uid']);
					assert.equal(device.fields['device/device/virtualization/desktop_pool'], outcome['virtualization.desktop_pool']);
					assert.equal(device.fields['device/device/virtualization/type'], 3, 'pooled is sent as 3');
				}
			},
		},
		{
			file: 'entra-id-user-enrichment.json',
			title: 'example: Entra ID user enrichment writes the directory fields',
			kind: 'execute',
			check(run, ctx) {
				assertSucceeded(run);
				const outcomes = jsonOf(run, 'Set Directory Fields');
				assert.deepEqual(outcomes.map((item) => item.enrichment.status), ['applied', 'applied', 'applied']);
				const bob = ctx.server.inventory.find('user/user/upn', 'bob.keller@example.com').fields;
				assert.equal(bob['user/user/ad/department'], 'IT, Workplace');
				assert.equal(bob['user/user/ad/job_title'], 'Service Desk Lead');
				assert.equal(bob['user/user/organization/#region'], 'DACH');
				assert.match(bob['user/user/ad/last_update'], /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
				const chloe = ctx.server.inventory.find('user/user/upn', 'chloe.dubois@example.com').fields;
				assert.equal(chloe['user/user/ad/full_name'], 'Chloé Dubois');
				assert.equal(chloe['user/user/organization/#region'], 'Southern Europe');
			},
		},
		{
			file: 'long-export-wait-loop.json',
			title: 'example: long export loop waits, polls and downloads the results',
			kind: 'execute',
			check(run, ctx) {
				assertSucceeded(run);
				const entry = newExport(ctx);
				assert.equal(entry.queryId, '#slow_export');
				assert.ok(runCount(run, 'Get Status') >= 1);
				const rows = jsonOf(run, 'Download Results');
				const metadata = rows.pop();
				assert.deepEqual(rows, csvRecords(ctx.server.csvFor(entry.id)));
				assert.equal(metadata.rowCount, 100);
				assert.equal(runCount(run, 'Stop: Export Failed'), 0);
			},
		},
		{
			file: 'old-device-replacement-campaign.json',
			title: 'example: replacement survey reaches every user of an old device',
			kind: 'execute',
			check(run, ctx) {
				assertSucceeded(run);
				const found = jsonOf(run, 'Find Old Devices');
				const rows = found.filter((row) => row['user.sid'] !== undefined);
				assert.ok(rows.length > 0, 'the query found old devices');
				const asked = jsonOf(run, 'Ask About Replacement');
				assert.deepEqual(
					asked.map((item) => [item['user.sid'], item.nexthinkCampaign.status]),
					rows.map((row) => [row['user.sid'], 'triggered']),
				);
				assert.equal(runCount(run, 'Not Asked'), 0);
				const bodies = ctx.server.requests.filter((request) => request.path === '/api/v1/euf/campaign/trigger').map((request) => JSON.parse(request.body));
				const sent = bodies.flatMap((body) => body.userSid.map((sid) => [sid, body.campaignNqlId, body.parameters]));
				assert.deepEqual(
					sent.sort(),
					rows.map((row) => [row['user.sid'], '#device_replacement_survey', { device_name: row['device.name'], device_age_years: String(row.device_age_years) }]).sort(),
					'each user was sent once, with their device as the campaign parameters',
				);
			},
		},
		{
			file: 'high-cpu-remediation.json',
			title: 'example: high-CPU devices get the remote action, the wait reads each result, the report sums them up',
			kind: 'execute',
			check(run, ctx) {
				assertSucceeded(run);
				const devices = jsonOf(run, 'Find High-CPU Devices');
				assert.ok(devices.length >= 40, `${devices.length} high-CPU devices`);
				for (const device of devices) assert.ok(typeof device.cpu_usage_percent === 'number' && device.cpu_usage_percent >= 85, `Convert Types gives numbers: ${device.cpu_usage_percent}`);
				const sent = ctx.server.requests.filter((request) => request.path === '/api/v1/act/execute').map((request) => JSON.parse(request.body));
				assert.equal(sent.length, 1, 'one request for every device');
				assert.equal(sent[0].remoteActionId, '#kill_runaway_process');
				assert.deepEqual(sent[0].devices, devices.map((device) => device['device.collector.uid']));
				assert.deepEqual(sent[0].params, { ProcessName: 'chrome.exe', CpuThresholdPercent: '90', Force: 'false' });
				const polls = ctx.server.requests.filter((request) => request.path === '/api/v2/nql/execute' && JSON.parse(request.body).queryId === '#n8n_remote_action_status');
				// the server gives a final status on the third read of an execution (actionCompleteAfterPolls 2)
				assert.ok(polls.length >= 3, `${polls.length} status polls`);
				const outcomes = jsonOf(run, 'Stop Runaway Process');
				assert.deepEqual(
					outcomes.map((item) => [item['device.name'], item.nexthinkRemoteAction.status, item.nexthinkRemoteAction.results.complete, item.nexthinkRemoteAction.results.targets[0].status]),
					devices.map((device) => [device['device.name'], 'triggered', true, 'success']),
				);
				assert.equal(runCount(run, 'Not Run'), 0);
				const [report, ...more] = jsonOf(run, 'Report');
				assert.equal(more.length, 0, 'one report');
				assert.equal(report.devices, devices.length);
				assert.deepEqual(report.byStatus, { success: devices.length });
				assert.equal(report.allFinal, true);
				assert.equal(report.summary, `Stopped runaway processes on ${devices.length} high-CPU devices: ${devices.length} success`);
				assert.deepEqual(
					report.details.map((/** @type {any} */ line) => [line.device, line.cpuPercent, line.status, line.outputs.Stopped]),
					devices.map((device) => [device['device.name'], device.cpu_usage_percent, 'success', `Stopped on ${device['device.name']}`]),
					'one line per device with the outputs the status query read',
				);
				assert.equal(report.lines.split('\n').length, devices.length);
			},
		},
		{
			file: 'ticket-workflow-on-device.json',
			title: 'example: a ticket posted to the webhook runs the workflow on its device; a ticket without a device is answered 422',
			kind: 'webhook', // activated, then called in the running n8n (serverChecks.js)
			async exercise({ n8n, server }) {
				server.clearRequests();
				const good = await n8n.callWebhook('nexthink-ticket', { number: 'INC0012345', category: 'teams', device: { name: 'LAPTOP-ZRH-001' } });
				assert.equal(good.status, 200, JSON.stringify(good.body));
				assert.equal(good.body.ticket, 'INC0012345');
				assert.equal(good.body.workflow, '#repair_teams');
				assert.equal(good.body.status, 'triggered');
				const sent = server.requests.filter((request) => request.path === '/api/v2/workflows/execute').map((request) => JSON.parse(request.body));
				assert.deepEqual(sent, [{ workflowId: '#repair_teams', devices: [{ name: 'LAPTOP-ZRH-001' }], users: [] }]);
				const ran = server.actions.requests.get(good.body.requestId);
				assert.ok(ran, 'the reply carries the request ID Nexthink gave');
				assert.deepEqual(
					ran.executions.map((/** @type {any} */ execution) => [execution.executionId, execution.target.object?.name]),
					[[good.body.executionIds[0], 'LAPTOP-ZRH-001']],
					'the reply carries the execution ID of the ticket device',
				);

				server.clearRequests();
				const bad = await n8n.callWebhook('nexthink-ticket', { number: 'INC0012346', category: 'teams' });
				assert.equal(bad.status, 422, JSON.stringify(bad.body));
				assert.equal(bad.body.ticket, 'INC0012346', 'the error reply names its ticket (paired with the webhook item)');
				assert.equal(bad.body.status, 'failed');
				assert.match(bad.body.error, /Devices|Users|target/i);
				assert.equal(server.requests.filter((request) => request.path.startsWith('/api/')).length, 0, 'nothing was sent for a ticket without a device');
			},
		},
		{
			file: 'nexthink-alert-to-ticket.json',
			title: 'example: a Nexthink alert becomes a ticket-shaped message once, however often it is sent; its recovery becomes a second one',
			kind: 'webhook',
			async exercise({ n8n, session }) {
				const url = `${n8n.baseUrl}/webhook/nexthink-alerts`;
				await untilRegistered(url);
				const known = Math.max(0, ...(await executionIds(session, 'nxExAlertTicket')));
				const alert = { ...ALERT, trigger_time: new Date().toISOString() };
				const answers = await sendWebhook({ url, credential: CONNECTOR, template: ALERT_TEMPLATE, values: alert, repeats: 3 });
				assert.deepEqual(answers.map((/** @type {any} */ answer) => answer.json.items), [1, 0, 0], 'the repeats started nothing');
				const created = await latestExecution(session, 'nxExAlertTicket', n8n.runtime.dir, known);
				assertSucceeded(created.run);
				const [ticket] = jsonOf(created.run, 'Ticket');
				assert.equal(ticket.short_description, '[Nexthink] Teams crashes triggered on LAPTOP-ZRH-001');
				assert.deepEqual([ticket.urgency, ticket.state, ticket.source_table, ticket.test_send], ['1', 'new', 'alert.alerts', false]);
				const [recovery] = await sendWebhook({ url, credential: CONNECTOR, template: ALERT_TEMPLATE, values: { ...alert, 'alert.status': 'recovered', recovery_time: new Date().toISOString() } });
				assert.equal(recovery.json.items, 1);
				const recovered = await latestExecution(session, 'nxExAlertTicket', n8n.runtime.dir, created.id);
				assert.equal(jsonOf(recovered.run, 'Ticket')[0].state, 'resolved');
				assert.equal((await executionIds(session, 'nxExAlertTicket')).filter((id) => id > known).length, 2);
			},
		},
		{
			file: 'nexthink-exporter-to-spreadsheet.json',
			title: 'example: a data exporter batch becomes one CSV file of its rows; the same batch sent again starts nothing',
			kind: 'webhook',
			async exercise({ n8n, session }) {
				const url = `${n8n.baseUrl}/webhook/nexthink-exporter`;
				await untilRegistered(url);
				const known = Math.max(0, ...(await executionIds(session, 'nxExExporterCsv')));
				const rows = [...exporterRows(250, 3)];
				const first = await sendExporterBatch({ url, credential: CONNECTOR, shape: 'array', rows });
				assert.deepEqual(first.json, { status: 'ok', items: 250, duplicates: 0 });
				const again = await sendExporterBatch({ url, credential: CONNECTOR, shape: 'array', rows });
				assert.deepEqual(again.json, { status: 'ok', items: 0, duplicates: 250 });
				const execution = await latestExecution(session, 'nxExExporterCsv', n8n.runtime.dir, known);
				assertSucceeded(execution.run);
				const [file] = itemsOf(execution.run, 'Spreadsheet File');
				assert.equal(file.binary?.data?.mimeType, 'text/csv');
				assert.match(file.binary?.data?.fileName ?? '', /^nexthink-export-\d{4}-\d{2}-\d{2}-\d{4}\.csv$/);
				const rowsOnly = jsonOf(execution.run, 'Rows Only');
				assert.deepEqual(rowsOnly, rows, 'the rows as sent, without the batch details');
				if (file.binary?.data?.data && !String(file.binary.data.id ?? '').includes(':')) {
					const csv = Buffer.from(file.binary.data.data, 'base64').toString('utf8');
					const records = csvRecords(csv);
					assert.equal(records.length, 250, 'the 250 rows under a header');
					assert.ok(Object.values(records[249]).includes(rows[249]['device.uid']), 'the last record is the last row sent');
				}
				assert.equal((await executionIds(session, 'nxExExporterCsv')).filter((id) => id > known).length, 1, 'the repeat started nothing');
			},
		},
		{
			file: 'nexthink-workflow-open-ticket.json',
			title: 'example: a Nexthink workflow asks whether a device has an open ticket and gets yes with the ticket, or no',
			kind: 'webhook',
			async exercise({ n8n }) {
				const url = `${n8n.baseUrl}/webhook/nexthink-open-ticket`;
				await untilRegistered(url);
				const outputs = { hasOpenTicket: '$.hasOpenTicket', ticket: '$.ticket' };
				const open = await callWorkflow({ url, credential: CONNECTOR, payload: { device: 'laptop-zrh-001' }, outputs });
				assert.equal(open.failed, undefined, JSON.stringify(open));
				assert.deepEqual(open.outputs, { hasOpenTicket: 'yes', ticket: 'INC0012345' });
				const none = await callWorkflow({ url, credential: CONNECTOR, payload: { device: 'LAPTOP-ZRH-002' }, outputs });
				assert.deepEqual(none.outputs, { hasOpenTicket: 'no', ticket: '' });
				const refused = await callWorkflow({ url, credential: { type: 'bearer', token: 'wrong' }, payload: { device: 'LAPTOP-ZRH-001' }, outputs: { status: '$.status' } });
				assert.deepEqual([refused.status, refused.outputs], [401, { status: 'error' }]);
			},
		},
		{
			file: 'new-unsupported-os-devices-trigger.json',
			title: 'example: an active Nexthink Trigger records the devices at activation, then reports a new Windows 10 device at the next poll; a poll whose results file is an HTML page fails, the next reports the real change once',
			kind: 'active', // activated before n8n starts and checked in the running n8n (triggerCheck.js)
			// polled every 20 s instead of every 15 minutes: n8n refuses a Poll Time of less than a minute
			// (a cron whose seconds field is not one number), but not three once-a-minute times 20 s apart;
			// a poll that would start while the previous one runs is skipped by the trigger's lock
			adapt(workflow) {
				const copy = structuredClone(workflow);
				const trigger = copy.nodes.find((/** @type {any} */ node) => node.type === 'n8n-nodes-nexthink.nexthinkTrigger');
				trigger.parameters.pollTimes = { item: [0, 20, 40].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) };
				return copy;
			},
		},
		{
			file: 'retired-devices-delete.json',
			title: 'example: devices retired in the CMDB: Preview shows the one deletion request with their Nexthink UIDs and sends nothing',
			kind: 'execute',
			check(run, ctx) {
				assertSucceeded(run);
				const matched = jsonOf(run, 'Find in Nexthink');
				assert.deepEqual(matched.map((row) => row['device.name']).sort(), ['DT-NYC-0000002', 'LT-NYC-0001235', 'LT-ZRH-0000004'], 'the retired hostnames Nexthink knows');
				const [preview, ...more] = jsonOf(run, 'Previewed or Scheduled');
				assert.equal(more.length, 0, 'one request for three devices');
				const batch = preview.nexthinkDeletionPreview;
				assert.deepEqual([batch.batch, batch.batches, batch.method, batch.path], [1, 1, 'POST', '/api/v1/data-management/device/deletions']);
				assert.deepEqual(batch.body.devices, matched.map((row) => ({ uid: row['device.uid'], name: row['device.name'] })));
				for (const device of batch.body.devices) assert.equal(ctx.server.inventory.find('device/device/name', device.name).uid, device.uid);
				assert.match(batch.note, /nothing was sent/);
				assert.equal(runCount(run, 'Not Deleted'), 0);
				assert.equal(ctx.server.requests.filter((request) => request.path.startsWith('/api/v1/data-management/')).length, 0, 'Preview sent nothing');
			},
		},
		{
			file: 'chat-handoff-to-spark.json',
			title: 'example: the chatbot hands the conversation over to Spark (chat trigger and model replaced by a prompt and the scripted model)',
			kind: 'execute',
			adapt: (workflow) => withScriptedChat(workflow, { upn: 'alice.martin@example.com', message: 'My VPN drops every ten minutes since this morning' }),
			check(run, ctx) {
				assertSucceeded(run);
				const handoffs = ctx.server.spark.handoffs.filter((/** @type {any} */ handoff) => handoff.upn === 'alice.martin@example.com');
				assert.equal(handoffs.length, 1, 'Spark got the conversation once');
				assert.deepEqual(handoffs[0].parts, [{ type: 'TEXT', text: 'My VPN drops every ten minutes since this morning' }]);
				assert.deepEqual(handoffs[0].metadata, { source: 'n8n chat' });
				const [answer] = jsonOf(run, 'AI Agent');
				assert.match(JSON.stringify(answer), /handedOff/, 'the model was told the hand-off happened');
			},
		},
		{
			file: 'ai-agent-export-tool.json',
			title: 'example: AI agent finds the high-CPU devices with Query Nexthink and, with writes on, stops the runaway process on them (scripted model)',
			kind: 'execute', // also checked as imported in serverChecks.js
			// the prompt is a script of two tool calls, the second passing on the Collector UIDs the first
			// returned; writes switched on in the remote action tool
			adapt(workflow) {
				const copy = withScriptedChat(workflow, {
					toolCalls: [
						{ tool: 'Query_Nexthink', arguments: { queryId: '#high_cpu_devices', os: '' } },
						{ tool: 'Stop_Runaway_Process', arguments: { collectorUids: { fromLastAnswer: 'device.collector.uid' }, processName: 'chrome.exe' } },
					],
				});
				const stop = copy.nodes.find((/** @type {any} */ node) => node.name === 'Stop Runaway Process');
				stop.parameters.options = { ...stop.parameters.options, allowWritesAsTool: true };
				return copy;
			},
			async check(run, ctx) {
				assertSucceeded(run);
				const token = await fetchToken(ctx.server);
				const response = await apiRequest(ctx.server, token, 'POST', '/api/v2/nql/execute', { json: { queryId: '#high_cpu_devices' } });
				const devices = /** @type {any} */ (await response.json()).data;
				assert.ok(devices.length > 1, `${devices.length} high-CPU devices`);
				const sent = ctx.server.requests.filter((/** @type {any} */ request) => request.method === 'POST' && request.path === '/api/v1/act/execute');
				assert.equal(sent.length, 1, 'one run request');
				const body = JSON.parse(sent[0].body);
				assert.equal(body.remoteActionId, '#kill_runaway_process');
				assert.deepEqual(body.devices, devices.map((/** @type {any} */ device) => device['device.collector.uid']), 'every high-CPU device the query found, in its order');
				assert.deepEqual(body.params, { ProcessName: 'chrome.exe', CpuThresholdPercent: '90', Force: 'false' });
				const [answer] = jsonOf(run, 'AI Agent');
				assert.ok(String(answer.output).includes('"status":"triggered"'), `the model was told the remote action was triggered: ${String(answer.output).slice(0, 300)}`);
			},
		},
		{
			file: 'nexthink-mcp-server.json',
			title: 'example: Nexthink MCP server',
			kind: 'mcp', // published before `n8n start` and used by an MCP client (mcpCases.js)
		},
	];
	const examples = readExamples();
	assert.deepEqual(examples.map((example) => example.file), cases.map((testCase) => testCase.file).sort(), 'every example has a case');
	return cases.map((testCase) => {
		const { file, workflow } = /** @type {{ file: string, workflow: any }} */ (examples.find((example) => example.file === testCase.file));
		const adapt = testCase.adapt ?? ((/** @type {any} */ copy) => copy);
		return { ...testCase, id: workflow.id, workflow: (/** @type {{ filesDir: string }} */ options) => adapt(localised(file, workflow, options)) };
	});
}

module.exports = { exampleCases };
