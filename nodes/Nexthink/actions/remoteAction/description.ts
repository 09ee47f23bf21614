/**
 * Parameters of the Remote Action resource: Run, Get, Get Many. The remote action is picked from
 * the API's list (or given by NQL ID); its script inputs come from its details, so the editor
 * offers the input IDs and, for inputs with a fixed set of values, only those values.
 */
import type { INodeProperties } from 'n8n-workflow';

import { waitForResultsProperties } from '../shared/waitDescription';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS } from './api';
import { DEFAULT_EXPIRY_MINUTES, MAX_EXPIRY_MINUTES, MIN_EXPIRY_MINUTES } from './runInput';
import { actionWritesDescription, allowWritesOption, requestTimeoutOption } from '../../shared/optionFields';
import { readOptionsCollection, returnAllAndLimit } from '../shared/readFields';

const show = (operation: string[]) => ({ show: { resource: ['remoteAction'], operation } });

export const remoteActionOperationProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['remoteAction'] } },
	options: [
		{ name: 'Get', value: 'get', action: 'Get a remote action', description: 'Get the details of a remote action by its NQL ID' },
		{ name: 'Get Many', value: 'getMany', action: 'Get many remote actions', description: 'List the remote actions' },
		{
			name: 'Run',
			value: 'run',
			action: 'Run a remote action',
			description: 'Run a remote action on the devices of the input items',
		},
	],
	default: 'run',
};

const remoteActionLocator: INodeProperties = {
	displayName: 'Remote Action',
	name: 'remoteAction',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	displayOptions: show(['run', 'get']),
	description: 'The remote action. Only remote actions with the "API" option ticked in Nexthink can be run.',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchRemoteActions', searchable: true },
		},
		{
			displayName: 'By NQL ID',
			name: 'id',
			type: 'string',
			placeholder: '#restart_service',
			hint: 'The NQL ID from Remote actions > Manage remote actions ("Copy NQL ID"); case-sensitive',
		},
	],
};

const runProperties: INodeProperties[] = [
	{
		displayName:
			'Running a remote action changes devices. Items with the same remote action and inputs are sent together (up to 10,000 devices per request); each item gets the request ID to follow the executions in NQL (remote_action.executions), or turn on Wait for Results to get the outcome on each device.',
		name: 'runNotice',
		type: 'notice',
		default: '',
		displayOptions: show(['run']),
	},
	{
		displayName: 'Collector UIDs',
		name: 'collectorUids',
		type: 'string',
		default: '={{ $json["device.collector.uid"] }}',
		required: true,
		displayOptions: show(['run']),
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
		displayOptions: show(['run']),
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
	...waitForResultsProperties({ resource: ['remoteAction'], operation: ['run'] }, 'remote_action.executions', '#n8n_remote_action_status'),
	{
		displayName: 'Options',
		name: 'runOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show(['run']),
		options: [
			allowWritesOption(actionWritesDescription('run the remote action')),
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
			requestTimeoutOption(DEFAULT_REQUEST_TIMEOUT_SECONDS, 'Longest time one request may take. A run request that times out is not sent again (it may have run).'),
		],
	},
];

const getManyProperties: INodeProperties[] = [
	{
		displayName: 'API-Enabled Only',
		name: 'apiEnabledOnly',
		type: 'boolean',
		default: true,
		displayOptions: show(['getMany']),
		description: 'Whether to return only the remote actions whose "API" option is ticked, the ones this node can run',
	},
	...returnAllAndLimit('remoteAction'),
];

const readOptions = readOptionsCollection('remoteAction', 'readOptions', DEFAULT_REQUEST_TIMEOUT_SECONDS);

export const remoteActionProperties: INodeProperties[] = [remoteActionLocator, ...runProperties, ...getManyProperties, readOptions];
