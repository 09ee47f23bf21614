// @ts-check
'use strict';

/**
 * In real n8n, each node under each *On Error* setting gives every input item exactly one outcome,
 * on the right output, paired with its input. Each workflow feeds two items, one that succeeds and
 * one that fails (an unknown query ID for Export, an unknown device for Enrichment, a device name
 * where a Collector UID belongs for Run Remote Action, an unknown user SID for Trigger Campaign), so
 * a wrongly routed or unpaired item shows.
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

const FAST_POLLING = { firstPollSeconds: 0.2, pollGrowthFactor: 1.5, maxPollIntervalSeconds: 1, maxWaitMinutes: 2 };

/** @param {{ pairedItem?: any }} item */
const pairedIndex = (item) => (Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem)?.item;

/**
 * @param {string} id @param {string} title @param {string | undefined} onError
 * @param {object} inputNode @param {object} nodeUnderTest
 * @param {(run: any, ctx: import('./nodeCases').CaseContext) => void} check
 * @returns {import('./nodeCases').E2eCase}
 */
function errorCase(id, title, onError, inputNode, nodeUnderTest, check) {
	const name = /** @type {any} */ (nodeUnderTest).name;
	return {
		id,
		title,
		prepare: (server) => server.addQuery({ id: '#e2e_errout_good', header: ['device.name'], rows: [['PC-ERR-1'], ['PC-ERR-2']] }),
		workflow: (trigger) =>
			buildWorkflow({
				id,
				name: `e2e ${title}`,
				nodes: [triggerNode(trigger, id.toLowerCase()), inputNode, nodeUnderTest, noOpNode('Success'), noOpNode('Failure')],
				connections: [
					['Start', /** @type {any} */ (inputNode).name],
					[/** @type {any} */ (inputNode).name, name],
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
		exportNode('Export', { operation: 'export', queryId: '={{ $json.queryId }}', compression: 'GZIP', options: { ...FAST_POLLING } }, onError ? { onError } : {}),
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
				runOptions: {},
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
			{ resource: 'campaign', operation: 'trigger', campaignId: '#it_satisfaction', userSids: '={{ $json.sid }}', campaignExpiresInMinutes: 1440, campaignOptions: {} },
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

const errorOutputCases = [...exportCases, ...enrichmentCases, ...remoteActionCases, ...campaignCases];

module.exports = { errorOutputCases };
