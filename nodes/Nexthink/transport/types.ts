/** What a request to the Nexthink API is and what comes back: the transport's vocabulary. */
import type { FunctionsBase, RequestHelperFunctions } from 'n8n-workflow';

import type { StatusHints } from './apiErrors';
import type { RetryPolicy } from './retryPolicy';

export const NEXTHINK_CREDENTIAL_TYPE = 'nexthinkApi';

/** Every token failure message starts with this: the transport recognises one after n8n 1.x wrapped it. */
export const TOKEN_FAILURE_PREFIX = 'Could not get a Nexthink API token: ';

/** What the transport uses of `IExecuteFunctions` and `IPollFunctions` (a poll has no cancel signal). */
export interface NexthinkContext {
	getNode: FunctionsBase['getNode'];
	getCredentials: FunctionsBase['getCredentials'];
	getExecutionCancelSignal?: () => AbortSignal | undefined;
	helpers: Pick<RequestHelperFunctions, 'httpRequest' | 'httpRequestWithAuthentication'>;
}

export interface NexthinkRequest {
	method: 'GET' | 'POST';
	/** Path below the credential's API base URL, e.g. `/api/v1/nql/export`. */
	path: string;
	qs?: Record<string, string>;
	body?: unknown;
	headers?: Record<string, string>;
	/** Safe to send again (GET, execute, enrichment). The export start POST is not. */
	idempotent: boolean;
	/** Not idempotent, but may be sent again after a 429 or 503, which refuse a request before it runs. */
	retryRefused?: boolean;
	/** Marks a write (a request that may act) and says where to check whether it acted (request.ts). */
	mayHaveRunNote?: string;
	/** For a request that is not idempotent: said when Nexthink refused it (429, 503) and it was not sent again. */
	refusedNote?: string;
	/** Non-2xx statuses the caller reads as data instead of errors, e.g. `[400]` or `[207, 400]`. */
	acceptStatus?: number[];
	/** Epoch milliseconds; no retry, wait or attempt goes past it. */
	deadline?: number;
	/** Bound for each HTTP attempt (cut to the time left before `deadline`). */
	timeoutMs?: number;
	/**
	 * `stream`: a 2xx body arrives as `AsyncIterable<Uint8Array>` (HTTP-decoded), for the caller to
	 * bound and read to the end or stop, which closes it. Default `json`: n8n reads the whole body.
	 */
	responseType?: 'json' | 'stream';
	/** `Accept` header; default `application/json`. */
	accept?: string;
	itemIndex?: number;
	/** What is being done, for error messages ("Starting the export"). */
	action?: string;
	/** Replaces the default plain-language hint for some statuses. */
	hints?: StatusHints;
	retryPolicy?: Partial<RetryPolicy>;
}

export interface NexthinkResponse<T = unknown> {
	statusCode: number;
	/** Lower-case header names. */
	headers: Record<string, string>;
	body: T;
	/** Host (and port) of the API base URL the request went to, for messages (`unexpectedAnswer`). */
	host?: string;
}

/** One try: an answer (any status), a network failure, or a credential that could not get a token. */
export type Attempt =
	| {
			kind: 'response';
			response: NexthinkResponse;
			/** Came as n8n's thrown error: for a 401, n8n 2.x already renewed the token (sendOnce). */
			thrown?: boolean;
	  }
	| { kind: 'network'; code: string | undefined }
	| { kind: 'credential'; message: string };
