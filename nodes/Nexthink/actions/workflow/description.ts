/**
 * Parameters of the Workflow resource: Run, Resume, Get, Get Many. The workflow is picked from the
 * API's list (or given by NQL ID); its parameters come from its details where Nexthink lists them.
 */
import type { INodeProperties } from 'n8n-workflow';

import { waitForResultsProperties } from '../shared/waitDescription';
import { DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS } from './api';
import { actionWritesDescription, allowWritesOption, requestTimeoutOption } from '../../shared/optionFields';
import { readOptionsCollection, returnAllAndLimit } from '../shared/readFields';

const show = (operation: string[]) => ({ show: { resource: ['workflow'], operation } });

export const workflowOperationProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['workflow'] } },
	options: [
		{ name: 'Get', value: 'get', action: 'Get a workflow', description: 'Get a workflow by its NQL ID' },
		{ name: 'Get Many', value: 'getMany', action: 'Get many workflows', description: 'List the workflows (by default every one that can be triggered through the API)' },
		{ name: 'Resume', value: 'resume', action: 'Resume a workflow execution', description: 'Send the event a workflow execution waits for ("wait for event" step)' },
		{ name: 'Run', value: 'run', action: 'Run a workflow', description: 'Run a workflow on the devices or users of the input items' },
	],
	default: 'run',
};

const nameValueCollection = (name: string, displayName: string, description: string, operation: string): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Parameter',
	displayOptions: show([operation]),
	description,
	options: [
		{
			displayName: 'Parameter',
			name: 'parameter',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
});

const workflowLocator: INodeProperties = {
	displayName: 'Workflow',
	name: 'workflow',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	displayOptions: show(['run', 'get']),
	description: 'The workflow. Only workflows with the "API" trigger ticked in Nexthink can be run; the list shows those.',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchWorkflows', searchable: true },
		},
		{
			displayName: 'By NQL ID',
			name: 'id',
			type: 'string',
			placeholder: '#repair_teams',
			hint: 'The NQL ID from Workflows > Manage workflows ("Copy NQL ID"); case-sensitive',
		},
	],
};

const runProperties: INodeProperties[] = [
	{
		displayName:
			'Running a workflow acts on devices and users. Items with the same workflow and parameters are sent together (up to 10,000 devices and 10,000 users per request); each item gets the request ID and the execution ID of each target, to follow them in NQL (workflow.executions).',
		name: 'workflowRunNotice',
		type: 'notice',
		default: '',
		displayOptions: show(['run']),
	},
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
	nameValueCollection(
		'workflowOtherParameters',
		'Other Parameters',
		'Parameters by name, for a workflow whose parameters Nexthink does not list (sent in "params")',
		'run',
	),
	...waitForResultsProperties({ resource: ['workflow'], operation: ['run'] }, 'workflow.executions', '#n8n_workflow_status'),
	{
		displayName: 'Options',
		name: 'workflowRunOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show(['run']),
		options: [
			allowWritesOption(actionWritesDescription('run the workflow')),
			requestTimeoutOption(DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS, 'Longest time one request may take. A run request that times out is not sent again (it may have run).'),
		],
	},
];

const resumeProperties: INodeProperties[] = [
	{
		displayName: 'Workflow UUID',
		name: 'workflowUuid',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'f2000000-0000-4000-8000-000000000004',
		displayOptions: show(['resume']),
		description: 'The workflow\'s "uuid" (Get Workflow returns it), not its NQL ID',
	},
	{
		displayName: 'Execution UUID',
		name: 'executionUuid',
		type: 'string',
		default: '={{ $json.nexthinkWorkflow.executionIds[0] }}',
		required: true,
		displayOptions: show(['resume']),
		description: 'The execution waiting for the event: an execution ID from Run Workflow (executionIds) or from NQL (workflow.executions.execution_id)',
	},
	nameValueCollection('resumeParameters', 'Event Parameters', 'Values the waiting step receives, by name (each value non-empty)', 'resume'),
	{
		displayName: 'Options',
		name: 'resumeOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show(['resume']),
		options: [
			allowWritesOption(actionWritesDescription('resume the execution')),
			requestTimeoutOption(DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS, 'Longest time one request may take. A request that times out is not sent again (it may have resumed the execution).'),
		],
	},
];

const getManyProperties: INodeProperties[] = [
	{
		displayName: 'Trigger Methods',
		name: 'workflowTriggerMethods',
		type: 'multiOptions',
		displayOptions: show(['getMany']),
		options: [
			{ name: 'API', value: 'API' },
			{ name: 'Manual', value: 'MANUAL' },
			{ name: 'Manual (Multiple)', value: 'MANUAL_MULTIPLE' },
			{ name: 'Scheduler', value: 'SCHEDULER' },
		],
		default: ['API'],
		description: 'Workflows with any of these trigger methods. API: the ones this node can run.',
	},
	{
		displayName: 'Dependencies',
		name: 'workflowDependencies',
		type: 'multiOptions',
		displayOptions: show(['getMany']),
		options: [
			{ name: 'Device', value: 'DEVICE' },
			{ name: 'None', value: 'NONE' },
			{ name: 'User', value: 'USER' },
			{ name: 'User and Device', value: 'USER_AND_DEVICE' },
		],
		default: ['DEVICE', 'USER', 'USER_AND_DEVICE', 'NONE'],
		description: 'Workflows whose targets are of any of these kinds. The API takes one trigger method and one dependency per call, so the node makes one call per pair and merges the answers.',
	},
	{
		displayName: 'Active Only',
		name: 'workflowActiveOnly',
		type: 'boolean',
		default: false,
		displayOptions: show(['getMany']),
		description: 'Whether to leave out inactive workflows',
	},
	...returnAllAndLimit('workflow'),
];

const readOptions = readOptionsCollection('workflow', 'workflowReadOptions', DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS);

export const workflowProperties: INodeProperties[] = [workflowLocator, ...runProperties, ...resumeProperties, ...getManyProperties, readOptions];
