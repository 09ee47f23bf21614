/** Get Many Workflows: one list call per chosen trigger method and dependency (the API needs both), merged. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { collectionOf } from '../../shared/optionFields';
import { NodeOperationError } from 'n8n-workflow';

import { readBoolean } from '../../shared/booleanParameter';
import type { ItemOperation } from '../../shared/runItems';
import { readGetManyLimit, readOptionsCollection, readReadTimeoutMs, returnAllAndLimit } from '../shared/readFields';
import { DEPENDENCIES, listWorkflowsMerged, TRIGGER_METHODS, type Dependency, type TriggerMethod } from './api';
import { show } from './description';

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
		{
			displayName: 'Dependencies',
			name: 'dependencies',
			type: 'multiOptions',
			options: [
				{ name: 'Device', value: 'DEVICE' },
				{ name: 'None', value: 'NONE' },
				{ name: 'User', value: 'USER' },
				{ name: 'User and Device', value: 'USER_AND_DEVICE' },
			],
			default: ['DEVICE', 'USER', 'USER_AND_DEVICE', 'NONE'],
			description: 'Workflows whose targets are of any of these kinds (all four when not added). The API takes one trigger method and one dependency per call, so the node makes one call per pair and merges the answers.',
		},
		{
			displayName: 'Trigger Methods',
			name: 'triggerMethods',
			type: 'multiOptions',
			options: [
				{ name: 'API', value: 'API' },
				{ name: 'Manual', value: 'MANUAL' },
				{ name: 'Manual (Multiple)', value: 'MANUAL_MULTIPLE' },
				{ name: 'Scheduler', value: 'SCHEDULER' },
			],
			default: ['API'],
			description: 'Workflows with any of these trigger methods (API when not added): API gives the ones this node can run',
		},
	]),
	readOptionsCollection('workflow', 'getMany'),
];

function chosen<T extends string>(ctx: IExecuteFunctions, itemIndex: number, name: string, label: string, allowed: readonly T[], fallback: readonly T[]): T[] {
	const raw = ctx.getNodeParameter(name, itemIndex, fallback) as unknown;
	const values = Array.isArray(raw) ? raw : [raw];
	if (values.length === 0) throw new NodeOperationError(ctx.getNode(), `${label} is empty: choose at least one of ${allowed.join(', ')}`, { itemIndex });
	for (const value of values) {
		if (!allowed.includes(value as T)) throw new NodeOperationError(ctx.getNode(), `${label} must be among ${allowed.join(', ')}, got ${JSON.stringify(value)}`, { itemIndex });
	}
	return [...new Set(values as T[])];
}

function prepareGetMany(this: IExecuteFunctions, itemIndex: number) {
	const limit = readGetManyLimit(this, itemIndex);
	return {
		triggerMethods: chosen<TriggerMethod>(this, itemIndex, 'filters.triggerMethods', 'Trigger Methods', TRIGGER_METHODS, ['API']),
		dependencies: chosen<Dependency>(this, itemIndex, 'filters.dependencies', 'Dependencies', DEPENDENCIES, DEPENDENCIES),
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
