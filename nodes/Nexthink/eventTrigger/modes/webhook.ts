/** Parameters of the Webhook channel: Nexthink's webhooks (Administration > Outbound connectors > Webhooks). */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { EVENT_TABLES } from '../eventTable';
import { dedupeProperties, optionsCollection } from './shared';

export const channel: INodePropertyOptions = { name: 'Webhook', value: 'webhook', description: 'An alert or event matched a webhook\'s NQL condition' };

const show = { show: { mode: ['webhook'] } };

export const description: INodeProperties[] = [
	{
		displayName:
			'Nexthink sends one call per matching event, with the payload template you type in the webhook. Duplicates and delays are normal: turn on Ignore Repeats to drop them.',
		name: 'webhookNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	{
		displayName: 'Event Table',
		name: 'eventTable',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Any (Detect From the Payload)', value: 'auto' },
			...EVENT_TABLES.map((table) => ({ name: table, value: table })),
		],
		default: 'auto',
		description:
			'The table of the webhook\'s NQL condition. Shapes the payload template under Copy Into Nexthink, and names the table of an event whose payload does not say it.',
		displayOptions: show,
	},
	...dedupeProperties(show, 'Fields of the payload that identify an event (comma-separated, e.g. monitor, context, triggered, status). Empty: the whole payload.'),
	optionsCollection('webhook'),
];
