/**
 * The fields of the Get and Get Many operations every Actions resource with a list has (Return All,
 * Limit, and an Options collection with Request Timeout), and their reading before any request.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readBoolean } from '../../shared/booleanParameter';
import { InputError } from '../../shared/inputError';
import { requestTimeoutOption, collectionOf } from '../../shared/optionFields';
import { requestTimeoutMs } from '../../shared/requestTimeout';

/** Return All and Limit of a resource's Get Many. */
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

/** The Options of a resource's Get or Get Many. */
export function readOptionsCollection(resource: string, operation: 'get' | 'getMany', defaultTimeoutSeconds: number): INodeProperties {
	return collectionOf('options', { show: { resource: [resource], operation: [operation] } }, [requestTimeoutOption(defaultTimeoutSeconds, 'Longest time one request may take before it is cut off and retried')]);
}

/** Request Timeout of a Get or Get Many operation, checked before any request. */
export function readReadTimeoutMs(ctx: IExecuteFunctions, itemIndex: number, defaultSeconds: number): number {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return requestTimeoutMs(options.requestTimeoutSeconds, defaultSeconds);
}

/** How many entries to output: Infinity under Return All, else Limit (a whole number from 1). */
export function readGetManyLimit(ctx: IExecuteFunctions, itemIndex: number): number {
	const returnAll = readBoolean(ctx.getNodeParameter('returnAll', itemIndex, false), 'Return All', false);
	const limit = returnAll ? Infinity : Number(ctx.getNodeParameter('limit', itemIndex, 50));
	if (!returnAll && !(Number.isSafeInteger(limit) && limit >= 1)) {
		throw new InputError(`Limit must be a whole number from 1, got ${String(limit)}`, 'Limit');
	}
	return limit;
}
