/** Parameters of the Workflow Call channel: the Service/API thinklet of a Nexthink workflow, which waits for the answer. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { optionsCollection } from './shared';

export const channel: INodePropertyOptions = { name: 'Workflow Call', value: 'workflowCall', description: 'A Nexthink workflow\'s Service/API step calls and reads the answer' };

const show = { show: { mode: ['workflowCall'] } };

export const description: INodeProperties[] = [
	{
		displayName:
			'Nexthink waits 10 seconds for the answer, reads at most 2 MB of it and takes up to 5 outputs with $.field paths: answer with a small, flat JSON object.',
		name: 'workflowCallNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	{
		displayName: 'Respond',
		name: 'responseMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Immediately With Fixed JSON', value: 'onReceived', description: 'Answers before the workflow runs' },
			{ name: 'When Last Node Finishes', value: 'lastNode', description: 'Answers with the JSON of the first item of the last node' },
			{ name: "Using 'Respond to Webhook' Node", value: 'responseNode', description: 'Answers with what a Respond to Webhook node sends' },
		],
		default: 'lastNode',
		displayOptions: show,
	},
	{
		displayName: 'Response JSON',
		name: 'responseJson',
		type: 'json',
		default: '{\n  "status": "received"\n}',
		description: 'The answer Nexthink reads',
		displayOptions: { show: { mode: ['workflowCall'], responseMode: ['onReceived'] } },
	},
	{
		displayName:
			"Use a 'Respond to Webhook' node of version 1 (copy it from the example nexthink-workflow-open-ticket.json): from version 1.1 n8n's node runs only after n8n's own webhook triggers. Place it before any slow step; answer failures from the error output, or n8n answers 500 {\"message\": \"Error in workflow\"}.",
		name: 'responseNodeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { mode: ['workflowCall'], responseMode: ['responseNode'] } },
	},
	optionsCollection('workflowCall'),
];
