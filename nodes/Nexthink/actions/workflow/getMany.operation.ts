/** Get Many Workflows: one list call per chosen trigger method and dependency (the API needs both), merged. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { collectionOf } from '../../shared/optionFields';
import { readBoolean } from '../../shared/booleanParameter';
import type { ItemOperation } from '../../shared/runItems';
import { readGetManyLimit, readOptionsCollection, readReadTimeoutMs, returnAllAndLimit } from '../shared/readFields';
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

function prepareGetMany(this: IExecuteFunctions, itemIndex: number) {
	const limit = readGetManyLimit(this, itemIndex);
	return {
		triggerMethods: chosen(this, itemIndex, 'triggerMethods'),
		dependencies: chosen(this, itemIndex, 'dependencies'),
		activeOnly: readBoolean(this.getNodeParameter('filters.activeOnly', itemIndex, false), 'Active Only', false),
		limit,
		timeoutMs: readReadTimeoutMs(this, itemIndex),
	};
}

async function runGetMany(this: IExecuteFunctions, itemIndex: number, prepared: ReturnType<typeof prepareGetMany>): Promise<INodeExecutionData[]> {
	const list = await listWorkflowsMerged(this, prepared, { timeoutMs: prepared.timeoutMs, itemIndex });
	return list.slice(0, prepared.limit).map((workflow) => ({ json: workflow as IDataObject, pairedItem: { item: itemIndex } }));
}

export const getManyWorkflowsOperation: ItemOperation<ReturnType<typeof prepareGetMany>> = { prepare: prepareGetMany, run: runGetMany };
