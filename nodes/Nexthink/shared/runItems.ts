/**
 * How every node runs its input items (Export, Enrichment, Actions): every item is read and checked
 * (`prepareItems`) before the first request, then sent per item (`runPerItem`) or in planned requests
 * (`runBatched`), each input item with exactly one outcome, paired with it, on the right output;
 * `runOperation` runs either kind. A batched operation declares its steps (`BatchedOperation`, in the
 * order they run) and `runBatched` owns their order and every rule between them: nothing sent when a
 * step before `send` throws, each request once, the 401/403 rule (`sendAll`), the requests already
 * made (`withRequestsMade`), a tool run's write report. Why, and the one shape of a failed item:
 * docs/decisions.md, "When an item fails" and "One runner for batched operations".
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { failureOf, nodeErrorOf, type ItemFailure } from './nodeErrors';
import { runsAsTool, toolWritesItem, WRITES_OFF_NOTE, type SentRequestReport } from './toolMode';
import { plural } from './wording';
import { cancelSignalOf, throwIfCancelled } from '../transport';

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

/** What a request that failed (or was not sent) came to. */
export type FailedRequest = { ok: false; message: string; description?: string; httpCode?: string };
export type RequestResult<S> = ({ ok: true } & S) | FailedRequest;

/** What the steps after `prepare` see of the run: its settings, each ready item by index, the On Error setting. */
export interface Run<C, T> {
	settings: C;
	items: ReadonlyMap<number, T>;
	continueOnFail: boolean;
}

export interface BatchedOperation<C, T, R extends { itemIndexes: number[] }, S extends object, P extends { requests: R[] }, O extends object> {
	/** The key of each output item's outcome. */
	outcomeKey: string;
	/** What a succeeded item was, in "N items <done>, M items failed". */
	done: string;
	settings?(this: IExecuteFunctions): C;
	/** Reads and checks one item; sends nothing. Whatever it throws is that item's failure. */
	prepare(this: IExecuteFunctions, itemIndex: number, settings: C): T;
	/** Checks across items (they may fail items); under "Stop Workflow" with a bad item it must send nothing. */
	check?(this: IExecuteFunctions, preparations: Array<Preparation<T>>, run: Run<C, T>): void | Promise<void>;
	/** An item checked and reported, never sent. */
	validateOnly?(prepared: T, settings: C): boolean;
	/** The requests of these items (in input order); what it throws stops the node, nothing sent. */
	plan(this: IExecuteFunctions, itemIndexes: readonly number[], run: Run<C, T>): P;
	preview?(this: IExecuteFunctions, plan: P, preparations: ReadonlyArray<Preparation<T>>, run: Run<C, T>): INodeExecutionData[] | undefined;
	send(this: IExecuteFunctions, request: R, run: Run<C, T>): Promise<S>;
	/** The object a 403 refuses (its other requests are not sent); without it a 403 refuses every later request. */
	refusedObject?(request: R): string;
	/** The request IDs a sent request got, for the sentence on the requests already made (else its items are named). */
	requestIds?(request: R, result: S): string[];
	/** Each item's outcome; `results` is undefined for the plan of the items only checked. */
	outcomes(this: IExecuteFunctions, plan: P, results: ReadonlyArray<RequestResult<S>> | undefined, run: Run<C, T>): ReadonlyMap<number, O>;
	afterSending?(this: IExecuteFunctions, outcomes: ReadonlyMap<number, O>, run: Run<C, T>): Promise<ItemFailure | undefined>;
	/** An outcome for the error output (default: status `failed`). */
	fails?(outcome: O): boolean;
	/** An outcome that did what was asked (default: not `fails`); under "Stop Workflow" any other stops the node after sending. */
	succeeded?(outcome: O): boolean;
	/** How a failed item reads in lists and on the error output (default "Item N: message"). */
	failureLine?(itemIndex: number, outcome: O): string;
}

type Failed = Extract<Preparation<unknown>, { ok: false }>;

/** An operation of a node, as its table holds it: item by item or batched. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Operation = ItemOperation<any> | BatchedOperation<any, any, any, any, any, any>;

/** Runs an operation of either kind; its output is the node's one output. */
export async function runOperation(ctx: IExecuteFunctions, operation: Operation, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	return ['run' in operation ? await runPerItem(ctx, operation, continueOnFail) : await runBatched(ctx, operation, continueOnFail)];
}

const failedByDefault = (outcome: object) => (outcome as { status?: unknown }).status === 'failed';
const defaultLine = (itemIndex: number, outcome: object) => `Item ${itemIndex}: ${(outcome as { error: { message: string } }).error.message}`;

export async function runBatched<C, T, R extends { itemIndexes: number[] }, S extends object, P extends { requests: R[] }, O extends object>(
	ctx: IExecuteFunctions,
	operation: BatchedOperation<C, T, R, S, P, O>,
	continueOnFail: boolean,
): Promise<INodeExecutionData[]> {
	if (ctx.getInputData().length === 0) return [];
	const settings = nothingSentIfThrows(ctx, () => operation.settings?.call(ctx) as C);
	const preparations = prepareItems(ctx, (itemIndex) => operation.prepare.call(ctx, itemIndex, settings));
	const lineOf = (itemIndex: number, outcome: object) => (operation.failureLine ?? defaultLine)(itemIndex, outcome as O);
	const items = new Map<number, T>();
	const run: Run<C, T> = { settings, items, continueOnFail };
	const readyItems = () => preparations.forEach((preparation, itemIndex) => (preparation.ok ? items.set(itemIndex, preparation.prepared) : items.delete(itemIndex)));
	readyItems();
	await operation.check?.call(ctx, preparations, run);
	readyItems();
	if (!continueOnFail) {
		const invalid = preparations.flatMap((preparation, itemIndex) => {
			if (preparation.ok) return [];
			const { outcome } = preparation as Failed;
			return [{ itemIndex, message: preparation.message, ...(outcome !== undefined ? { line: lineOf(itemIndex, outcome) } : {}) }];
		});
		stopIfAnyInvalid(ctx, invalid);
	}

	const validateOnly = (itemIndex: number) => operation.validateOnly?.(items.get(itemIndex) as T, settings) === true;
	const toSend = [...items.keys()].filter((itemIndex) => !validateOnly(itemIndex));
	const toCheck = [...items.keys()].filter(validateOnly);
	const plan = nothingSentIfThrows(ctx, () => operation.plan.call(ctx, toSend, run));
	const preview = operation.preview?.call(ctx, plan, preparations, run);
	if (preview !== undefined) return preview;

	const results = await sendAll(ctx, operation, plan.requests, run);
	const outcomes = new Map(operation.outcomes.call(ctx, plan, results, run));
	if (toCheck.length > 0) for (const [itemIndex, outcome] of operation.outcomes.call(ctx, operation.plan.call(ctx, toCheck, run), undefined, run)) outcomes.set(itemIndex, outcome);
	const sent = sentReports(operation, plan.requests, results);
	const fails = operation.fails ?? failedByDefault;
	if (!continueOnFail) failIfAnyFailed(ctx, outcomes, operation.succeeded ?? ((outcome) => !fails(outcome)), operation.done, lineOf, sent);
	const failure = await operation.afterSending?.call(ctx, outcomes, run);
	if (failure !== undefined && !continueOnFail) throw withRequestsMade(new NodeOperationError(ctx.getNode(), failure.message, { description: failure.description }), sent);

	const output = outcomeItems(ctx, operation, preparations, outcomes);
	return runsAsTool(ctx) ? [...output, toolWritesItem(sent, plan.requests[0]?.itemIndexes[0] ?? 0)] : output;
}

/** What each request sent so far came to, as a tool run's write report (toolMode.ts) lists it. */
function sentReports<R extends { itemIndexes: number[] }, S extends object>(
	operation: { refusedObject?(request: R): string; requestIds?(request: R, result: S): string[] },
	requests: readonly R[],
	results: ReadonlyArray<RequestResult<S>>,
): SentRequestReport[] {
	return results.map((result, index) => {
		const target = operation.refusedObject?.(requests[index]);
		return {
			...(target !== undefined ? { target } : {}),
			requestIds: result.ok ? (operation.requestIds?.(requests[index], result) ?? []) : [],
			items: requests[index].itemIndexes,
			ok: result.ok,
			...(result.ok ? {} : { error: result.message }),
		};
	});
}

/**
 * One output item per input item, paired with it: the input's JSON with the item's outcome under
 * `outcomeKey` (a failed check: its own failed outcome, or `{ status: 'failed', error }`; `validated`:
 * with `WRITES_OFF_NOTE`), or under "Continue (using error output)" a failed item there (runItems.ts).
 * `only` keeps the items that pass it (Device → Delete's preview outputs only the refused ones).
 */
export function outcomeItems<O extends object>(
	ctx: IExecuteFunctions,
	operation: Pick<BatchedOperation<never, never, never, never, never, O>, 'outcomeKey' | 'fails' | 'failureLine'>,
	preparations: ReadonlyArray<Preparation<unknown>>,
	outcomes: ReadonlyMap<number, O>,
	only: (itemIndex: number) => boolean = () => true,
): INodeExecutionData[] {
	const fails = operation.fails ?? failedByDefault;
	return ctx.getInputData().flatMap((item, itemIndex) => {
		if (!only(itemIndex)) return [];
		const preparation = preparations[itemIndex];
		const outcome: IDataObject = preparation.ok
			? (outcomes.get(itemIndex) as IDataObject)
			: ((preparation as Failed).outcome as IDataObject | undefined) ?? { status: 'failed', error: failureIn(preparation as Failed) };
		// `validated` is the outcome of a tool run without "Allow Writes When Used as a Tool", and only of it
		if (outcome.status === 'validated') outcome.note = WRITES_OFF_NOTE;
		if (usesErrorOutput(ctx) && (!preparation.ok || fails(outcome as O))) {
			return [errorOutputItem(itemIndex, { message: (operation.failureLine ?? defaultLine)(itemIndex, outcome as O), ...outcome })];
		}
		return [{ json: { ...item.json, [operation.outcomeKey]: outcome }, pairedItem: { item: itemIndex } }];
	});
}

/** A run-wide step that throws stops the node, saying that nothing was sent. */
function nothingSentIfThrows<V>(ctx: IExecuteFunctions, step: () => V): V {
	try {
		return step();
	} catch (error) {
		const nodeError = nodeErrorOf(ctx.getNode(), error);
		if (!`${nodeError.message} ${nodeError.description ?? ''}`.includes('Nothing was sent')) {
			nodeError.description = [nodeError.description, 'Nothing was sent to Nexthink.'].filter((part) => typeof part === 'string' && part !== '').join(' ');
		}
		throw nodeError;
	}
}

/**
 * What leads the failure of an item not sent because an earlier request of the run was refused (a
 * 401, or a 403 for the same object): no later request could succeed.
 */
export const NOT_SENT_AFTER_REFUSAL = 'Not sent: an earlier request of this run was refused. ';

/** Sends the planned requests one after the other, each once, and returns what each came to, in plan order. */
async function sendAll<C, T, R extends { itemIndexes: number[] }, S extends object, P extends { requests: R[] }, O extends object>(
	ctx: IExecuteFunctions,
	operation: BatchedOperation<C, T, R, S, P, O>,
	requests: readonly R[],
	run: Run<C, T>,
): Promise<Array<RequestResult<S>>> {
	const objectOf = operation.refusedObject ?? (() => '');
	const results: Array<RequestResult<S>> = [];
	let unauthorized: NodeApiError | undefined;
	const refused = new Map<string, NodeApiError>();
	for (const request of requests) {
		const earlier = unauthorized ?? refused.get(objectOf(request));
		if (earlier !== undefined) {
			results.push({ ok: false, ...failureOf(earlier, NOT_SENT_AFTER_REFUSAL), httpCode: earlier.httpCode ?? undefined });
			continue;
		}
		try {
			results.push({ ok: true, ...(await operation.send.call(ctx, request, run)) });
		} catch (error) {
			throwIfCancelled(ctx, cancelSignalOf(ctx));
			if (!run.continueOnFail) throw withRequestsMade(nodeErrorOf(ctx.getNode(), error, request.itemIndexes[0]), sentReports(operation, requests, results));
			const httpCode = error instanceof NodeApiError ? (error.httpCode ?? undefined) : undefined;
			if (httpCode === '401') unauthorized = error as NodeApiError;
			if (httpCode === '403') refused.set(objectOf(request), error as NodeApiError);
			results.push({ ok: false, ...failureOf(error), ...(httpCode !== undefined ? { httpCode } : {}) });
		}
	}
	return results;
}

const ON_ERROR_CONTINUE = 'Set "On Error" to continue to get each item\'s outcome.';

/** "N earlier requests of this run did run (their request IDs, or else their items)", or undefined when none did. */
function madeSentence(reports: readonly SentRequestReport[]): string | undefined {
	const made = reports.filter((report) => report.ok);
	if (made.length === 0) return undefined;
	const requestIds = made.flatMap((report) => report.requestIds);
	const [noun, list] = requestIds.length > 0 ? ['request ID', requestIds] : ['for item', made.flatMap((report) => report.items)];
	const named = `${noun}${list.length === 1 ? '' : 's'} ${list.slice(0, 5).join(', ')}${list.length > 5 ? ', …' : ''}`;
	return `${plural(made.length, 'earlier request')} of this run did run (${named}): running all items again repeats ${made.length === 1 ? 'it' : 'them'}.`;
}

/** Under "Stop Workflow": the error, saying which requests of this run already ran (running the items again repeats them). */
export function withRequestsMade<E extends NodeApiError | NodeOperationError>(error: E, made: readonly SentRequestReport[]): E {
	const sentence = madeSentence(made);
	if (sentence === undefined) return error;
	error.description = [error.description, sentence, ON_ERROR_CONTINUE].filter((part) => typeof part === 'string' && part !== '').join(' ');
	return error;
}

/** Under "Stop Workflow": an item that failed although its request went out stops the node, after every request. */
function failIfAnyFailed<O extends object>(
	ctx: IExecuteFunctions,
	outcomes: ReadonlyMap<number, O>,
	succeeded: (outcome: O) => boolean,
	done: string,
	lineOf: (itemIndex: number, outcome: object) => string,
	made: readonly SentRequestReport[],
): void {
	const failed = [...outcomes].filter(([, outcome]) => !succeeded(outcome)).sort(([a], [b]) => a - b);
	if (failed.length === 0) return;
	const [itemIndex, first] = failed[0];
	const counts = `${plural(outcomes.size - failed.length, 'item')} ${done}, ${plural(failed.length, 'item')} failed.`;
	const description = [counts, ...failed.slice(0, 5).map(([index, outcome]) => lineOf(index, outcome)), madeSentence(made), ON_ERROR_CONTINUE];
	throw new NodeOperationError(ctx.getNode(), lineOf(itemIndex, first), { itemIndex, description: description.filter((line) => line !== undefined).join('\n') });
}
