/**
 * What the Actions node's batched operations (Run Remote Action, Trigger Campaign, Run Workflow,
 * Delete) share beyond the item runner (shared/runItems.ts): sending the planned requests, and
 * saying which requests of the run already went out.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { failureOf } from '../../shared/nodeErrors';
import { notSentAfterRefusal } from '../../shared/runItems';
import { cancelSignalOf } from '../../transport';
import type { FailedRequest } from './runPlan';


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
			results.push({ ok: false, ...failureOf(earlier, notSentAfterRefusal()), httpCode: earlier.httpCode ?? undefined });
			continue;
		}
		try {
			results.push({ ok: true, ...(await options.send(request)) });
		} catch (error) {
			if (cancelSignalOf(ctx)?.aborted === true) throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled');
			if (!options.continueOnFail) throw withRequestsMade(error, options.requestIdsOf(results));
			if (error instanceof NodeApiError && error.httpCode === '401') unauthorized = error;
			if (error instanceof NodeApiError && error.httpCode === '403') refused.set(objectOf(request), error);
			results.push({ ok: false, ...failureOf(error), httpCode: error instanceof NodeApiError ? (error.httpCode ?? undefined) : undefined });
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

