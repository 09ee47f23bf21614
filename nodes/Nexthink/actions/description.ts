/**
 * The Nexthink Actions node's parameters: a resource, then each resource's operations
 * (remoteAction/description.ts, workflow/description.ts, campaign/description.ts, device/description.ts, spark/description.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import { actionsToolDescriptionProperties } from '../shared/toolDescriptions';
import { campaignOperationProperty, campaignProperties } from './campaign/description';
import { deviceOperationProperty, deviceProperties } from './device/description';
import { remoteActionOperationProperty, remoteActionProperties } from './remoteAction/description';
import { sparkOperationProperty, sparkProperties } from './spark/description';
import { workflowOperationProperty, workflowProperties } from './workflow/description';

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
	...remoteActionProperties,
	...workflowProperties,
	...campaignProperties,
	...deviceProperties,
	...sparkProperties,
];
