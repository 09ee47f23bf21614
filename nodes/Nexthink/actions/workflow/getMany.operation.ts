/** Get Many Workflows: one list call per chosen trigger method and dependency (the API needs both), merged. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { collectionOf } from '../../shared/optionFields';
import { readBoolean } from '../../shared/parameterValues';
import { getMany, readOptionsCollection, returnAllAndLimit } from '../shared/readFields';
import { DEPENDENCIES, listWorkflowsMerged, TRIGGER_METHODS } from './api';
import { show } from './description';

/** The list's two filters, by parameter name: the values the API takes (`options`: value → label, sorted by label). */
const LIST_FILTERS = {
	dependencies: {
		displayName: 'Dependencies',
		allowed: DEPENDENCIES,
		options: { DEVICE: 'Device', NONE: 'None', USER: 'User', USER_AND_DEVICE: 'User and Device' },
		fallback: DEPENDENCIES,
		description: 'Workflows whose targets are of any of these kinds (all four when not added). The API takes one trigger method and one dependency per call, so the node makes one call per pair and merges the answers.',
	},
	triggerMethods: {
		displayName: 'Trigger Methods',
		allowed: TRIGGER_METHODS,
		options: { API: 'API', MANUAL: 'Manual', MANUAL_MULTIPLE: 'Manual (Multiple)', SCHEDULER: 'Scheduler' },
		fallback: ['API'] as const,
		description: 'Workflows with any of these trigger methods (API when not added): API gives the ones this node can run',
	},
};

export const description: INodeProperties[] = [
	...returnAllAndLimit('workflow'),
	collectionOf('filters', show(['getMany']), [
		{
			displayName: 'Active Only',
			name: 'activeOnly',
			type: 'boolean',
			default: false,
			description: 'Whether to leave out inactive workflows',
		},
		...Object.entries(LIST_FILTERS).map(([name, filter]): INodeProperties => ({
			displayName: filter.displayName,
			name,
			type: 'multiOptions',
			options: Object.entries(filter.options).map(([value, label]) => ({ name: label, value })),
			default: [...filter.fallback],
			description: filter.description,
		})),
	]),
	readOptionsCollection('workflow', 'getMany'),
];

function chosen<K extends keyof typeof LIST_FILTERS>(ctx: IExecuteFunctions, itemIndex: number, name: K): Array<(typeof LIST_FILTERS)[K]['allowed'][number]> {
	const { displayName: label, allowed, fallback } = LIST_FILTERS[name];
	const raw = ctx.getNodeParameter(`filters.${name}`, itemIndex, fallback) as unknown;
	const values = Array.isArray(raw) ? raw : [raw];
	if (values.length === 0) throw new NodeOperationError(ctx.getNode(), `${label} is empty: choose at least one of ${allowed.join(', ')}`, { itemIndex });
	for (const value of values) {
		if (!(allowed as readonly unknown[]).includes(value)) throw new NodeOperationError(ctx.getNode(), `${label} must be among ${allowed.join(', ')}, got ${JSON.stringify(value)}`, { itemIndex });
	}
	return [...new Set(values)];
}

export const getManyWorkflowsOperation = getMany(
	(ctx, itemIndex) => ({
		triggerMethods: chosen(ctx, itemIndex, 'triggerMethods'),
		dependencies: chosen(ctx, itemIndex, 'dependencies'),
		activeOnly: readBoolean(ctx.getNodeParameter('filters.activeOnly', itemIndex, false), 'Active Only', false),
	}),
	listWorkflowsMerged,
);
