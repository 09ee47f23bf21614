/**
 * Parameters of the Spark resource: Hand Off Conversation (the Spark Handoff API). One handoff per
 * input item; as an AI agent's tool, the agent fills the UPN and the message through `$fromAI()`.
 */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_HANDOFF_REQUEST_TIMEOUT_SECONDS } from './api';
import { actionWritesDescription, allowWritesOption, requestTimeoutOption } from '../../shared/optionFields';

const show = { show: { resource: ['spark'], operation: ['handOff'] } };

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

export const sparkProperties: INodeProperties[] = [
	{
		displayName:
			'Spark continues the conversation with the user in Microsoft Teams; nothing comes back to n8n. Spark must be set up for the user (Teams app, Entra ID connector, UPN collection).',
		name: 'handOffNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	{
		displayName: 'User Principal Name',
		name: 'userPrincipalName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'jane.doe@contoso.com',
		displayOptions: show,
		description: 'The UPN of the user to hand over (their Microsoft 365 sign-in name)',
	},
	{
		displayName: 'Message',
		name: 'handOffMessage',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		displayOptions: show,
		description: "The user's request for Spark, e.g. their last message or a summary of the conversation so far",
	},
	{
		displayName: 'Files',
		name: 'handOffFiles',
		type: 'string',
		default: '',
		placeholder: 'data, screenshot',
		displayOptions: show,
		description: 'Binary properties of the item to send as files (e.g. a screenshot or a log), separated by commas; each goes with its MIME type',
	},
	{
		displayName: 'Metadata',
		name: 'handOffMetadata',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Metadata',
		displayOptions: show,
		description: 'Key/value pairs Spark passes through with the request, e.g. the ticket number',
		options: [
			{
				displayName: 'Entry',
				name: 'entry',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '', placeholder: 'ticket' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Time Zone',
		name: 'handOffTimeZone',
		type: 'string',
		default: '',
		placeholder: 'Europe/Zurich',
		displayOptions: show,
		description: "The user's time zone as an IANA name (e.g. Europe/Zurich), sent to Spark; empty sends none",
	},
	{
		displayName: 'Options',
		name: 'handOffOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show,
		options: [
			allowWritesOption(actionWritesDescription('hand the conversation off to Spark')),
			requestTimeoutOption(DEFAULT_HANDOFF_REQUEST_TIMEOUT_SECONDS, 'Longest time the request may take. A handoff that times out is not sent again (Spark may have received it).'),
		],
	},
];
