/** Parameters of the Data Exporter channel: Nexthink's HTTP API exporter (Administration > Outbound connectors > Data exporter). */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { dedupeProperties, optionsCollection } from './shared';

export const channel: INodePropertyOptions = { name: 'Data Exporter', value: 'dataExporter', description: 'A scheduled HTTP API exporter sent a batch of rows' };

const show = { show: { mode: ['dataExporter'] } };

export const description: INodeProperties[] = [
	{
		displayName:
			'Each row of a batch becomes one item. Choose the exporter structure "array of objects" or "object with one array": n8n refuses NDJSON sent as application/json unless it comes through this node.',
		name: 'exporterNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	...dedupeProperties(show, 'Properties of the batch object that identify a batch (comma-separated). Empty: the whole body, byte for byte.'),
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
];
