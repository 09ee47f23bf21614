/**
 * How every node runs its input items (Export, Enrichment, Actions): every item is read and checked
 * (`prepareItems`) before the first request, then sent per item (`runPerItem`) or in planned requests
 * (runBatched.ts), each input item with exactly one outcome, paired with it, on the right output. Why,
 * and the one shape of a failed item: docs/decisions.md, "When an item fails".
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { failureOf, nodeErrorOf, type ItemFailure } from './nodeErrors';

/** One item after its checks: ready to send, or its failure (with the operation's own failed outcome, when it has one). */
export type Preparation<T> = { ok: true; prepared: T } | ({ ok: false; outcome?: object } & ItemFailure);

/** The failure of an item whose checks failed, without the `ok` flag. */
export function failureIn(preparation: { ok: false } & ItemFailure): ItemFailure {
	const failure: ItemFailure = { message: preparation.message };
	if (preparation.description !== undefined) failure.description = preparation.description;
	if (preparation.field !== undefined) failure.field = preparation.field;
	return failure;
}

/** Checks every input item (`prepare` sends nothing); whatever it throws is that item's failure. */
export function prepareItems<T>(ctx: IExecuteFunctions, prepare: (itemIndex: number) => T): Array<Preparation<T>> {
	return ctx.getInputData().map((_item, itemIndex) => {
		try {
			return { ok: true, prepared: prepare(itemIndex) };
		} catch (error) {
			return { ok: false, ...failureOf(error) };
		}
	});
}

/**
 * Under "Stop Workflow", one bad item means nothing is sent: the user fixes the input first. An
 * item's `line` describes it in the error's list (default "Item N: message").
 */
export function stopIfAnyInvalid(ctx: IExecuteFunctions, invalid: ReadonlyArray<{ itemIndex: number; message: string; line?: string }>): void {
	if (invalid.length === 0) return;
	const [first] = invalid;
	throw new NodeOperationError(
		ctx.getNode(),
		invalid.length === 1
			? `Item ${first.itemIndex} cannot be sent: ${first.message}`
			: `${invalid.length.toLocaleString('en-US')} items cannot be sent; the first is item ${first.itemIndex}: ${first.message}`,
		{
			itemIndex: first.itemIndex,
			description: [
				'Nothing was sent to Nexthink: every item is checked before the first request. Fix these items, or set the node\'s "On Error" setting to continue so that valid items are sent and bad ones are reported.',
				...invalid.slice(0, 5).map(({ itemIndex, message, line }) => line ?? `Item ${itemIndex}: ${message}`),
			].join('\n'),
		},
	);
}

/** Whether failed items go to the error output ("Continue (using error output)"). */
export function usesErrorOutput(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().onError === 'continueErrorOutput';
}

/**
 * A failed item on the error output: `error` is its only key, so n8n routes it there and adds the
 * paired input item's JSON. `message` says which item ("Item N…").
 */
export function errorOutputItem(itemIndex: number, error: { message: string } & object): INodeExecutionData {
	return { json: { error: error as IDataObject }, pairedItem: { item: itemIndex } };
}

/** An operation that sends item by item. */
export interface ItemOperation<T> {
	/** Reads and validates one item's parameters; never sends a request. */
	prepare(this: IExecuteFunctions, itemIndex: number): T;
	run(this: IExecuteFunctions, itemIndex: number, prepared: T): Promise<INodeExecutionData[]>;
}

/** An ItemOperation whose `run` takes what its `prepare` returns, as TypeScript infers it. */
export function itemOperation<T>(operation: ItemOperation<T>): ItemOperation<T> {
	return operation;
}

/**
 * The per-item case: every item is prepared, then the items run one by one. A failure while
 * running stops the node under "Stop Workflow"; under Continue the item gets its failure and the
 * others run.
 */
export async function runPerItem<T>(ctx: IExecuteFunctions, operation: ItemOperation<T>, continueOnFail: boolean): Promise<INodeExecutionData[]> {
	const preparations = prepareItems(ctx, (itemIndex) => operation.prepare.call(ctx, itemIndex));
	if (!continueOnFail) stopIfAnyInvalid(ctx, preparations.flatMap((preparation, itemIndex) => (preparation.ok ? [] : [{ itemIndex, message: preparation.message }])));
	const output: INodeExecutionData[] = [];
	for (const [itemIndex, preparation] of preparations.entries()) {
		if (!preparation.ok) {
			output.push(failedItem(ctx, itemIndex, failureIn(preparation)));
			continue;
		}
		try {
			// one push per item: an export can give hundreds of thousands, too many for push(...items)
			for (const item of await operation.run.call(ctx, itemIndex, preparation.prepared)) output.push(item);
		} catch (error) {
			if (!continueOnFail) throw nodeErrorOf(ctx.getNode(), error, itemIndex);
			output.push(failedItem(ctx, itemIndex, failureOf(error)));
		}
	}
	return output;
}

/** A failed item of an operation that outputs what it read: `{ error, description, field? }`, or on the error output. */
function failedItem(ctx: IExecuteFunctions, itemIndex: number, failure: ItemFailure): INodeExecutionData {
	if (usesErrorOutput(ctx)) return errorOutputItem(itemIndex, { ...failure, message: `Item ${itemIndex}: ${failure.message}` });
	const json: IDataObject = { error: failure.message, description: failure.description ?? null };
	if (failure.field !== undefined) json.field = failure.field;
	return { json, pairedItem: { item: itemIndex } };
}
