/**
 * The panel fields of a stored NQL query, the same in every node that runs one (Export, Trigger):
 * Query ID, its parameters (as pairs or JSON) and the Custom Log Tag option. queryInput.ts reads and
 * checks what they hold.
 */
import type { INodeProperties } from 'n8n-workflow';

export const queryFields: INodeProperties[] = [
	{
		displayName: 'Query ID',
		name: 'queryId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '#all_devices',
		description:
			'ID of a stored NQL API query (Nexthink: Administration > NQL API queries). The leading # may be left out. Lower-case letters, digits and underscores.',
	},
	{
		displayName: 'Specify Query Parameters',
		name: 'parametersInput',
		type: 'options',
		default: 'pairs',
		options: [
			{ name: 'Using Fields Below', value: 'pairs' },
			{ name: 'Using JSON', value: 'json' },
		],
		description: 'How to give the values of the query\'s $parameters',
	},
	{
		displayName: 'Query Parameters',
		name: 'queryParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Parameter',
		description: 'Values for the $parameters of the query. Every value is sent as text; Nexthink infers its type.',
		displayOptions: { show: { parametersInput: ['pairs'] } },
		options: [
			{
				name: 'parameter',
				displayName: 'Parameter',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'os',
						description: 'Parameter name as written in the query, without the $',
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Query Parameters (JSON)',
		name: 'queryParametersJson',
		type: 'json',
		// required: chosen through Parameters Input = JSON, it is then where the parameters come from
		// (n8n's open-ended-node-fields rule warns on optional top-level JSON fields)
		required: true,
		default: '{}',
		description: 'An object of parameter names (without $) to values, e.g. {"os": "Windows 11"}',
		displayOptions: { show: { parametersInput: ['json'] } },
	},
];

/** The Custom Log Tag option, sent with the request (queryInput.ts checks it and makes the header value). */
export const logTagOption: INodeProperties = {
	displayName: 'Custom Log Tag',
	name: 'logTag',
	type: 'string',
	default: '',
	description:
		'Free text (at most 255 characters, no line breaks or tabs, sent as UTF-8) stored with the request in Nexthink\'s platform logs, to find this workflow\'s calls later',
};
