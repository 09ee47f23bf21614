/**
 * What the Actions node's API modules (remoteAction/api.ts, workflow/api.ts, campaign/api.ts) share:
 * the contexts a call runs in, its options, and the error for a 2xx answer whose body lacks what the
 * call returns.
 */
import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { unexpectedAnswer, type NexthinkResponse } from '../../transport';

/** A node's execution, or the editor's lists and searches (load options). */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions;

/** Request Timeout, and the item a failure belongs to (absent in the editor). */
export interface ApiCallOptions {
	timeoutMs: number;
	itemIndex?: number;
}

export function asExecute(ctx: ApiContext): IExecuteFunctions {
	// The transport uses only what both contexts offer (credentials, the authenticated request helper, the node).
	return ctx as IExecuteFunctions;
}

/**
 * `<action> failed: <the answer>; <expected> was missing`, explained as a proxy or gateway answering
 * in place of Nexthink; `note` adds what may already have happened (a run that may have started).
 */
export function unexpectedAnswerError(ctx: ApiContext, action: string, response: NexthinkResponse, expected: string, itemIndex?: number, note?: string): NodeApiError {
	return new NodeApiError(
		ctx.getNode(),
		{ message: 'Unexpected answer', httpCode: String(response.statusCode) },
		{
			message: `${action} failed: ${unexpectedAnswer(response)}; ${expected} was missing`,
			description: ['A proxy or gateway may have answered in place of the Nexthink API. Check the API Base URL of the credential.', note].filter(Boolean).join(' '),
			httpCode: String(response.statusCode),
			itemIndex,
		},
	);
}
