/** Parameters of the Workflow Call channel: the Service/API thinklet of a Nexthink workflow, which waits for the answer. */
import type { INodeProperties } from 'n8n-workflow';

import { maxBodySizeOption } from './shared';

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
			"Place a 'Respond to Webhook' node before any slow step. For failures, set the failing node's On Error to 'Continue (using error output)' and answer {\"status\": \"error\"} from a second Respond to Webhook node: n8n itself answers an unhandled failure with 500 {\"message\": \"Error in workflow\"}.",
		name: 'responseNodeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { mode: ['workflowCall'], responseMode: ['responseNode'] } },
	},
	{
		displayName: 'Options',
		name: 'workflowCallOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show,
		options: [maxBodySizeOption],
	},
];
