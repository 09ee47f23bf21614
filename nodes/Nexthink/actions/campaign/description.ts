/**
 * Parameters of the Campaign resource: Trigger. The Campaigns API has no list or details endpoint,
 * so the campaign is given by NQL ID and its parameters by name.
 */
import type { INodeProperties } from 'n8n-workflow';

import { waitForResultsProperties } from '../shared/waitDescription';
import { DEFAULT_CAMPAIGN_REQUEST_TIMEOUT_SECONDS } from './api';
import { DEFAULT_CAMPAIGN_EXPIRY_MINUTES, MAX_CAMPAIGN_EXPIRY_MINUTES, MIN_CAMPAIGN_EXPIRY_MINUTES } from './campaignInput';
import { actionWritesDescription, allowWritesOption, requestTimeoutOption } from '../../shared/optionFields';

const show = { show: { resource: ['campaign'], operation: ['trigger'] } };

export const campaignOperationProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['campaign'] } },
	options: [{ name: 'Trigger', value: 'trigger', action: 'Trigger a campaign', description: 'Send a campaign to the users of the input items' }],
	default: 'trigger',
};

export const campaignProperties: INodeProperties[] = [
	{
		displayName: 'Campaign NQL ID',
		name: 'campaignId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '#it_satisfaction',
		displayOptions: show,
		description:
			'The campaign\'s NQL ID ("Copy NQL ID" in Campaigns > Manage campaigns). The Campaigns API cannot list campaigns, so it is typed. The campaign needs its "API" checkbox ticked.',
	},
	{
		displayName: 'User SIDs',
		name: 'userSids',
		type: 'string',
		default: '={{ $json["user.sid"] }}',
		required: true,
		displayOptions: show,
		description:
			'The target users of this item by SID (user.sid): one, several separated by commas or line breaks, or a list from an expression. The Campaigns API accepts SIDs only.',
	},
	{
		displayName: 'Expires After (Minutes)',
		name: 'campaignExpiresInMinutes',
		type: 'number',
		typeOptions: { minValue: MIN_CAMPAIGN_EXPIRY_MINUTES, maxValue: MAX_CAMPAIGN_EXPIRY_MINUTES },
		default: DEFAULT_CAMPAIGN_EXPIRY_MINUTES,
		required: true,
		displayOptions: show,
		description: 'How long users may still answer, counted from now: 1 to 525,600 minutes (one year)',
	},
	{
		displayName: 'Parameters',
		name: 'campaignParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Parameter',
		displayOptions: show,
		description: "The campaign's parameters (at most 30). Nexthink expects exactly the campaign's parameter IDs.",
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'device_name' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	...waitForResultsProperties(show.show, 'campaign.responses', '#n8n_campaign_status'),
	{
		displayName: 'Options',
		name: 'campaignOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show,
		options: [
			allowWritesOption(actionWritesDescription('send the campaign')),
			requestTimeoutOption(DEFAULT_CAMPAIGN_REQUEST_TIMEOUT_SECONDS, 'Longest time the request may take. A trigger that times out is not sent again (it may have reached users).'),
		],
	},
];
