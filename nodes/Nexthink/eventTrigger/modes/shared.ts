/** Parameters several channels share: the repeat filter, the body size limit and the `options` collection. */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

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
export function optionsCollection(channel: string, options: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: { binaryData: true },
		displayOptions: { show: { '/mode': [channel] } },
		options: [{ displayName: 'Read Body in Node', name: 'binaryData', type: 'hidden', default: true }, ...options, maxBodySizeOption],
	};
}

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
