/** What the Actions resources' api.ts share: the one way a read and a request that may act are sent, and their errors. */
import type { IExecuteFunctions, ILoadOptionsFunctions, NodeApiError } from 'n8n-workflow';

import { nexthinkRequest, unprovenAnswerError, unexpectedAnswer, type NexthinkRequest, type NexthinkResponse } from '../../transport';

/** A node's execution, or the editor's lists and searches (load options). */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions;

/** Request Timeout, and the item a failure belongs to (absent in the editor). */
export interface ApiCallOptions {
	timeoutMs: number;
	itemIndex?: number;
}

/** `<action> failed: <the answer>; <expected> was missing`, maybe a proxy's answer; `note`: what may already have happened. */
export function unexpectedAnswerError(ctx: ApiContext, action: string, response: NexthinkResponse, expected: string, itemIndex?: number, note?: string): NodeApiError {
	return unprovenAnswerError(ctx, `${action} failed: ${unexpectedAnswer(response)}; ${expected} was missing`, response, itemIndex, note);
}

/** `answer` as read from the 2xx body, or the `unexpectedAnswerError` when it could not be read (undefined). */
export function expectAnswer<T>(ctx: ApiContext, action: string, response: NexthinkResponse, answer: T | undefined, expected: string, itemIndex?: number, note?: string): T {
	if (answer === undefined) throw unexpectedAnswerError(ctx, action, response, expected, itemIndex, note);
	return answer;
}

/** A read: a GET the transport may retry, its 2xx body read by `read` (undefined: not the answer, `expected` was missing). */
export async function sendReadRequest<T>(
	ctx: ApiContext,
	request: { path: string; qs?: Record<string, string>; action: string; hints: NexthinkRequest['hints'] },
	read: (body: unknown) => T | undefined,
	expected: string,
	options: ApiCallOptions,
): Promise<T> {
	// The transport uses only what both contexts offer (credentials, the authenticated request helper, the node).
	const response = await nexthinkRequest(ctx as IExecuteFunctions, { method: 'GET', ...request, idempotent: true, ...options });
	return expectAnswer(ctx, request.action, response, read(response.body), expected, options.itemIndex);
}

/** What a run request refused with 429 or 503 says first (the README quotes it). Why: docs/decisions.md, row "Run requests refused with 429 or 503". */
export const REFUSED_RUN_REQUEST = 'Nexthink refused the request, so it most likely did not run; the node did not send it again.';

/** `REFUSED_RUN_REQUEST`, then where to check, before running again, that it really did not run. */
export function refusedRunNote(howToCheck: string): string {
	return `${REFUSED_RUN_REQUEST} Before running it again, check that it did not run: ${howToCheck}.`;
}

/**
 * A request that may act on devices or people: a POST sent once (`idempotent: false`), with what may
 * have happened when it may have acted (`mayHaveRun`) or was refused (`refused`). The caller checks the 2xx body.
 */
export async function sendRunRequest(
	ctx: IExecuteFunctions,
	request: { path: string; body: unknown; headers?: Record<string, string>; action: string },
	notes: { mayHaveRun: string; refused: string; hints: NexthinkRequest['hints'] },
	options: ApiCallOptions,
): Promise<NexthinkResponse> {
	return await nexthinkRequest(ctx, {
		method: 'POST',
		...request,
		idempotent: false,
		mayHaveRunNote: notes.mayHaveRun,
		refusedNote: notes.refused,
		hints: notes.hints,
		...options,
	});
}
