// @ts-check
'use strict';

/**
 * In real n8n, each node under each *On Error* setting gives every input item exactly one outcome,
 * on the right output, paired with its input. Each workflow feeds two items, one that succeeds and
 * one that fails (an unknown query ID for Export, an unknown device for Enrichment, a device name
 * where a Collector UID belongs for Run Remote Action, an unknown user SID for Trigger Campaign, an
 * inactive workflow for Workflow Run, an unknown execution for Workflow Resume), so a wrongly
 * routed or unpaired item shows.
 */

const assert = require('node:assert/strict');

const { itemsOf } = require('../lib/runData');
const { actionsNode, buildWorkflow, codeItemsNode, enrichmentNode, exportNode, noOpNode, triggerNode } = require('../lib/workflow');

/** n8n's three On Error settings, as saved in a workflow (`undefined`: the default, Stop Workflow). */
const SETTINGS = /** @type {const} */ ([
	['stop', undefined],
	['continue', 'continueRegularOutput'],
	['error output', 'continueErrorOutput'],
]);

const FAST_POLLING = { firstPollSeconds: 0.2, pollGrowthFactor: 1.5, maxPollIntervalSeconds: 1 };

/** @param {{ pairedItem?: any }} item */
const pairedIndex = (item) => (Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem)?.item;

/**
 * @param {string} id @param {string} title @param {string | undefined} onError
 * @param {object | object[]} inputNodes the node giving the two items, or a chain of nodes (e.g. a Run Workflow before Resume)
 * @param {object} nodeUnderTest
 * @param {(run: any, ctx: import('./nodeCases').CaseContext) => void} check
 * @returns {import('./nodeCases').E2eCase}
 */
function errorCase(id, title, onError, inputNodes, nodeUnderTest, check) {
	const name = /** @type {any} */ (nodeUnderTest).name;
	const chain = /** @type {any[]} */ ([inputNodes].flat());
	/** @type {import('../lib/workflow').Connection[]} */
	const chainLinks = chain.slice(1).map((node, index) => [chain[index].name, node.name]);
	return {
		id,
		title,
		prepare: (server) => server.addQuery({ id: '#e2e_errout_good', header: ['device.name'], rows: [['PC-ERR-1'], ['PC-ERR-2']] }),
		workflow: (trigger) =>
			buildWorkflow({
				id,
				name: `e2e ${title}`,
				nodes: [triggerNode(trigger, id.toLowerCase()), ...chain, nodeUnderTest, noOpNode('Success'), noOpNode('Failure')],
				connections: [
					['Start', chain[0].name],
					...chainLinks,
					[chain[chain.length - 1].name, name],
					[name, 'Success', 0],
					...(onError === 'continueErrorOutput' ? [[name, 'Failure', 1]] : []),
				],
			}),
		check,
	};
}

/** The error of a stopped run, which must name the node and the failing item's problem. @param {any} run @param {string} node @param {RegExp} pattern */
function assertStopped(run, node, pattern) {
	const error = run.data.resultData.error;
	assert.ok(error, 'the workflow stopped with an error');
	assert.equal(error.node?.name, node);
	assert.match(`${error.message} ${error.description ?? ''}`, pattern);
	assert.equal(run.data.resultData.runData.Success, undefined, 'nothing ran after the failed node');
}

const exportCases = SETTINGS.map(([label, onError], index) =>
	errorCase(
		`nxE2eErrOutExp0${index}`,
		`Export, On Error ${label}: a good and an unknown query ID, one outcome each`,
		onError,
		codeItemsNode('Queries', [{ queryId: '#e2e_errout_good' }, { queryId: '#e2e_errout_unknown' }]),
		exportNode('Export', { operation: 'export', queryId: '={{ $json.queryId }}', compression: 'GZIP', options: { maxWaitSeconds: 120 }, advancedOptions: FAST_POLLING }, onError ? { onError } : {}),
		(run, ctx) => {
			const starts = ctx.server.requests.filter((request) => request.path === '/api/v1/nql/export');
			assert.equal(starts.length, 2, 'both exports were started');
			if (onError === undefined) {
				assertStopped(run, 'Export', /HTTP 404|no NQL API query/i);
				return;
			}
			const success = itemsOf(run, 'Export', { output: 0 });
			const rows = success.filter((item) => item.json['device.name'] !== undefined);
			assert.deepEqual(rows.map((item) => item.json['device.name']), ['PC-ERR-1', 'PC-ERR-2']);
			assert.deepEqual(rows.map(pairedIndex), [0, 0], 'the rows are paired with the first item');
			const failed = onError === 'continueErrorOutput' ? itemsOf(run, 'Export', { output: 1 }) : success.filter((item) => item.json.error !== undefined);
			assert.equal(success.length, onError === 'continueErrorOutput' ? 2 : 3, 'the success output holds the rows (and, with Continue, the error item)');
			assert.equal(failed.length, 1, 'one outcome for the failed item');
			assert.equal(pairedIndex(failed[0]), 1, 'the failure is paired with the second item');
			assert.match(JSON.stringify(failed[0].json), /HTTP 404|no NQL API query/i);
			if (onError === 'continueErrorOutput') assert.equal(itemsOf(run, 'Failure').length, 1);
			else assert.match(String(failed[0].json.description), /\S/, 'the error item carries a description');
		},
	),
);

const enrichmentCases = SETTINGS.map(([label, onError], index) =>
	errorCase(
		`nxE2eErrOutEnr0${index}`,
		`Enrichment, On Error ${label}: a known and an unknown device, one outcome each`,
		onError,
		codeItemsNode('Devices', [
			{ hostname: 'LAPTOP-ZRH-001', tier: 'gold' },
			{ hostname: 'NO-SUCH-DEVICE-43', tier: 'silver' },
		]),
		enrichmentNode(
			'Enrich',
			{
				objectType: 'device',
				identifyBy: 'name',
				identificationValue: '={{ $json.hostname }}',
				mappingMode: 'defineBelow',
				deviceFields: { fieldValues: [{ field: 'customField', customFieldId: '#tier', value: '={{ $json.tier }}' }] },
				domain: 'n8n-e2e',
				options: {},
			},
			onError ? { onError } : {},
		),
		(run, ctx) => {
			assert.equal(ctx.server.inventory.find('device/device/name', 'LAPTOP-ZRH-001')?.fields['device/device/#tier'], 'gold', 'the known device was written');
			if (onError === undefined) {
				assertStopped(run, 'Enrich', /1 item applied, 1 item failed/);
				return;
			}
			const success = itemsOf(run, 'Enrich', { output: 0 });
			const failed = onError === 'continueErrorOutput' ? itemsOf(run, 'Enrich', { output: 1 }) : success.filter((item) => item.json.enrichment?.status === 'failed');
			const applied = success.filter((item) => item.json.enrichment?.status === 'applied');
			assert.equal(success.length + (onError === 'continueErrorOutput' ? failed.length : 0), 2, 'two inputs, two outcomes');
			assert.deepEqual(applied.map((item) => [pairedIndex(item), item.json.hostname]), [[0, 'LAPTOP-ZRH-001']]);
			assert.equal(failed.length, 1);
			assert.equal(pairedIndex(failed[0]), 1);
			assert.equal(failed[0].json.hostname, 'NO-SUCH-DEVICE-43', 'the failed item keeps its input JSON');
			assert.match(JSON.stringify(failed[0].json), /OBJECT_NOT_FOUND/);
		},
	),
);

/**
 * The success and failure items of an Actions node: with Continue, a failure stays on the success
 * output as an item whose outcome (under `outcomeKey`) has the status `failed`.
 * @param {any} run @param {string} node @param {string | undefined} onError @param {string} outcomeKey
 */
function splitOutcomes(run, node, onError, outcomeKey) {
	const success = itemsOf(run, node, { output: 0 });
	if (onError === 'continueErrorOutput') return { success, failed: itemsOf(run, node, { output: 1 }) };
	const failed = (/** @type {any} */ item) => item.json[outcomeKey]?.status === 'failed';
	return { success: success.filter((item) => !failed(item)), failed: success.filter(failed) };
}

const GOOD_COLLECTOR = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const EXECUTE_PATH = '/api/v1/act/execute';

const remoteActionCases = SETTINGS.map(([label, onError], index) =>
	errorCase(
		`nxE2eErrOutRa0${index}`,
		`Run Remote Action, On Error ${label}: a Collector UID and a device name, one outcome each`,
		onError,
		codeItemsNode('Targets', [{ collector: GOOD_COLLECTOR }, { collector: 'LAPTOP-42' }]),
		actionsNode(
			'Run Action',
			{
				resource: 'remoteAction',
				operation: 'run',
				remoteAction: { __rl: true, mode: 'list', value: '#restart_service', cachedResultName: 'Restart a Windows service' },
				collectorUids: '={{ $json.collector }}',
				scriptInputs: { mappingMode: 'defineBelow', value: { ServiceName: 'Spooler', StartType: 'Manual' }, matchingColumns: [], schema: [] },
				options: {},
			},
			onError ? { onError } : {},
		),
		(run, ctx) => {
			const sent = ctx.server.requests.filter((request) => request.path === EXECUTE_PATH);
			if (onError === undefined) {
				assertStopped(run, 'Run Action', /is not a UUID: "LAPTOP-42"/);
				assert.equal(sent.length, 0, 'Stop Workflow sends nothing when an item is invalid');
				return;
			}
			assert.deepEqual(
				sent.map((request) => JSON.parse(request.body).devices),
				[[GOOD_COLLECTOR]],
				'one request, with the valid device only',
			);
			const { success, failed } = splitOutcomes(run, 'Run Action', onError, 'nexthinkRemoteAction');
			assert.deepEqual(
				success.map((item) => [pairedIndex(item), item.json.collector, item.json.nexthinkRemoteAction?.status]),
				[[0, GOOD_COLLECTOR, 'triggered']],
			);
			assert.equal(failed.length, 1, 'one outcome for the invalid item');
			assert.equal(pairedIndex(failed[0]), 1);
			assert.match(JSON.stringify(failed[0].json), /is not a UUID: \\"LAPTOP-42\\"/);
			if (onError === 'continueErrorOutput') assert.equal(itemsOf(run, 'Failure').length, 1);
		},
	),
);

const ALICE_SID = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const UNKNOWN_SID = 'S-1-5-21-1-2-3-9999';
const TRIGGER_PATH = '/api/v1/euf/campaign/trigger';

const campaignCases = SETTINGS.map(([label, onError], index) =>
	errorCase(
		`nxE2eErrOutCa0${index}`,
		`Trigger Campaign, On Error ${label}: a known and an unknown user, one outcome each`,
		onError,
		codeItemsNode('Users', [{ sid: ALICE_SID }, { sid: UNKNOWN_SID }]),
		actionsNode(
			'Ask Users',
			{ resource: 'campaign', operation: 'trigger', campaignId: '#it_satisfaction', userSids: '={{ $json.sid }}', campaignExpiresInMinutes: 1440, options: {} },
			onError ? { onError } : {},
		),
		(run, ctx) => {
			const sent = ctx.server.requests.filter((request) => request.path === TRIGGER_PATH);
			assert.deepEqual(
				sent.map((request) => JSON.parse(request.body).userSid),
				[[ALICE_SID, UNKNOWN_SID]],
				'both users in one request (the unknown one fails on the Nexthink side)',
			);
			if (onError === undefined) {
				assertStopped(run, 'Ask Users', /1 of 1 users did not get the campaign.*No user found with this SID/);
				return;
			}
			const { success, failed } = splitOutcomes(run, 'Ask Users', onError, 'nexthinkCampaign');
			assert.deepEqual(
				success.map((item) => [pairedIndex(item), item.json.sid, item.json.nexthinkCampaign?.status]),
				[[0, ALICE_SID, 'triggered']],
			);
			assert.equal(failed.length, 1, 'one outcome for the unknown user');
			assert.equal(pairedIndex(failed[0]), 1);
			assert.match(JSON.stringify(failed[0].json), /No user found with this SID/);
			if (onError === 'continueErrorOutput') assert.equal(itemsOf(run, 'Failure').length, 1);
		},
	),
);

const WORKFLOW_V2_PATH = '/api/v2/workflows/execute';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const workflowRunCases = SETTINGS.map(([label, onError], index) =>
	errorCase(
		`nxE2eErrOutWf0${index}`,
		`Workflow Run, On Error ${label}: an active and an inactive workflow, one outcome each`,
		onError,
		codeItemsNode('Tickets', [
			{ workflow: '#repair_teams', device: 'LAPTOP-ZRH-001' },
			{ workflow: '#legacy_inventory_sync', device: 'LAPTOP-ZRH-002' },
		]),
		actionsNode(
			'Run Workflow',
			{
				resource: 'workflow',
				operation: 'run',
				workflow: { __rl: true, mode: 'id', value: '={{ $json.workflow }}' },
				workflowApiVersion: 'v2',
				workflowDevices: '={{ $json.device }}',
				workflowDeviceIdType: 'name',
				workflowUsers: '',
				workflowParameters: { mappingMode: 'defineBelow', value: null },
				options: {},
			},
			onError ? { onError } : {},
		),
		(run, ctx) => {
			const sent = ctx.server.requests.filter((request) => request.path === WORKFLOW_V2_PATH).map((request) => JSON.parse(request.body));
			assert.deepEqual(
				sent.map((body) => [body.workflowId, body.devices]),
				[
					['#repair_teams', [{ name: 'LAPTOP-ZRH-001' }]],
					['#legacy_inventory_sync', [{ name: 'LAPTOP-ZRH-002' }]],
				],
				'one request per workflow, each device by name (the inactive one is refused by Nexthink)',
			);
			const ranOn = (/** @type {string} */ requestId) => ctx.server.actions.requests.get(requestId)?.objectId;
			assert.ok(![...ctx.server.actions.requests.values()].some((request) => request.objectId === '#legacy_inventory_sync'), 'the inactive workflow never ran');
			if (onError === undefined) {
				assertStopped(run, 'Run Workflow', /WORKFLOW_INACTIVE|inactive/);
				const made = /1 earlier request of this run did run \(request ID ([0-9a-f-]{36})\)/.exec(JSON.stringify(run.data.resultData.error));
				assert.ok(made, 'the error names the request that ran');
				assert.equal(ranOn(made[1]), '#repair_teams');
				return;
			}
			const { success, failed } = splitOutcomes(run, 'Run Workflow', onError, 'nexthinkWorkflow');
			assert.deepEqual(
				success.map((item) => [pairedIndex(item), item.json.device, item.json.nexthinkWorkflow?.status]),
				[[0, 'LAPTOP-ZRH-001', 'triggered']],
			);
			assert.equal(ranOn(success[0].json.nexthinkWorkflow.requestId), '#repair_teams', 'the request ID is the one Nexthink gave');
			const executionIds = success[0].json.nexthinkWorkflow.executionIds;
			assert.equal(executionIds.length, 1);
			assert.match(executionIds[0], UUID);
			assert.equal(failed.length, 1, 'one outcome for the inactive workflow');
			assert.equal(pairedIndex(failed[0]), 1);
			assert.match(JSON.stringify(failed[0].json), /WORKFLOW_INACTIVE/);
			if (onError === 'continueErrorOutput') assert.equal(itemsOf(run, 'Failure').length, 1);
			else assert.equal(failed[0].json.device, 'LAPTOP-ZRH-002', 'the failed item keeps its input JSON');
		},
	),
);

const APPROVAL_WORKFLOW_UUID = 'f2000000-0000-4000-8000-000000000004';
const UNKNOWN_EXECUTION = 'f9000000-0000-4000-8000-0000000000ff';

/**
 * Resume: Run Workflow starts #disk_cleanup_with_approval (it waits for an event) on two devices;
 * Resume sends the event to the first item's execution and, for the second, to an execution that
 * does not exist.
 */
const workflowResumeCases = SETTINGS.map(([label, onError], index) =>
	errorCase(
		`nxE2eErrOutWr0${index}`,
		`Workflow Resume, On Error ${label}: a waiting and an unknown execution, one outcome each`,
		onError,
		[
			codeItemsNode('Devices', [{ device: 'LAPTOP-ZRH-001' }, { device: 'LAPTOP-ZRH-002', executionUuid: UNKNOWN_EXECUTION }]),
			actionsNode('Start Cleanup', {
				resource: 'workflow',
				operation: 'run',
				workflow: { __rl: true, mode: 'id', value: '#disk_cleanup_with_approval' },
				workflowApiVersion: 'v2',
				workflowDevices: '={{ $json.device }}',
				workflowDeviceIdType: 'name',
				workflowParameters: { mappingMode: 'defineBelow', value: null },
				options: {},
			}),
		],
		actionsNode(
			'Approve',
			{
				resource: 'workflow',
				operation: 'resume',
				workflowUuid: APPROVAL_WORKFLOW_UUID,
				executionUuid: '={{ $json.executionUuid ?? $json.nexthinkWorkflow.executionIds[0] }}',
				resumeParameters: { parameter: [{ name: 'approved', value: 'yes' }] },
				options: {},
			},
			onError ? { onError } : {},
		),
		(run, ctx) => {
			const started = itemsOf(run, 'Start Cleanup').map((item) => item.json.nexthinkWorkflow.executionIds[0]);
			assert.equal(started.length, 2);
			const resumes = ctx.server.requests.filter((request) => request.path.endsWith('/trigger'));
			assert.deepEqual(
				resumes.map((request) => request.path),
				[started[0], UNKNOWN_EXECUTION].map((execution) => `/api/v1/workflows/workflows/${APPROVAL_WORKFLOW_UUID}/execution/${execution}/trigger`),
				'one resume request per item',
			);
			assert.deepEqual(ctx.server.actions.executionsById.get(started[0])?.resumes, [{ approved: 'yes' }], 'the first execution got the event');
			assert.deepEqual(ctx.server.actions.executionsById.get(started[1])?.resumes ?? [], [], 'the second execution still waits');
			if (onError === undefined) {
				assertStopped(run, 'Approve', /EXECUTION_NOT_FOUND/);
				assert.match(JSON.stringify(run.data.resultData.error), /1 earlier request of this run did run/, 'the error says the first item was resumed');
				return;
			}
			const success = itemsOf(run, 'Approve', { output: 0 });
			const resumed = success.filter((item) => item.json.nexthinkWorkflowResume?.status === 'resumed');
			const failed = onError === 'continueErrorOutput' ? itemsOf(run, 'Approve', { output: 1 }) : success.filter((item) => item.json.error !== undefined);
			assert.equal(success.length + (onError === 'continueErrorOutput' ? failed.length : 0), 2, 'two inputs, two outcomes');
			assert.deepEqual(
				resumed.map((item) => [pairedIndex(item), item.json.nexthinkWorkflowResume.executionUuid]),
				[[0, started[0]]],
			);
			assert.match(resumed[0].json.nexthinkWorkflowResume.requestId, UUID);
			assert.equal(failed.length, 1, 'one outcome for the unknown execution');
			assert.equal(pairedIndex(failed[0]), 1);
			assert.match(JSON.stringify(failed[0].json), /EXECUTION_NOT_FOUND/);
			if (onError === 'continueErrorOutput') assert.equal(itemsOf(run, 'Failure').length, 1);
		},
	),
);

const DELETIONS_PATH = '/api/v1/data-management/device/deletions';
/** A demo device whose deletion the server answers FAILED (a downstream error). */
const FAILING_DEVICE = { uid: '7eb46820-9c6f-40a1-831d-78ee00000002', name: 'VD-ZRH-0000003' };
const DELETED_DEVICE = { uid: '5c5ce04f-a8fa-416f-822b-0e0200000003', name: 'LT-ZRH-0000004' };

const deviceDeleteCases = SETTINGS.map(([label, onError], index) => ({
	...errorCase(
		`nxE2eErrOutDd0${index}`,
		`Device Delete, On Error ${label}: a device Nexthink schedules and one it answers FAILED, one outcome each`,
		onError,
		codeItemsNode('Retired Devices', [
			{ 'device.uid': DELETED_DEVICE.uid, 'device.name': DELETED_DEVICE.name },
			{ 'device.uid': FAILING_DEVICE.uid, 'device.name': FAILING_DEVICE.name },
		]),
		actionsNode('Delete Devices', { resource: 'device', operation: 'delete', maxDevicesPerRun: 10, preview: false, options: {} }, onError ? { onError } : {}),
		(run, ctx) => {
			const sent = ctx.server.requests.filter((request) => request.path === DELETIONS_PATH);
			assert.equal(sent.length, 1, 'one deletion request');
			assert.deepEqual(JSON.parse(sent[0].body), { devices: [DELETED_DEVICE, FAILING_DEVICE] });
			const requestId = sent[0].headers['x-request-id'];
			assert.match(requestId, UUID);
			if (onError === undefined) {
				assertStopped(run, 'Delete Devices', /could not schedule the deletion of device VD-ZRH-0000003/);
				return;
			}
			const { success, failed } = splitOutcomes(run, 'Delete Devices', onError, 'nexthinkDevice');
			assert.deepEqual(
				success.map((item) => [pairedIndex(item), item.json.nexthinkDevice?.status, item.json.nexthinkDevice?.requestId, item.json.nexthinkDevice?.scheduledCount]),
				[[0, 'scheduled', requestId, 1]],
			);
			assert.equal(failed.length, 1, 'one outcome for the device Nexthink did not schedule');
			assert.equal(pairedIndex(failed[0]), 1);
			assert.match(JSON.stringify(failed[0].json), /FAILED/);
			if (onError === 'continueErrorOutput') assert.equal(itemsOf(run, 'Failure').length, 1);
		},
	),
	prepare: (/** @type {any} */ server) => server.deletions.failing.add(FAILING_DEVICE.uid),
}));

const HANDOFF_PATH = '/api/v1/spark/handoff';

const sparkHandOffCases = SETTINGS.map(([label, onError], index) =>
	errorCase(
		`nxE2eErrOutSp0${index}`,
		`Spark Hand Off, On Error ${label}: a user Spark knows and one it does not, one outcome each`,
		onError,
		codeItemsNode('Chats', [
			{ upn: 'bob.keller@example.com', text: 'Teams keeps crashing' },
			{ upn: 'nobody@example.com', text: 'Printer offline' },
		]),
		actionsNode(
			'Hand Off',
			{ resource: 'spark', operation: 'handOff', userPrincipalName: '={{ $json.upn }}', handOffMessage: '={{ $json.text }}', handOffTimeZone: 'Europe/Zurich', options: {} },
			onError ? { onError } : {},
		),
		(run, ctx) => {
			const sent = ctx.server.requests.filter((request) => request.path === HANDOFF_PATH);
			assert.deepEqual(
				sent.map((request) => [request.headers['user-principal-name'], request.headers.timezone, JSON.parse(request.body).message.parts[0].text]),
				[
					['bob.keller@example.com', 'Europe/Zurich', 'Teams keeps crashing'],
					['nobody@example.com', 'Europe/Zurich', 'Printer offline'],
				],
				'one handoff per item (under Stop Workflow too: the unknown user is the last item)',
			);
			if (onError === undefined) {
				assertStopped(run, 'Hand Off', /HTTP 404/);
				assert.match(JSON.stringify(run.data.resultData.error), /1 earlier request of this run did run \(for item 0\)/);
				return;
			}
			const { success, failed } = splitOutcomes(run, 'Hand Off', onError, 'nexthinkSpark');
			assert.deepEqual(
				success.map((item) => [pairedIndex(item), item.json.nexthinkSpark?.status, item.json.nexthinkSpark?.statusCode]),
				[[0, 'handedOff', 204]],
			);
			assert.equal(failed.length, 1, 'one outcome for the user Spark does not know');
			assert.equal(pairedIndex(failed[0]), 1);
			assert.match(JSON.stringify(failed[0].json), /Spark does not know this user/);
			if (onError === 'continueErrorOutput') assert.equal(itemsOf(run, 'Failure').length, 1);
		},
	),
);

const errorOutputCases = [
	...exportCases,
	...enrichmentCases,
	...remoteActionCases,
	...campaignCases,
	...workflowRunCases,
	...workflowResumeCases,
	...deviceDeleteCases,
	...sparkHandOffCases,
];

module.exports = { errorOutputCases };
