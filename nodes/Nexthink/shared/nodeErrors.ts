/**
 * What a thrown error comes to: n8n's error (of the node or an item) and an item's failure. An input
 * error keeps its message and names its field; an API error stays itself; anything else keeps its message.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InputError } from './inputError';

/** An item's failure as its outcome shows it: what went wrong, why (when known), the field it is about. */
export interface ItemFailure {
	message: string;
	description?: string;
	field?: string;
}

/** n8n's error for `error`, on item `itemIndex` when it is about one item. */
export function nodeErrorOf(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	// both constructors hand back an error that already is of their class, untouched
	if (error instanceof NodeApiError) return new NodeApiError(node, error as unknown as JsonObject);
	if (error instanceof InputError) {
		return new NodeOperationError(node, error.message, {
			...(itemIndex !== undefined ? { itemIndex } : {}),
			...(error.field !== undefined ? { description: `Field: ${error.field}` } : {}),
		});
	}
	return new NodeOperationError(node, error as Error, itemIndex !== undefined ? { itemIndex } : {});
}

/** The failure of an item for `error`; `prefix` leads the message (e.g. why the item was not sent). */
export function failureOf(error: unknown, prefix = ''): ItemFailure {
	if (error instanceof InputError) return { message: `${prefix}${error.message}`, ...(error.field !== undefined ? { field: error.field } : {}) };
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		const description = typeof error.description === 'string' && error.description !== '' ? error.description : undefined;
		return { message: `${prefix}${error.message}`, ...(description !== undefined ? { description } : {}) };
	}
	return { message: `${prefix}${error instanceof Error ? error.message : String(error)}` };
}
