/** The Device resource's operation picker (the Data Management API). */
import type { INodeProperties } from 'n8n-workflow';

export const show = { show: { resource: ['device'], operation: ['delete'] } };

export const deviceOperationProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['device'] } },
	options: [
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete devices',
			description: 'Remove the devices of the input items from the Nexthink inventory (queued by Nexthink, no undo)',
		},
	],
	default: 'delete',
};
