/**
 * The input checks every Actions resource shares (no resource imports): the error of one item's
 * input, naming its field; how a wrong value is shown; Request Timeout; and the options of the Get
 * and Get Many operations (Request Timeout, Return All and Limit).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { requestTimeoutMs } from '../../shared/requestTimeout';

/** A problem with one item's input; the message names the field. */
export class RunInputError extends Error {
	constructor(
		message: string,
		readonly field: string,
	) {
		super(message);
		this.name = 'RunInputError';
	}
}

/** A value in an input error: quoted text (cut at 60 characters), or its kind. */
export function describeValue(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') return `"${value.slice(0, 60)}"`;
	return `${typeof value} ${String(value)}`;
}

/** Request Timeout in milliseconds (shared/requestTimeout.ts), its complaint as this item's error. */
export function checkRequestTimeout(raw: unknown, defaultSeconds: number): number {
	let problem: string;
	try {
		return requestTimeoutMs(raw, defaultSeconds);
	} catch (error) {
		problem = (error as Error).message;
	}
	throw new RunInputError(problem, 'Request Timeout (Seconds)');
}

/** Request Timeout of a Get or Get Many operation (its options collection `optionsName`), checked before any request. */
export function readReadTimeoutMs(ctx: IExecuteFunctions, itemIndex: number, optionsName: string, defaultSeconds: number): number {
	const options = ctx.getNodeParameter(optionsName, itemIndex, {}) as IDataObject;
	try {
		return requestTimeoutMs(options.requestTimeoutSeconds, defaultSeconds);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), (error as Error).message, { itemIndex });
	}
}

/** How many entries to output: Infinity under Return All, else Limit (a whole number from 1). */
export function readGetManyLimit(ctx: IExecuteFunctions, itemIndex: number): number {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) === true;
	const limit = returnAll ? Infinity : Number(ctx.getNodeParameter('limit', itemIndex, 50));
	if (!returnAll && !(Number.isSafeInteger(limit) && limit >= 1)) {
		throw new NodeOperationError(ctx.getNode(), `Limit must be a whole number from 1, got ${String(limit)}`, { itemIndex });
	}
	return limit;
}
