/**
 * Get Many Workflows: the list endpoint needs a `dependency` and a `triggerMethod` on every call, so
 * the node makes one call per chosen pair (by default the four dependencies with trigger method API:
 * every workflow that can be run from n8n) and merges the answers, each workflow once (by `uuid`).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readBoolean } from '../../shared/booleanParameter';
import type { ItemOperation } from '../../shared/runItems';
import { readGetManyLimit, readReadTimeoutMs } from '../shared/readFields';
import { DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS, DEPENDENCIES, listWorkflowsMerged, TRIGGER_METHODS, type Dependency, type TriggerMethod } from './api';

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
		triggerMethods: chosen<TriggerMethod>(this, itemIndex, 'workflowTriggerMethods', 'Trigger Methods', TRIGGER_METHODS, ['API']),
		dependencies: chosen<Dependency>(this, itemIndex, 'workflowDependencies', 'Dependencies', DEPENDENCIES, DEPENDENCIES),
		activeOnly: readBoolean(this.getNodeParameter('workflowActiveOnly', itemIndex, false), 'Active Only', false),
		limit,
		timeoutMs: readReadTimeoutMs(this, itemIndex, 'workflowReadOptions', DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS),
	};
}

async function runGetMany(this: IExecuteFunctions, itemIndex: number, prepared: ReturnType<typeof prepareGetMany>): Promise<INodeExecutionData[]> {
	const list = await listWorkflowsMerged(this, prepared, { timeoutMs: prepared.timeoutMs, itemIndex });
	return list.slice(0, prepared.limit).map((workflow) => ({ json: workflow as IDataObject, pairedItem: { item: itemIndex } }));
}

export const getManyWorkflowsOperation: ItemOperation<ReturnType<typeof prepareGetMany>> = { prepare: prepareGetMany, run: runGetMany };
