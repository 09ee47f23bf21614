/** Parameters two channels share (Webhook and Data Exporter): the repeat filter and the body size limit. */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

export const maxBodySizeOption: INodeProperties = {
	displayName: 'Maximum Body Size (MB)',
	name: 'maxBodySizeMb',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 3 },
	default: 0,
	description:
		"A larger body is refused with 413 and starts nothing. 0: only n8n's own limit, N8N_PAYLOAD_SIZE_MAX (16 MiB unless raised), which applies in any case.",
};

export function dedupeProperties(displayOptions: IDisplayOptions, fieldsDescription: string): INodeProperties[] {
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
