/** The Nexthink Event Trigger's parameters: the channel, authentication, path, setup help, then each channel's own. */
import type { INodeProperties } from 'n8n-workflow';

import * as dataExporter from './modes/dataExporter';
import * as webhook from './modes/webhook';
import * as workflowCall from './modes/workflowCall';

export const eventTriggerProperties: INodeProperties[] = [
	{
		displayName: 'Channel',
		name: 'mode',
		type: 'options',
		noDataExpression: true,
		options: [webhook.channel, dataExporter.channel, workflowCall.channel],
		default: 'webhook',
	},
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Nexthink Connector Credential', value: 'connectorCredential', description: 'Basic or Bearer, as the connector credential in Nexthink sends it' },
			{ name: 'None', value: 'none', description: 'Anyone who knows the URL starts the workflow' },
		],
		default: 'connectorCredential',
	},
	{
		displayName:
			'Without authentication anyone who learns this URL can start the workflow and feed it any data. Nexthink signs nothing: use a connector credential (Basic or Bearer) whenever you can.',
		name: 'noAuthenticationWarning',
		type: 'notice',
		default: '',
		displayOptions: { show: { authentication: ['none'] } },
	},
	{
		displayName: 'Path',
		name: 'path',
		type: 'string',
		default: '',
		placeholder: 'nexthink/alerts',
		description: "The URL path after /webhook/. Empty: the node's ID.",
	},
	{
		displayName:
			"Copy the Production URL (not the Test URL: it only answers while the editor listens). In Nexthink, exactly one of the connector credential's URL and the Resource carries the slash between them: https://your-n8n-host/ with Resource webhook/your-path, or https://your-n8n-host with Resource /webhook/your-path. The exact values are listed under Copy Into Nexthink (informational: the value chosen there changes nothing).",
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Copy Into Nexthink Name or ID',
		name: 'setupValues',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'setupValues', loadOptionsDependsOn: ['mode', 'path', 'eventTable'] },
		default: '',
		description: 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	},
	...webhook.description,
	...dataExporter.description,
	...workflowCall.description,
];
