/**
 * The Nexthink Actions node's parameters: a resource, then each resource's operations
 * (remoteAction/description.ts, campaign/description.ts). Workflow follows the same shape.
 */
import type { INodeProperties } from 'n8n-workflow';

import { campaignOperationProperty, campaignProperties } from './campaign/description';
import { remoteActionOperationProperty, remoteActionProperties } from './remoteAction/description';

const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Campaign', value: 'campaign' },
		{ name: 'Remote Action', value: 'remoteAction' },
	],
	default: 'remoteAction',
};

export const actionsProperties: INodeProperties[] = [
	resourceProperty,
	remoteActionOperationProperty,
	campaignOperationProperty,
	...remoteActionProperties,
	...campaignProperties,
];
