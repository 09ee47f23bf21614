/**
 * The per-item loop of n8n's programmatic nodes, in two passes:
 * 1. every item's parameters are read and checked (`prepare`, which sends nothing);
 * 2. the items run one by one (`run`).
 * So a bad item 3 can no longer stop a run after items 0 to 2 already started exports whose rows
 * would be lost. Under "Stop Workflow" the first bad item's error stops the node before any request;
 * with "continue on fail" a bad item becomes its own error item (paired to its input) and the
 * others run. A failure while running follows the same rule per item.
 */
import type { IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export interface ItemOperation<T> {
	/** Reads and validates one item's parameters; never sends a request. */
	prepare(this: IExecuteFunctions, itemIndex: number): T;
	run(this: IExecuteFunctions, itemIndex: number, prepared: T): Promise<INodeExecutionData[]>;
}

const NOTHING_SENT = 'Every input item is checked before the first request, so nothing was sent to Nexthink.';

type Preparation<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** `continueOnFail` is the node's `this.continueOnFail()`, read in its own `execute()`. */
export async function runPerItem<T>(ctx: IExecuteFunctions, operation: ItemOperation<T>, continueOnFail: boolean): Promise<INodeExecutionData[]> {
	const count = ctx.getInputData().length;
	const preparations: Array<Preparation<T>> = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			preparations.push({ ok: true, value: operation.prepare.call(ctx, itemIndex) });
		} catch (error) {
			if (!continueOnFail) throw nothingSentError(ctx, error, itemIndex);
			preparations.push({ ok: false, error });
		}
	}

	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const preparation = preparations[itemIndex];
		try {
			if (!preparation.ok) throw preparation.error;
			const items = await operation.run.call(ctx, itemIndex, preparation.value);
			for (const item of items) output.push(item);
		} catch (error) {
			if (continueOnFail) {
				output.push(errorItem(ctx, asNodeError(ctx, error, itemIndex), itemIndex));
				continue;
			}
			throw asNodeError(ctx, error, itemIndex);
		}
	}
	return output;
}

/**
 * The outcome of a failed item under "Continue": `{ error, description }` on the success output.
 * Under "Continue (using error output)" the item also carries the error itself, which is how n8n
 * (1.x and 2.x alike) recognises an item for the error output; n8n then shows its JSON as
 * `{ error: message }` beside the input item's fields and keeps the whole error (description
 * included) on the item. A JSON with a `description` key alone would stay on the success output.
 */
function errorItem(ctx: IExecuteFunctions, error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const item: INodeExecutionData = {
		json: { error: error.message, description: error.description ?? null },
		pairedItem: { item: itemIndex },
	};
	if (ctx.getNode().onError === 'continueErrorOutput') item.error = error;
	return item;
}

function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	// both constructors hand back an error that already is of their class, untouched
	if (error instanceof NodeApiError) return new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

function nothingSentError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	const nodeError = asNodeError(ctx, error, itemIndex);
	const before = typeof nodeError.description === 'string' && nodeError.description !== '' ? `${nodeError.description} ` : '';
	const which = ctx.getInputData().length > 1 ? `The problem is in item ${itemIndex}. ` : '';
	nodeError.description = `${before}${which}${NOTHING_SENT}`;
	return nodeError;
}
