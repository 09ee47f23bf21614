/**
 * The input checks every Actions resource shares (no resource imports): how a wrong value is shown
 * in an input error (shared/inputError.ts), and the options of the Get and Get Many operations
 * (Request Timeout, Return All and Limit).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requestTimeoutMs } from '../../shared/requestTimeout';
import { InputError } from '../../shared/inputError';

/** A value in an input error: quoted text (cut at 60 characters), or its kind. */
export function describeValue(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') return `"${value.slice(0, 60)}"`;
	return `${typeof value} ${String(value)}`;
}

/** Request Timeout of a Get or Get Many operation (its options collection `optionsName`), checked before any request. */
export function readReadTimeoutMs(ctx: IExecuteFunctions, itemIndex: number, optionsName: string, defaultSeconds: number): number {
	const options = ctx.getNodeParameter(optionsName, itemIndex, {}) as IDataObject;
	return requestTimeoutMs(options.requestTimeoutSeconds, defaultSeconds);
}

/** How many entries to output: Infinity under Return All, else Limit (a whole number from 1). */
export function readGetManyLimit(ctx: IExecuteFunctions, itemIndex: number): number {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) === true;
	const limit = returnAll ? Infinity : Number(ctx.getNodeParameter('limit', itemIndex, 50));
	if (!returnAll && !(Number.isSafeInteger(limit) && limit >= 1)) {
		throw new InputError(`Limit must be a whole number from 1, got ${String(limit)}`, 'Limit');
	}
	return limit;
}
