/** Run Workflow: like Run Remote Action, with devices and users, v1 or v2, and an execution ID per target. */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { writeOptions } from '../shared/panelFields';
import { notice } from '../../shared/optionFields';
import { ALLOWED_WORKFLOWS, allowListOption } from '../../shared/toolMode';
import { nameValueCollection, show } from './description';
import type { BatchedOperation } from '../../shared/runItems';
import { checkSameWait, preparedRunItem, RESULTS_MAX_TARGETS_PER_REQUEST, waitForItems, waitForResultsProperties, waitOptions, type PreparedRunItem } from '../shared/waitForResults';
import { executeWorkflow } from './api';
import type { WorkflowExecutionAnswer } from './answers';
import { planWorkflowRequests, withUnfollowed, workflowRunOutcome, type PlannedWorkflowRequest, type PreparedWorkflowRun, type WorkflowPlan } from './runBatching';
import {
	checkMappedParameters,
	checkNameValueParameters,
	MAX_WORKFLOW_TARGETS_PER_LIST,
	normaliseWorkflowId,
	parseWorkflowTargets,
	type ApiVersion,
	type DeviceIdType,
	type UserIdType,
} from './runInput';
import { InputError } from '../../shared/inputError';
import { readChoice } from '../../shared/parameterValues';
import { setOwn, hasOwnKey } from '../../shared/ownKeys';

type Prepared = PreparedRunItem<PreparedWorkflowRun>;

/** Run's fields (the workflow is the resource's, description.ts). */
export const description: INodeProperties[] = [
	notice(
		'workflowRunNotice',
		'Running a workflow acts on devices and users. Items with the same workflow and parameters are sent together (up to 10,000 devices and 10,000 users per request); each item gets the request ID and the execution ID of each target, to follow them in NQL (workflow.executions).',
		show(['run']),
	),
	{
		displayName: 'API Version',
		name: 'workflowApiVersion',
		type: 'options',
		noDataExpression: true,
		displayOptions: show(['run']),
		options: [
			{ name: 'V2: Devices and Users by Any Identifier', value: 'v2', description: 'Devices by Collector UID, device UID or name; users by SID, UPN or user UID' },
			{ name: 'V1: Collector UIDs and SIDs', value: 'v1', description: 'Devices by Collector UID only, users by SID only' },
		],
		default: 'v2',
	},
	{
		displayName: 'Devices',
		name: 'workflowDevices',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json["device.collector.uid"] }}',
		displayOptions: show(['run']),
		description:
			'The target devices of this item: one, several separated by commas or line breaks, or a list from an expression (v2 also takes identifier objects such as { "collectorUid": "…", "name": "…" }). Leave empty for a workflow on users only.',
	},
	{
		displayName: 'Device Identifier',
		name: 'workflowDeviceIdType',
		type: 'options',
		displayOptions: { show: { resource: ['workflow'], operation: ['run'], workflowApiVersion: ['v2'] } },
		options: [
			{ name: 'Collector UID (device.collector.uid)', value: 'collectorUid' },
			{ name: 'Device Name (device.name)', value: 'name' },
			{ name: 'Device UID (device.uid)', value: 'uid' },
		],
		default: 'collectorUid',
		description: 'How the Devices entries identify a device. With a name, Nexthink picks the most recently seen device of that name.',
	},
	{
		displayName: 'Users',
		name: 'workflowUsers',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json["user.sid"] }}',
		displayOptions: show(['run']),
		description:
			'The target users of this item: one, several separated by commas or line breaks, or a list from an expression (v2 also takes identifier objects such as { "upn": "…" }). Leave empty for a workflow on devices only.',
	},
	{
		displayName: 'User Identifier',
		name: 'workflowUserIdType',
		type: 'options',
		displayOptions: { show: { resource: ['workflow'], operation: ['run'], workflowApiVersion: ['v2'] } },
		options: [
			{ name: 'SID (user.sid)', value: 'sid' },
			{ name: 'UPN (user.upn)', value: 'upn' },
			{ name: 'User UID (user.uid)', value: 'uid' },
		],
		default: 'sid',
		description: 'How the Users entries identify a user',
	},
	{
		displayName: 'Workflow Parameters',
		name: 'workflowParameters',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		displayOptions: show(['run']),
		typeOptions: {
			loadOptionsDependsOn: ['workflow.value'],
			resourceMapper: {
				resourceMapperMethod: 'getWorkflowParameters',
				mode: 'add',
				fieldWords: { singular: 'parameter', plural: 'parameters' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: false,
			},
		},
		description: "The workflow's parameters as Nexthink lists them; also says when the workflow cannot be run from n8n",
	},
	...updateDisplayOptions(show(['run']), [
		nameValueCollection(
			'workflowOtherParameters',
			'Other Parameters',
			'Parameters by name, for a workflow whose parameters Nexthink does not list (sent in "params")',
		),
		...waitForResultsProperties('workflow.executions', '#n8n_workflow_status'),
	]),
	writeOptions(show(['run']), 'run the workflow', 'Longest time one request may take. A run request that times out is not sent again (it may have run).', [
		allowListOption(ALLOWED_WORKFLOWS, '#repair_teams'),
		...waitOptions(),
	]),
];

export const runWorkflowOperation: BatchedOperation<undefined, Prepared, PlannedWorkflowRequest, WorkflowExecutionAnswer, WorkflowPlan, ReturnType<typeof workflowRunOutcome>> = {
	outcomeKey: 'nexthinkWorkflow',
	done: 'triggered',
	prepare(itemIndex) {
		const version = readChoice<ApiVersion>(this.getNodeParameter('workflowApiVersion', itemIndex, 'v2'), 'API Version', ['v2', 'v1'], 'v2');
		const workflowId = normaliseWorkflowId(this.getNodeParameter('workflow', itemIndex, '', { extractValue: true }));
		const parsed = parseWorkflowTargets(
			version,
			this.getNodeParameter('workflowDevices', itemIndex, ''),
			readChoice<DeviceIdType>(this.getNodeParameter('workflowDeviceIdType', itemIndex, 'collectorUid'), 'Device Identifier', ['collectorUid', 'name', 'uid'], 'collectorUid'),
			this.getNodeParameter('workflowUsers', itemIndex, ''),
			readChoice<UserIdType>(this.getNodeParameter('workflowUserIdType', itemIndex, 'sid'), 'User Identifier', ['sid', 'upn', 'uid'], 'sid'),
		);
		const mapped = this.getNodeParameter('workflowParameters', itemIndex, {}) as { value?: Record<string, unknown> | null };
		const params = checkMappedParameters(mapped?.value, 'Workflow Parameters');
		const others = checkNameValueParameters(
			this.getNodeParameter('workflowOtherParameters.parameter', itemIndex, []) as Array<{ name?: unknown; value?: unknown }>,
			'Other Parameters',
		);
		for (const [name, value] of Object.entries(others)) {
			if (hasOwnKey(params, name)) {
				throw new InputError(`Parameter "${name}" is given in both "Workflow Parameters" and "Other Parameters"; give it once`, 'Other Parameters');
			}
			setOwn(params, name, value);
		}
		const run: PreparedWorkflowRun = { itemIndex, workflowId, version, params, targets: parsed.targets, duplicatesInItem: parsed.duplicates };
		const targets = { count: run.targets.length, noun: 'targets (devices and users)', lists: 'the lists', field: 'Wait for Results' };
		return preparedRunItem(this, itemIndex, run, workflowId, ALLOWED_WORKFLOWS, targets);
	},
	check: (preparations) => checkSameWait(preparations),
	validateOnly: (prepared) => prepared.validateOnly,
	plan(itemIndexes, { items }) {
		const waits = itemIndexes.some((itemIndex) => items.get(itemIndex)?.wait !== undefined);
		return planWorkflowRequests(
			itemIndexes.map((itemIndex) => (items.get(itemIndex) as Prepared).run),
			MAX_WORKFLOW_TARGETS_PER_LIST,
			waits ? RESULTS_MAX_TARGETS_PER_REQUEST : Infinity,
		);
	},
	async send(request, { items }) {
		const [itemIndex] = request.itemIndexes;
		return await executeWorkflow(this, request, { timeoutMs: (items.get(itemIndex) as Prepared).timeoutMs, itemIndex });
	},
	refusedObject: (request) => request.body.workflowId,
	requestIds: (_request, result) => [result.requestUuid],
	outcomes(plan, results, { items }) {
		return new Map([...plan.placements.keys()].map((itemIndex) => [itemIndex, workflowRunOutcome((items.get(itemIndex) as Prepared).run, plan, results)]));
	},
	async afterSending(outcomes, { items }) {
		return await waitForItems(this, 'workflow', items, outcomes, 'executionId', (outcome) => outcome.targets, (results, { unfollowed }, queryId) => withUnfollowed(results, unfollowed, queryId));
	},
};

