/** The Spark resource's operation picker (the Spark Handoff API). */
import type { INodeProperties } from 'n8n-workflow';

export const show = { show: { resource: ['spark'], operation: ['handOff'] } };

export const sparkOperationProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['spark'] } },
	options: [
		{
			name: 'Hand Off Conversation',
			value: 'handOff',
			action: 'Hand off a conversation to spark',
			description: 'Hand the user over to Nexthink Spark, which continues the conversation in Microsoft Teams',
		},
	],
	default: 'handOff',
};
