/** The Campaign resource's operation picker (the Campaigns API has no list: the campaign is given by NQL ID). */
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
