/** The Nexthink Event Trigger's parameters: the channel, authentication, path, setup help, then each channel's own. */
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { EVENT_TABLES } from './eventTable';
import { collectionOf, notice } from '../shared/optionFields';

const maxBodySizeOption: INodeProperties = {
	displayName: 'Maximum Body Size (MB)',
	name: 'maxBodySizeMb',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 3 },
	default: 0,
	description:
		"A larger body is refused with 413 and starts nothing. 0: only n8n's own limit, N8N_PAYLOAD_SIZE_MAX (16 MiB unless raised), which applies in any case.",
};

/**
 * A channel's `options` collection (one per channel, shown by the root `/mode`, so an option every
 * channel has keeps its value across a channel switch): the channel's own options, then Maximum Body
 * Size. Its hidden `binaryData`, in the default, makes n8n leave the body to the node (parseRequestBody
 * in https://github.com/n8n-io/n8n/blob/master/packages/cli/src/webhooks/webhook-helpers.ts).
 * Why: docs/decisions.md, "Nexthink Event Trigger" ("Reading the body", "Option collections").
 */
function optionsCollection(channel: string, options: INodeProperties[] = []): INodeProperties {
	const readBody: INodeProperties = { displayName: 'Read Body in Node', name: 'binaryData', type: 'hidden', default: true };
	const collection = collectionOf('options', { show: { '/mode': [channel] } }, [readBody, ...options, maxBodySizeOption]);
	return { ...collection, default: { binaryData: true } };
}

function dedupeProperties(displayOptions: IDisplayOptions, fieldsDescription: string): INodeProperties[] {
	const whenOn = { show: { ...displayOptions.show, dedupe: [true] } };
	return [
		{
			displayName: 'Ignore Repeats',
			name: 'dedupe',
			type: 'boolean',
			default: false,
			description: 'Whether a call equal to one seen within the window starts nothing (it is answered 200, as a success)',
			displayOptions,
		},
		{
			displayName: 'Compare Fields',
			name: 'dedupeFields',
			type: 'string',
			default: '',
			placeholder: 'monitor, context, triggered, status',
			description: fieldsDescription,
			displayOptions: whenOn,
		},
		{
			displayName: 'Window (Minutes)',
			name: 'dedupeWindowMinutes',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 60,
			description: 'How long a call is remembered. At most the 10,000 latest calls are kept, in the workflow\'s static data.',
			displayOptions: whenOn,
		},
	];
}

/** The choices of the trigger's pickers, by parameter: the panel offers them, and each call's value is checked against them. */
export const CHOICES = {
	mode: [
		{ name: 'Webhook', value: 'webhook', description: 'An alert or event matched a webhook\'s NQL condition' },
		{ name: 'Data Exporter', value: 'dataExporter', description: 'A scheduled HTTP API exporter sent a batch of rows' },
		{ name: 'Workflow Call', value: 'workflowCall', description: 'A Nexthink workflow\'s Service/API step calls and reads the answer' },
	],
	authentication: [
		{ name: 'Nexthink Connector Credential', value: 'connectorCredential', description: 'Basic or Bearer, as the connector credential in Nexthink sends it' },
		{ name: 'None', value: 'none', description: 'Anyone who knows the URL starts the workflow' },
	],
	responseMode: [
		{ name: 'Immediately With Fixed JSON', value: 'onReceived', description: 'Answers before the workflow runs' },
		{ name: 'When Last Node Finishes', value: 'lastNode', description: 'Answers with the JSON of the first item of the last node' },
		{ name: "Using 'Respond to Webhook' Node", value: 'responseNode', description: 'Answers with what a Respond to Webhook node sends' },
	],
} satisfies Record<string, INodePropertyOptions[]>;

const webhookOnly = { show: { mode: ['webhook'] } };
const exporterOnly = { show: { mode: ['dataExporter'] } };
const workflowCallOnly = { show: { mode: ['workflowCall'] } };

export const eventTriggerProperties: INodeProperties[] = [
	{
		displayName: 'Channel',
		name: 'mode',
		type: 'options',
		noDataExpression: true,
		options: CHOICES.mode,
		default: 'webhook',
	},
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		noDataExpression: true,
		options: CHOICES.authentication,
		default: 'connectorCredential',
	},
	notice(
		'noAuthenticationWarning',
		'Without authentication anyone who learns this URL can start the workflow and feed it any data. Nexthink signs nothing: use a connector credential (Basic or Bearer) whenever you can.',
		{ show: { authentication: ['none'] } },
	),
	{
		displayName: 'Path',
		name: 'path',
		type: 'string',
		default: '',
		placeholder: 'nexthink/alerts',
		description: "The URL path after /webhook/. Empty: the node's ID.",
	},
	notice(
		'setupNotice',
		"Copy the Production URL (not the Test URL: it only answers while the editor listens). In Nexthink, exactly one of the connector credential's URL and the Resource carries the slash between them: https://your-n8n-host/ with Resource webhook/your-path, or https://your-n8n-host with Resource /webhook/your-path. The exact values are listed under Copy Into Nexthink (informational: the value chosen there changes nothing).",
	),
	{
		displayName: 'Copy Into Nexthink Name or ID',
		name: 'setupValues',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'setupValues', loadOptionsDependsOn: ['mode', 'path', 'eventTable'] },
		default: '',
		description: 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	},
	// Webhook: Nexthink's webhooks (Administration > Outbound connectors > Webhooks)
	notice(
		'webhookNotice',
		'Nexthink sends one call per matching event, with the payload template you type in the webhook. Duplicates and delays are normal: turn on Ignore Repeats to drop them.',
		webhookOnly,
	),
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
		displayOptions: webhookOnly,
	},
	...dedupeProperties(webhookOnly, 'Fields of the payload that identify an event (comma-separated, e.g. monitor, context, triggered, status). Empty: the whole payload.'),
	optionsCollection('webhook'),
	// Data Exporter: Nexthink's HTTP API exporter (Administration > Outbound connectors > Data exporter)
	notice(
		'exporterNotice',
		'Each row of a batch becomes one item. Choose the exporter structure "array of objects" or "object with one array": n8n refuses NDJSON sent as application/json unless it comes through this node.',
		exporterOnly,
	),
	...dedupeProperties(exporterOnly, 'Properties of the batch object that identify a batch (comma-separated). Empty: the whole body, byte for byte.'),
	optionsCollection('dataExporter', [
		{
			displayName: 'Records Property',
			name: 'recordsProperty',
			type: 'string',
			default: '',
			placeholder: 'records',
			description:
				'For a batch sent as an object: the property that holds the rows. Empty: the one property that holds an array of objects.',
		},
		{
			displayName: 'Include Request Details',
			name: 'includeRequest',
			type: 'boolean',
			default: false,
			description: 'Whether each row\'s nexthinkBatch also holds the method, headers (secrets redacted) and query of the call',
		},
	]),
	// Workflow Call: the Service/API thinklet of a Nexthink workflow, which waits for the answer
	notice(
		'workflowCallNotice',
		'Nexthink waits 10 seconds for the answer, reads at most 2 MB of it and takes up to 5 outputs with $.field paths: answer with a small, flat JSON object.',
		workflowCallOnly,
	),
	{
		displayName: 'Respond',
		name: 'responseMode',
		type: 'options',
		noDataExpression: true,
		options: CHOICES.responseMode,
		default: 'lastNode',
		displayOptions: workflowCallOnly,
	},
	{
		displayName: 'Response JSON',
		name: 'responseJson',
		type: 'json',
		default: '{\n  "status": "received"\n}',
		description: 'The answer Nexthink reads',
		displayOptions: { show: { mode: ['workflowCall'], responseMode: ['onReceived'] } },
	},
	notice(
		'responseNodeNotice',
		"Use a 'Respond to Webhook' node of version 1 (copy it from the example nexthink-workflow-open-ticket.json): from version 1.1 n8n's node runs only after n8n's own webhook triggers. Place it before any slow step; answer failures from the error output, or n8n answers 500 {\"message\": \"Error in workflow\"}.",
		{ show: { mode: ['workflowCall'], responseMode: ['responseNode'] } },
	),
	optionsCollection('workflowCall'),
];
