/**
 * The panel fields of the NQL layer, the same in every node that shows them: a stored query's Query ID,
 * its parameters (as pairs or JSON) and Custom Log Tag (read and checked by queryInput.ts); the wait
 * settings (checked by waitSchedule.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

export const QUERY_ID_DESCRIPTION =
	'ID of a stored NQL API query (Nexthink: Administration > NQL API queries). The leading # may be left out. Lower-case letters, digits and underscores.';

/**
 * Query ID as free text (the Nexthink Trigger's). The Export node shows it as a resource locator
 * with its Query Catalogue as the list (export/description.ts); both are read the same way.
 */
export const queryIdField: INodeProperties = {
	displayName: 'Query ID',
	name: 'queryId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '#all_devices',
	description: QUERY_ID_DESCRIPTION,
};

/** The query's parameters, as pairs or JSON, shown after Query ID. */
export const queryParameterFields: INodeProperties[] = [
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

/** Query ID as free text and the query's parameters. */
export const queryFields: INodeProperties[] = [queryIdField, ...queryParameterFields];

/** The Custom Log Tag option, sent with the request (queryInput.ts checks it and makes the header value). */
export const logTagOption: INodeProperties = {
	displayName: 'Custom Log Tag',
	name: 'logTag',
	type: 'string',
	default: '',
	description:
		'Free text (at most 255 characters, no line breaks or tabs, sent as UTF-8) stored with the request in Nexthink\'s platform logs, to find this workflow\'s calls later',
};

/** The wait settings: label, bounds and default (DEFAULT_WAIT_SETTINGS, as literals for n8n's lint). */
const WAIT_FIELDS = {
	firstPollSeconds: ['First Poll After (Seconds)', { minValue: 0 }, 2],
	maxPollIntervalSeconds: ['Longest Poll Interval (Seconds)', { minValue: 1 }, 30],
	maxWaitSeconds: ['Maximum Wait (Seconds)', { minValue: 0 }, 1800],
	pollGrowthFactor: ['Poll Interval Growth', { minValue: 1, numberPrecision: 2 }, 2],
} as const;

/** One wait setting's field (Export, Wait for Results), with what it means for the caller. */
export function waitField(name: keyof typeof WAIT_FIELDS, description: string): INodeProperties {
	const [displayName, typeOptions, defaultValue] = WAIT_FIELDS[name];
	return { displayName, name, type: 'number', typeOptions: { ...typeOptions }, default: defaultValue, description };
}
