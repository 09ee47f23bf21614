/**
 * Wait for Results: polls the user's status query (nql/executeApi.ts, read-only) per request ID still
 * waiting, on the Export wait's schedule (nql/waitSchedule.ts); the run request is never part of it.
 * Why: docs/decisions.md, "Actions node: Wait for Results and script-input checks".
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_EXECUTE_SETTINGS, executeStoredQuery } from '../../nql/executeApi';
import { MIN_POLL_GAP_MS, nextWaitMs } from '../../nql/waitSchedule';
import { cancelSignalOf, isNoAnswerError, sleepUnlessCancelled } from '../../transport';
import { readBoolean } from '../../shared/parameterValues';
import { type AllowListKind, checkToolAllowList, toolWritesOff } from '../../shared/toolMode';
import { failureOf, type ItemFailure } from '../../shared/nodeErrors';
import type { Preparation } from '../../shared/runItems';
import { itemResults, pendingRequestIds, rowsByTarget, targetKey, targetResult, type ResultKind, type StatusRow, type TargetResult, type TargetRow, type WaitEnd, type WaitTarget } from './resultStatus';
import { readTimeoutMs } from './panelFields';
import { checkResultsWait, differentWait, type ResultsWaitSettings } from './waitSettings';

/** An item of Run Remote Action, Run Workflow or Trigger Campaign, checked (`validateOnly`: as a tool without writes allowed). */
export interface PreparedRunItem<R> {
	run: R;
	timeoutMs: number;
	validateOnly: boolean;
	wait?: ResultsWaitSettings;
}

/**
 * `run` with the item's Request Timeout, tool mode and Wait for Results (waitSettings.ts), after
 * its object `id` is checked against the tool's allow-list of `kind`; a bad value throws `InputError`.
 */
export function preparedRunItem<R>(ctx: IExecuteFunctions, itemIndex: number, run: R, id: string, kind: AllowListKind): PreparedRunItem<R> {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	checkToolAllowList(ctx, options, id, kind);
	const timeoutMs = readTimeoutMs(options);
	const waits = readBoolean(ctx.getNodeParameter('waitForResults', itemIndex, false), 'Wait for Results', false);
	const wait = waits ? checkResultsWait(ctx.getNodeParameter('statusQueryId', itemIndex, ''), options) : undefined;
	return { run, timeoutMs, validateOnly: toolWritesOff(ctx, options), ...(wait !== undefined ? { wait } : {}) };
}

/** Every waiting item waits the same way (one wait covers the run); an item that differs fails its check. */
export function checkSameWait<T extends { wait?: ResultsWaitSettings }>(preparations: Array<Preparation<T>>): void {
	let first: { itemIndex: number; settings: ResultsWaitSettings } | undefined;
	preparations.forEach((preparation, itemIndex) => {
		if (!preparation.ok || preparation.prepared.wait === undefined) return;
		if (first === undefined) {
			first = { itemIndex, settings: preparation.prepared.wait };
			return;
		}
		const problem = differentWait(first, preparation.prepared.wait);
		if (problem !== undefined) preparations[itemIndex] = { ok: false, message: problem, field: 'Wait for Results' };
	});
}

/** What an item reached: targets followed by ID and request ID, and those sent but not followable. */
interface ReachedTargets {
	followed: ReadonlyArray<{ id: string; requestId: string }>;
	unfollowed?: number;
}

/**
 * The batched runner's `afterSending`: waits for the targets the waiting items reached, then sets each
 * one's `results` (`annotate` may add). Returns a failed status query (it stops the node under "Stop Workflow").
 */
export async function waitForItems(
	ctx: IExecuteFunctions,
	kind: ResultKind,
	items: ReadonlyMap<number, { wait?: ResultsWaitSettings; validateOnly: boolean; timeoutMs: number }>,
	outcomes: ReadonlyMap<number, object>,
	targetField: string,
	reached: (itemIndex: number) => ReachedTargets,
	annotate: (results: Record<string, unknown>, reached: ReachedTargets, queryId: string) => Record<string, unknown> = (results) => results,
): Promise<ItemFailure | undefined> {
	const waiting = [...items].filter(([, prepared]) => prepared.wait !== undefined && !prepared.validateOnly);
	const settings = waiting[0]?.[1].wait;
	if (settings === undefined) return undefined;
	const targets = new Map<string, WaitTarget>();
	for (const [itemIndex] of waiting) {
		for (const { id, requestId } of reached(itemIndex).followed) targets.set(targetKey({ requestId, target: id }), { requestId, target: id });
	}
	// nothing reached (every request failed, or no target could be followed): nothing is polled
	const wait = await waitForResults(ctx, kind, [...targets.values()], settings, { timeoutMs: waiting[0][1].timeoutMs });
	for (const [itemIndex] of waiting) {
		const itemReached = reached(itemIndex);
		if (itemReached.followed.length === 0 && (itemReached.unfollowed ?? 0) === 0) continue;
		const results = itemResults(targetField, itemReached.followed, wait.resultOf, { ...wait, queryId: settings.queryId, maxWaitMs: settings.maxWaitMs });
		(outcomes.get(itemIndex) as { results?: unknown }).results = annotate(results, itemReached, settings.queryId);
	}
	return wait.error;
}

/** How the wait ended (`error`: the status query failed), and what each target came to. */
type ResultsWaitOutcome = Omit<WaitEnd, 'queryId' | 'maxWaitMs'> & { resultOf(target: WaitTarget): TargetResult };

/** Polls until every target is final, Maximum Wait runs out, or the status query fails; throws only when cancelled. */
export async function waitForResults(
	ctx: IExecuteFunctions,
	kind: ResultKind,
	targets: readonly WaitTarget[],
	settings: ResultsWaitSettings,
	options: { timeoutMs: number },
): Promise<ResultsWaitOutcome> {
	const signal = cancelSignalOf(ctx);
	const startedAt = Date.now();
	const deadline = startedAt + settings.maxWaitMs;
	const rowsByRequest = new Map<string, Map<string, TargetRow>>();
	const end = (polls: number, timedOut: boolean, error?: ResultsWaitOutcome['error']): ResultsWaitOutcome => ({
		timedOut,
		polls,
		waitedMs: Date.now() - startedAt,
		...(error !== undefined ? { error } : {}),
		resultOf: (target) => targetResult(target, rowsByRequest.get(target.requestId)),
	});
	let pending = pendingRequestIds(targets, rowsByRequest);
	if (pending.length === 0) return end(0, false);
	for (let poll = 0; ; poll++) {
		const waitMs = nextWaitMs(poll, Date.now(), deadline, settings);
		if (waitMs === undefined) return end(poll, true);
		await sleepUnlessCancelled(ctx, waitMs, signal);
		for (const requestId of pending) {
			try {
				const rows = await runStatusQuery(ctx, settings, requestId, { deadline, timeoutMs: options.timeoutMs });
				rowsByRequest.set(requestId, rowsByTarget(kind, settings.queryId, requestId, rows));
			} catch (error) {
				if (signal?.aborted === true) throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled');
				// a call that got no answer as Maximum Wait ran out: the wait timed out, like any other
				if (isNoAnswerError(error) && deadline - Date.now() < MIN_POLL_GAP_MS) return end(poll + 1, true);
				return end(poll + 1, false, statusQueryFailure(error));
			}
		}
		pending = pendingRequestIds(targets, rowsByRequest);
		if (pending.length === 0) return end(poll + 1, false);
	}
}

const STATUS_QUERY_HINTS = {
	400: 'Nexthink refused to run the status query. Check that it takes the request ID as the parameter named in "Request ID Parameter" (default $request_id).',
	403: 'Running the status query needs the "NQL API" permission on the Nexthink API credential (Administration > API credentials), besides the permission that triggered the run.',
	404: 'No NQL API query has this ID. Create it under Administration > NQL API queries with the NQL the README gives (section "Wait for Results"), or correct the Status Query ID.',
};

/** One status call: the rows of one request ID (POST /api/v2/nql/execute, as Execute Query reads it). */
async function runStatusQuery(ctx: IExecuteFunctions, settings: ResultsWaitSettings, requestId: string, options: { deadline: number; timeoutMs: number }): Promise<StatusRow[]> {
	const { result } = await executeStoredQuery(
		ctx,
		{ queryId: settings.queryId, parameters: { [settings.requestIdParameter]: requestId } },
		{ ...DEFAULT_EXECUTE_SETTINGS, apiVersion: 'v2', utcTimestamps: false, timeoutMs: options.timeoutMs },
		undefined,
		{ action: `Reading the results of request ${requestId} with ${settings.queryId}`, hints: STATUS_QUERY_HINTS, deadline: options.deadline },
	);
	return result.rows;
}

/** A failed status query, in words that say the run itself went out and is not sent again. */
function statusQueryFailure(error: unknown): { message: string; description?: string; httpCode?: string } {
	const described = failureOf(error);
	const httpCode = typeof (error as { httpCode?: unknown }).httpCode === 'string' ? (error as { httpCode: string }).httpCode : undefined;
	const sent = 'The run itself was sent and is not sent again: its request ID is in the output. Fix the status query, then read the results with Execute Query (Nexthink Export node) and the request ID.';
	return {
		message: `Waiting for results stopped: ${described.message}`,
		description: [described.description, sent].filter((part) => part !== undefined && part !== '').join(' '),
		...(httpCode !== undefined ? { httpCode } : {}),
	};
}
