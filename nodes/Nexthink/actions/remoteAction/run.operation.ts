/**
 * Run Remote Action: items grouped (shared/runPlan.ts), script inputs checked against the details first.
 * Why: docs/decisions.md, "Actions node: remote actions, workflows, campaign trigger".
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { writeOptions } from '../shared/panelFields';
import { notice } from '../../shared/optionFields';
import { ALLOWED_REMOTE_ACTIONS, allowListOption } from '../../shared/toolMode';
import { show } from './description';
import type { BatchedOperation, Preparation } from '../../shared/runItems';
import { failureOf, nodeErrorOf } from '../../shared/nodeErrors';
import { checkSameWait, preparedRunItem, RESULTS_MAX_TARGETS_PER_REQUEST, waitForItems, waitForResultsProperties, waitOptions, type PreparedRunItem } from '../shared/waitForResults';
import { scriptInputsOf } from './answers';
import { executeRemoteAction, getRemoteAction } from './api';
import { MAX_DEVICES_PER_REQUEST, planRequests, runOutcome, type PlannedRequest, type PreparedRun, type RunPlan } from '../shared/runPlan';
import {
	DEFAULT_EXPIRY_MINUTES,
	MAX_EXPIRY_MINUTES,
	MIN_EXPIRY_MINUTES,
	checkExpiry,
	checkParamsAgainstInputs,
	checkScriptInputs,
	checkTriggerInfo,
	normaliseRemoteActionId,
	parseCollectorUids,
} from './runInput';

type Prepared = PreparedRunItem<PreparedRun>;

/** Run's fields (the remote action is the resource's, description.ts). */
export const description = updateDisplayOptions(show(['run']), [
	notice(
		'runNotice',
		'Running a remote action changes devices. Items with the same remote action and inputs are sent together (up to 10,000 devices per request); each item gets the request ID to follow the executions in NQL (remote_action.executions), or turn on Wait for Results to get the outcome on each device.',
	),
	{
		displayName: 'Collector UIDs',
		name: 'collectorUids',
		type: 'string',
		default: '={{ $json["device.collector.uid"] }}',
		required: true,
		description:
			'The target devices of this item by Collector UID (device.collector.uid, a UUID): one, several separated by commas or line breaks, or a list from an expression. Device names and device.uid are not accepted by the Remote Actions API.',
	},
	{
		displayName: 'Script Inputs',
		name: 'scriptInputs',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['remoteAction.value'],
			resourceMapper: {
				resourceMapperMethod: 'getScriptInputs',
				mode: 'add',
				fieldWords: { singular: 'input', plural: 'inputs' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: false,
				noFieldsError: 'This remote action has no script inputs',
			},
		},
		description: "The remote action's script inputs, read from its details in Nexthink",
	},
	...waitForResultsProperties('remote_action.executions', '#n8n_remote_action_status'),
	writeOptions(show(['run']), 'run the remote action', 'Longest time one request may take. A run request that times out is not sent again (it may have run).', [
		allowListOption(ALLOWED_REMOTE_ACTIONS, '#clear_teams_cache, #restart_service'),
		{
			displayName: 'Expires After (Minutes)',
			name: 'expiresInMinutes',
			type: 'number',
			typeOptions: { minValue: MIN_EXPIRY_MINUTES, maxValue: MAX_EXPIRY_MINUTES },
			default: DEFAULT_EXPIRY_MINUTES,
			description: 'How long offline devices may still pick up the execution: 60 to 10,080 minutes (7 days)',
		},
		{
			displayName: 'External Reference',
			name: 'externalReference',
			type: 'string',
			default: '',
			placeholder: 'INC0012345',
			description: 'A reference in the calling system, e.g. a ticket number; stored with the executions',
		},
		{
			displayName: 'External Source',
			name: 'externalSource',
			type: 'string',
			default: '',
			placeholder: 'n8n',
			description: 'The calling system, e.g. n8n or ServiceNow; stored with the executions',
		},
		{
			displayName: 'Reason',
			name: 'reason',
			type: 'string',
			default: '',
			description: 'Why the remote action runs (at most 500 characters); stored with the executions',
		},
		...waitOptions(),
	]),
]);

export const runRemoteActionOperation: BatchedOperation<undefined, Prepared, PlannedRequest, { requestId: string; expiresInMinutes?: number }, RunPlan, ReturnType<typeof runOutcome>> = {
	outcomeKey: 'nexthinkRemoteAction',
	done: 'triggered',
	prepare(itemIndex) {
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const scriptInputs = this.getNodeParameter('scriptInputs', itemIndex, {}) as { value?: Record<string, unknown> | null };
		const parsed = parseCollectorUids(this.getNodeParameter('collectorUids', itemIndex));
		const run: PreparedRun = {
			itemIndex,
			remoteActionId: normaliseRemoteActionId(this.getNodeParameter('remoteAction', itemIndex, '', { extractValue: true })),
			params: checkScriptInputs(scriptInputs?.value),
			expiresInMinutes: checkExpiry(options.expiresInMinutes),
			devices: parsed.devices,
			duplicatesInItem: parsed.duplicates,
		};
		const triggerInfo = checkTriggerInfo(options);
		if (triggerInfo !== undefined) run.triggerInfo = triggerInfo;
		const targets = { count: run.devices.length, noun: 'devices', lists: 'the list', field: 'Collector UIDs' };
		return preparedRunItem(this, itemIndex, run, run.remoteActionId, ALLOWED_REMOTE_ACTIONS, targets);
	},
	async check(preparations, run) {
		checkSameWait(preparations);
		// under "Stop Workflow" a bad item stops the run before any request, the details calls included
		if (run.continueOnFail || preparations.every((preparation) => preparation.ok)) await checkInputsAgainstDetails(this, preparations, run.continueOnFail);
	},
	validateOnly: (prepared) => prepared.validateOnly,
	plan(itemIndexes, { items }) {
		const runs = itemIndexes.map((itemIndex) => (items.get(itemIndex) as Prepared).run);
		const waits = itemIndexes.some((itemIndex) => items.get(itemIndex)?.wait !== undefined);
		return planRequests(runs, waits ? RESULTS_MAX_TARGETS_PER_REQUEST : MAX_DEVICES_PER_REQUEST);
	},
	async send(request, { items }) {
		const [itemIndex] = request.itemIndexes;
		return await executeRemoteAction(this, request.body, { timeoutMs: (items.get(itemIndex) as Prepared).timeoutMs, itemIndex });
	},
	refusedObject: (request) => request.body.remoteActionId,
	requestIds: (_request, result) => [result.requestId],
	outcomes(plan, results, { items }) {
		return new Map([...plan.placements.keys()].map((itemIndex) => [itemIndex, runOutcome((items.get(itemIndex) as Prepared).run, plan, results)]));
	},
	async afterSending(outcomes, { items }) {
		return await waitForItems(this, 'remote_action', items, outcomes, 'collectorUid', (outcome) => outcome.devices);
	},
};

/**
 * Each item's script inputs against its remote action's details, read once per remote action before any
 * run request. Why: docs/decisions.md, row "Script inputs checked before the run".
 */
async function checkInputsAgainstDetails(ctx: IExecuteFunctions, preparations: Array<Preparation<Prepared>>, continueOnFail: boolean): Promise<void> {
	const byRemoteAction = new Map<string, number[]>();
	preparations.forEach((preparation, itemIndex) => {
		if (!preparation.ok) return;
		const id = preparation.prepared.run.remoteActionId;
		byRemoteAction.set(id, [...(byRemoteAction.get(id) ?? []), itemIndex]);
	});
	for (const [remoteActionId, itemIndexes] of byRemoteAction) {
		const first = preparations[itemIndexes[0]] as { ok: true; prepared: Prepared };
		let inputs: ReturnType<typeof scriptInputsOf>;
		try {
			inputs = scriptInputsOf(await getRemoteAction(ctx, remoteActionId, { timeoutMs: first.prepared.timeoutMs, itemIndex: itemIndexes[0] }));
		} catch (error) {
			const nothingSent = `Nothing was sent: the script inputs are checked against the remote action's details before any run request.`;
			const described = failureOf(error);
			const description = [described.description, nothingSent].filter(Boolean).join(' ');
			if (!continueOnFail) throw Object.assign(nodeErrorOf(ctx.getNode(), error), { description });
			for (const itemIndex of itemIndexes) preparations[itemIndex] = { ok: false, message: described.message, field: 'Remote Action', description };
			continue;
		}
		for (const itemIndex of itemIndexes) {
			const preparation = preparations[itemIndex] as { ok: true; prepared: Prepared };
			try {
				checkParamsAgainstInputs(remoteActionId, preparation.prepared.run.params, inputs);
			} catch (error) {
				preparations[itemIndex] = { ok: false, ...failureOf(error) };
			}
		}
	}
}

