/** The Nexthink Actions node's parameters: the resource, each resource's operation picker, then each operation's own fields. */
import type { INodeProperties } from 'n8n-workflow';

import { actionsToolDescriptionProperties } from '../shared/toolDescriptions';
import { campaignOperationProperty } from './campaign/description';
import { description as triggerCampaign } from './campaign/triggerCampaign.operation';
import { deviceOperationProperty } from './device/description';
import { description as deleteDevices } from './device/delete.operation';
import { remoteActionLocator, remoteActionOperationProperty } from './remoteAction/description';
import { description as getRemoteAction } from './remoteAction/get.operation';
import { description as getManyRemoteActions } from './remoteAction/getMany.operation';
import { description as runRemoteAction } from './remoteAction/run.operation';
import { sparkOperationProperty } from './spark/description';
import { description as handOff } from './spark/handOff.operation';
import { workflowLocator, workflowOperationProperty } from './workflow/description';
import { description as getWorkflow } from './workflow/get.operation';
import { description as getManyWorkflows } from './workflow/getMany.operation';
import { description as resumeWorkflow } from './workflow/resume.operation';
import { description as runWorkflow } from './workflow/run.operation';

const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Campaign', value: 'campaign' },
		{ name: 'Device', value: 'device' },
		{ name: 'Remote Action', value: 'remoteAction' },
		{ name: 'Spark', value: 'spark' },
		{ name: 'Workflow', value: 'workflow' },
	],
	default: 'remoteAction',
};

export const actionsProperties: INodeProperties[] = [
	resourceProperty,
	remoteActionOperationProperty,
	workflowOperationProperty,
	campaignOperationProperty,
	deviceOperationProperty,
	sparkOperationProperty,
	...actionsToolDescriptionProperties,
	remoteActionLocator,
	...runRemoteAction,
	...getManyRemoteActions,
	...getRemoteAction,
	workflowLocator,
	...runWorkflow,
	...resumeWorkflow,
	...getManyWorkflows,
	...getWorkflow,
	...triggerCampaign,
	...deleteDevices,
	...handOff,
];
