/**
 * What the Actions node's batched operations (Run Remote Action, Trigger Campaign, Run Workflow) share: the
 * check of every item before the first request (and what an item's failed checks come to), sending the planned requests, the words of a
 * failed request, and the output items.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { WRITES_OFF_NOTE } from '../../shared/toolMode';
import { cancelSignalOf } from '../../transport';
import { RunInputError } from './inputChecks';

/** One item after its checks: ready to send, or its error (with the field it names, if any). */
export type ItemPreparation<T> = { ok: true; prepared: T } | { ok: false; message: string; field?: string; description?: string };

/** Under "Stop Workflow", one bad item means nothing is sent: the user fixes the input first. */
export function throwIfAnyInvalid<T>(ctx: IExecuteFunctions, preparations: ReadonlyArray<ItemPreparation<T>>): void {
	const invalid = preparations.flatMap((preparation, itemIndex) => (preparation.ok ? [] : [{ itemIndex, message: preparation.message }]));
	if (invalid.length === 0) return;
	const [first] = invalid;
	throw new NodeOperationError(
		ctx.getNode(),
		invalid.length === 1
			? `Item ${first.itemIndex} cannot be sent: ${first.message}`
			: `${invalid.length} items cannot be sent; the first is item ${first.itemIndex}: ${first.message}`,
		{
			itemIndex: first.itemIndex,
			description: [
				'Nothing was sent to Nexthink: every item is checked before the first request. Fix these items, or set the node\'s "On Error" setting to continue so that valid items are sent and bad ones are reported.',
				...invalid.slice(0, 5).map(({ itemIndex, message }) => `Item ${itemIndex}: ${message}`),
			].join('\n'),
		},
	);
}

/**
 * An item whose checks threw: a `RunInputError` is that item's own error, naming its field; anything
 * else (an expression that fails) stops the run unless the user chose to continue.
 */
export function preparationFailure(ctx: IExecuteFunctions, error: unknown, itemIndex: number, continueOnFail: boolean): ItemPreparation<never> {
	if (error instanceof RunInputError) return { ok: false, message: error.message, field: error.field };
	if (!continueOnFail) throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	return { ok: false, message: error instanceof Error ? error.message : String(error) };
}

/**
 * One output item per input item, paired with it: the input's JSON with the item's outcome under
 * `outcomeKey` (an item whose checks failed: `{ status: 'failed', error }`; a `validated` one gets
 * the note that nothing was sent, `WRITES_OFF_NOTE`), and the item's Wait for
 * Results under `results` when it waited. Under "Continue (using error output)" a failed item is
 * `{ error }` alone: n8n sends an item whose only key is `error` to the error output (n8n-core
 * `handleNodeErrorOutput`, 1.x and 2.x) and adds the paired input item's JSON to it. `isFailure`
 * says which outcomes go there (default: status `failed`).
 */
export function outcomeItems<T>(
	ctx: IExecuteFunctions,
	preparations: ReadonlyArray<ItemPreparation<T>>,
	outcomes: ReadonlyMap<number, object>,
	outcomeKey: string,
	waited?: ReadonlyMap<number, IDataObject>,
	isFailure: (outcome: IDataObject) => boolean = (outcome) => outcome.status === 'failed',
): INodeExecutionData[] {
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	return ctx.getInputData().map((item, itemIndex) => {
		const preparation = preparations[itemIndex];
		const outcome: IDataObject = preparation.ok
			? (outcomes.get(itemIndex) as IDataObject)
			: { status: 'failed', error: { message: preparation.message, field: preparation.field, ...(preparation.description !== undefined ? { description: preparation.description } : {}) } };
		// `validated` is the outcome of a tool run without "Allow Writes When Used as a Tool", and only of it
		if (outcome.status === 'validated') outcome.note = WRITES_OFF_NOTE;
		const itemWait = waited?.get(itemIndex);
		if (itemWait !== undefined) outcome.results = itemWait;
		if (toErrorOutput && (!preparation.ok || isFailure(outcome))) {
			const message = (outcome.error as { message: string }).message;
			return { json: { error: { message: `Item ${itemIndex}: ${message}`, ...outcome } }, pairedItem: { item: itemIndex } };
		}
		return { json: { ...item.json, [outcomeKey]: outcome }, pairedItem: { item: itemIndex } };
	});
}

/** What a request that failed (or was not sent) came to; the pure run plans (remoteAction/runBatching.ts, workflow/runBatching.ts) use this type too. */
export type FailedRequest = { ok: false; message: string; description?: string; httpCode?: string };

/**
 * Sends the planned requests one after the other (`send` makes one) and returns what each came to,
 * in plan order. A 401 means no later request can succeed: the rest are not sent. A 403 refuses that
 * object (missing permission or its API checkbox): its other requests are not sent, other objects'
 * are. Under "Stop Workflow" (`continueOnFail` false) the first failure is thrown, saying which
 * requests already ran (`requestIdsOf`); a cancelled execution says so.
 */
export async function sendPlannedRequests<R extends { itemIndexes: number[] }, S extends object>(
	ctx: IExecuteFunctions,
	requests: readonly R[],
	options: {
		continueOnFail: boolean;
		send: (request: R) => Promise<S>;
		requestIdsOf: (results: ReadonlyArray<({ ok: true } & S) | FailedRequest>) => string[];
		/** The object a request acts on, for the 403 rule; default `body.remoteActionId` (remote action or campaign). */
		objectOf?: (request: R) => string;
	},
): Promise<Array<({ ok: true } & S) | FailedRequest>> {
	const objectOf = options.objectOf ?? ((request: R) => (request as unknown as { body: { remoteActionId: string } }).body.remoteActionId);
	const results: Array<({ ok: true } & S) | FailedRequest> = [];
	let unauthorized: NodeApiError | undefined;
	const refused = new Map<string, NodeApiError>();
	for (const request of requests) {
		const earlier = unauthorized ?? refused.get(objectOf(request));
		if (earlier !== undefined) {
			results.push({ ok: false, ...describeError(earlier, 'Not sent: an earlier request of this run was refused. '), httpCode: earlier.httpCode ?? undefined });
			continue;
		}
		try {
			results.push({ ok: true, ...(await options.send(request)) });
		} catch (error) {
			if (cancelSignalOf(ctx)?.aborted === true) throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled');
			if (!options.continueOnFail) throw withRequestsMade(error, options.requestIdsOf(results));
			if (error instanceof NodeApiError && error.httpCode === '401') unauthorized = error;
			if (error instanceof NodeApiError && error.httpCode === '403') refused.set(objectOf(request), error);
			results.push({ ok: false, ...describeError(error), httpCode: error instanceof NodeApiError ? (error.httpCode ?? undefined) : undefined });
		}
	}
	return results;
}

/** Under "Stop Workflow": the request's error, saying which requests of this run already went out. */
export function withRequestsMade(error: unknown, made: readonly string[]): unknown {
	if (made.length === 0 || !(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	const sentence = `${made.length} earlier request${made.length === 1 ? '' : 's'} of this run did run (request ID${made.length === 1 ? '' : 's'} ${made.slice(0, 5).join(', ')}${made.length > 5 ? ', …' : ''}): running all items again repeats ${made.length === 1 ? 'it' : 'them'}. Set "On Error" to continue to get each item's outcome.`;
	error.description = [error.description, sentence].filter((part) => typeof part === 'string' && part !== '').join(' ');
	return error;
}

export function describeError(error: unknown, prefix = ''): { message: string; description?: string } {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		const description = typeof error.description === 'string' && error.description !== '' ? error.description : undefined;
		return { message: `${prefix}${error.message}`, ...(description !== undefined ? { description } : {}) };
	}
	return { message: `${prefix}${error instanceof Error ? error.message : String(error)}` };
}
