/** What the Get and Get Many operations of Remote Action and Workflow share: their fields, their reading, and Get. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readBoolean, readWholeNumber } from '../../shared/parameterValues';
import { collectionOf, requestTimeoutOption } from '../../shared/optionFields';
import type { ItemOperation } from '../../shared/runItems';
import type { ApiCallOptions } from './apiCalls';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, readTimeoutMs } from './panelFields';

export function returnAllAndLimit(resource: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			displayOptions: { show: { resource: [resource], operation: ['getMany'] } },
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			displayOptions: { show: { resource: [resource], operation: ['getMany'], returnAll: [false] } },
			description: 'Max number of results to return',
		},
	];
}

export function readOptionsCollection(resource: string, operation: 'get' | 'getMany'): INodeProperties {
	return collectionOf('options', { show: { resource: [resource], operation: [operation] } }, [requestTimeoutOption(DEFAULT_REQUEST_TIMEOUT_SECONDS, 'Longest time one request may take before it is cut off and retried')]);
}

/**
 * Get Many: the item's filters (`filters`), then one `list` per item, its first Limit entries (all
 * under Return All, else a whole number from 1).
 */
export function getMany<F>(
	filters: (ctx: IExecuteFunctions, itemIndex: number) => F,
	list: (ctx: IExecuteFunctions, filters: F, options: ApiCallOptions) => Promise<object[]>,
): ItemOperation<{ filters: F; limit: number; timeoutMs: number }> {
	return {
		prepare(itemIndex) {
			const returnAll = readBoolean(this.getNodeParameter('returnAll', itemIndex, false), 'Return All', false);
			const limit = returnAll ? Infinity : readWholeNumber(this.getNodeParameter('limit', itemIndex, 50), 'Limit', 50, 1, Number.MAX_SAFE_INTEGER);
			return { filters: filters(this, itemIndex), limit, timeoutMs: readTimeoutMs(this.getNodeParameter('options', itemIndex, {}) as IDataObject) };
		},
		async run(itemIndex, { filters: chosen, limit, timeoutMs }) {
			const entries = await list(this, chosen, { timeoutMs, itemIndex });
			return entries.slice(0, limit).map((entry) => ({ json: entry as IDataObject, pairedItem: { item: itemIndex } }));
		},
	};
}

/** Get: one details call (`get`) per item for the object its resource locator (`locator`) names by NQL ID. */
export function getByNqlId(
	locator: string,
	normalise: (raw: unknown) => string,
	get: (ctx: IExecuteFunctions, nqlId: string, options: ApiCallOptions) => Promise<object>,
): ItemOperation<{ nqlId: string; timeoutMs: number }> {
	return {
		prepare(itemIndex) {
			const nqlId = normalise(this.getNodeParameter(locator, itemIndex, '', { extractValue: true }));
			return { nqlId, timeoutMs: readTimeoutMs(this.getNodeParameter('options', itemIndex, {}) as IDataObject) };
		},
		async run(itemIndex, { nqlId, timeoutMs }) {
			return [{ json: (await get(this, nqlId, { timeoutMs, itemIndex })) as IDataObject, pairedItem: { item: itemIndex } }];
		},
	};
}
