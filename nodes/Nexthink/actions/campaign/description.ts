/**
 * Parameters of the Campaign resource: Trigger. The Campaigns API has no list or details endpoint,
 * so the campaign is given by NQL ID and its parameters by name.
 */
import type { INodeProperties } from 'n8n-workflow';

export const show = { show: { resource: ['campaign'], operation: ['trigger'] } };

export const campaignOperationProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['campaign'] } },
	options: [{ name: 'Trigger', value: 'trigger', action: 'Trigger a campaign', description: 'Send a campaign to the users of the input items' }],
	default: 'trigger',
};
