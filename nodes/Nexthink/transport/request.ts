/**
 * The one place that sends Nexthink API requests: the retry loop. Each attempt goes out through
 * n8n's request helper in hostCompat.ts (where n8n 1.x and 2.x differ); a streamed answer is bounded
 * by timedAnswer.ts; what the request and answer are is types.ts.
 *
 * Contract:
 * - Authenticates through `httpRequestWithAuthentication`, so n8n fetches a token when none is
 *   stored and, on a 401, renews it and sends the request once more: the stale token goes out once
 *   on n8n 1.x and 2.x alike (hostCompat.ts, sendOnce), and the answer after the renewal keeps its
 *   status, headers and body. A 401 that stays ends there: at most two sends and one renewal.
 * - Returns status code, headers and body for 2xx answers and for the statuses the caller lists in
 *   `acceptStatus`; every other answer becomes a `NodeApiError` with the API's message and a hint.
 *   A write (a request with a `mayHaveRunNote`) counts a 2xx only with no body or a JSON body: an
 *   HTML page (whatever its content type) or other text is an unexpected answer that says the
 *   request may have reached Nexthink and where to check (unexpectedAnswer.ts, notJsonBody).
 * - Retries requests marked `idempotent` on 429 (after `retry-after`), 500, 502, 503, 504 and
 *   broken connections, with capped exponential backoff and jitter; after a 429 never sooner than
 *   1 s (retryPolicy.ts, retryWaitMs), so a rate limit never makes the calls come faster. A
 *   request that is not idempotent (the export start) is only sent again when it was refused
 *   before anything ran: with `retryRefused`, on 429 and 503; never after a 500, 502, 504, a
 *   timeout or a broken connection, when it may have taken effect (the error then carries
 *   `mayHaveRunNote`). Refused and not sent again, it carries `refusedNote`.
 * - `deadline` is a hard bound: no wait or retry goes past it, and each attempt's timeout is cut
 *   to the time left (how Maximum Wait stays a bound: docs/decisions.md).
 * - Waits end at once when the execution is cancelled.
 * - Text from an answer (headers, a JSON or error body) is scrubbed of the credential's secrets
 *   before a caller or an error sees it (secretScrub.ts); a 2xx byte stream is data and is not.
 * - Sends every header value byte for byte or sends nothing: a value the HTTP client would change
 *   (a character outside Latin-1, a control character, a space at either end) stops the request
 *   before it goes out, naming the header (outgoingHeaders.ts).
 * - Never follows a redirect. n8n's request helpers follow redirects by default and put the
 *   `Authorization` header back on every hop, also to another host, and 307/308 repeat a POST with
 *   its body; the bearer token and a non-idempotent export start must never go to a host the API
 *   did not name. A 3xx answer (to any origin, same-origin included) is an error naming the status
 *   and the redirect's host, never retried. (The results-file download carries no credential and may
 *   follow redirects: transport/presignedFile.ts.)
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiError, networkError, redirectError } from './apiErrors';
import { cancelSignalOf, sleepUnlessCancelled, throwIfCancelled } from './cancellation';
import { sendOnce } from './hostCompat';
import { outgoingHeaders, unsendableHeader } from './outgoingHeaders';
import { scrubText, scrubValue, secretForms, type SecretForms } from './secretScrub';
import { bodyText, boundedBody, isByteStream, readShortText } from './streamedBodies';
import { answerTimer, timedBody } from './timedAnswer';
import { NexthinkHostError, resolveNexthinkHosts } from './hosts';
import {
	backoffDelayMs,
	DEFAULT_RETRY_POLICY,
	isRetryableNetworkCode,
	parseRetryAfterMs,
	isNeverSentNetworkCode,
	REFUSED_STATUSES,
	RETRYABLE_STATUSES,
	retryWaitMs,
	type RetryPolicy,
} from './retryPolicy';
import { NEXTHINK_CREDENTIAL_TYPE, type NexthinkContext, type NexthinkRequest, type NexthinkResponse } from './types';
import { hostOf, notJsonBody, unexpectedAnswer, unprovenAnswerError } from './unexpectedAnswer';

export async function nexthinkRequest<T = unknown>(
	ctx: NexthinkContext,
	request: NexthinkRequest,
): Promise<NexthinkResponse<T>> {
	const action = request.action ?? `${request.method} ${request.path}`;
	const unsendable = unsendableHeader(outgoingHeaders(request));
	if (unsendable !== undefined) {
		throw new NodeOperationError(ctx.getNode(), `${action} was not sent: ${unsendable}`, {
			itemIndex: request.itemIndex,
			description: 'Nothing was sent to Nexthink: HTTP would have sent the value changed.',
		});
	}
	const apiBaseUrl = await apiBaseUrlOf(ctx, request.itemIndex);
	const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...request.retryPolicy };
	const signal = cancelSignalOf(ctx);

	for (let retry = 0; ; retry++) {
		throwIfCancelled(ctx, signal, request.itemIndex);
		const timeoutMs = attemptTimeoutMs(request);
		const timer = request.responseType === 'stream' && timeoutMs !== undefined ? answerTimer(timeoutMs, signal) : undefined;
		const attempt = await sendOnce(ctx, apiBaseUrl, request, timeoutMs, timer?.signal ?? signal);
		if (attempt.kind !== 'response' || !isSuccess(attempt.response.statusCode)) timer?.stop();
		throwIfCancelled(ctx, signal, request.itemIndex);

		if (attempt.kind === 'credential') {
			const reason = scrubText(attempt.message, await secretFormsOf(ctx));
			throw new NodeApiError(
				ctx.getNode(),
				{ message: reason },
				{
					message: `${action} failed: the Nexthink API credential could not get a token`,
					description: reason,
					itemIndex: request.itemIndex,
				},
			);
		}
		if (attempt.kind === 'network') {
			const waitMs = backoffDelayMs(retry, policy);
			if (!request.idempotent || !isRetryableNetworkCode(attempt.code) || !mayWait(retry, waitMs, policy, request)) {
				const error = networkError(ctx.getNode(), action, attempt.code, retry + 1, request.itemIndex);
				if (!request.idempotent && request.mayHaveRunNote !== undefined && !isNeverSentNetworkCode(attempt.code)) {
					error.description = `${request.mayHaveRunNote} ${error.description ?? ''}`.trim();
				}
				throw error;
			}
			await sleepUnlessCancelled(ctx, waitMs, signal, request.itemIndex);
			continue;
		}

		const response = scrubbedAnswer(
			isSuccess(attempt.response.statusCode) ? attempt.response : await withShortBody(attempt.response),
			await secretFormsOf(ctx),
		);
		if (isRedirect(response.statusCode)) {
			throw redirectError(ctx.getNode(), {
				statusCode: response.statusCode,
				location: response.headers.location,
				requestUrl: `${apiBaseUrl}${request.path}`,
				action,
				itemIndex: request.itemIndex,
			});
		}
		if (isSuccess(response.statusCode) || request.acceptStatus?.includes(response.statusCode)) {
			const notJson = isSuccess(response.statusCode) && request.mayHaveRunNote !== undefined && request.responseType !== 'stream' ? notJsonBody(response.body) : undefined;
			if (notJson !== undefined) {
				const answer = { ...response, host: hostOf(apiBaseUrl) };
				throw unprovenAnswerError(
					ctx,
					`${action} failed: ${unexpectedAnswer(answer)}: ${notJson}, not the API's JSON; the request may have reached Nexthink`,
					answer,
					request.itemIndex,
					request.mayHaveRunNote,
				);
			}
			const body = timer !== undefined && isByteStream(response.body) ? timedBody(ctx, response.body, timer, signal, request, action) : response.body;
			return { ...response, body, host: hostOf(apiBaseUrl) } as NexthinkResponse<T>;
		}
		const retryAfterMs = parseRetryAfterMs(response.headers['retry-after'], Date.now());
		const retryable = request.idempotent
			? RETRYABLE_STATUSES.has(response.statusCode)
			: request.retryRefused === true && REFUSED_STATUSES.has(response.statusCode);
		const waitMs = retryWaitMs(response.statusCode, retryAfterMs, retry, policy);
		if (!retryable || !mayWait(retry, waitMs, policy, request) || waitMs > policy.maxRetryAfterMs) {
			const extra = [
				retryAfterMs !== undefined ? retryAfterSentence(retryAfterMs) : undefined,
				retryable && retry > 0 ? `Tried ${retry + 1} times.` : undefined,
				!request.idempotent && mayHaveRun(response.statusCode) ? request.mayHaveRunNote : undefined,
				!request.idempotent && REFUSED_STATUSES.has(response.statusCode) ? request.refusedNote : undefined,
			].filter((part): part is string => part !== undefined);
			throw apiError(ctx.getNode(), {
				statusCode: response.statusCode,
				body: response.body,
				action,
				hints: request.hints,
				extra: extra.length > 0 ? extra.join(' ') : undefined,
				itemIndex: request.itemIndex,
			});
		}
		await sleepUnlessCancelled(ctx, waitMs, signal, request.itemIndex);
	}
}

/**
 * The timeout of the next attempt: the request's own, cut to the time left before the deadline
 * (at least 1 ms, so an attempt at the deadline fails at once as a timeout).
 */
function attemptTimeoutMs(request: NexthinkRequest): number | undefined {
	if (request.deadline === undefined) return request.timeoutMs;
	const left = Math.max(1, request.deadline - Date.now());
	return request.timeoutMs === undefined ? left : Math.min(request.timeoutMs, left);
}

/** Statuses after which a request may have taken effect: server errors, except 503 (refused). */
function mayHaveRun(statusCode: number): boolean {
	return statusCode >= 500 && statusCode !== 503;
}

function mayWait(retry: number, waitMs: number, policy: RetryPolicy, request: NexthinkRequest): boolean {
	if (retry >= policy.maxRetries) return false;
	return request.deadline === undefined || Date.now() + waitMs <= request.deadline;
}

function retryAfterSentence(retryAfterMs: number): string {
	const at = new Date(Date.now() + retryAfterMs).toISOString();
	return `Nexthink asks to retry after ${at} (in ${Math.ceil(retryAfterMs / 1000)} s).`;
}

function isRedirect(statusCode: number): boolean {
	return statusCode >= 300 && statusCode < 400;
}

function isSuccess(statusCode: number): boolean {
	return statusCode >= 200 && statusCode < 300;
}

const apiBaseUrlCache = new WeakMap<NexthinkContext, Promise<string>>();

async function apiBaseUrlOf(ctx: NexthinkContext, itemIndex: number | undefined): Promise<string> {
	let cached = apiBaseUrlCache.get(ctx);
	if (cached === undefined) {
		cached = ctx.getCredentials(NEXTHINK_CREDENTIAL_TYPE).then((credentials) => resolveNexthinkHosts(credentials).apiBaseUrl);
		apiBaseUrlCache.set(ctx, cached);
	}
	try {
		return await cached;
	} catch (error) {
		apiBaseUrlCache.delete(ctx);
		if (error instanceof NexthinkHostError) {
			throw new NodeOperationError(ctx.getNode(), `The Nexthink API credential is not usable: ${error.message}`, { itemIndex });
		}
		throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	}
}

/**
 * The answer with the credential's secrets scrubbed out of its headers and its body (transport/secretScrub.ts),
 * so nothing a server echoes reaches a message or an item. A 2xx byte stream (a results file, an
 * Execute Query answer) is data and is handed on as it arrives.
 */
function scrubbedAnswer(response: NexthinkResponse, forms: SecretForms): NexthinkResponse {
	const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, scrubText(value, forms)]));
	return { ...response, headers, body: isByteStream(response.body) ? response.body : scrubValue(response.body, forms) };
}

/**
 * Every form of the credential's client secret, Basic credential and current token, read when an
 * answer arrives (a renewal may have replaced the token since the request started); none when the
 * credential cannot be read, and then only the patterns of secretScrub.ts apply.
 */
async function secretFormsOf(ctx: NexthinkContext): Promise<SecretForms> {
	try {
		return secretForms(await ctx.getCredentials(NEXTHINK_CREDENTIAL_TYPE));
	} catch {
		return [];
	}
}

/**
 * Scrubs text that did not pass through nexthinkRequest's own scrubbing (a streamed 2xx answer read
 * by the caller, a results file's header) of the credential's secrets, before it goes into an item
 * or a message (secretScrub.ts).
 */
export async function scrubAnswerText(ctx: NexthinkContext, text: string): Promise<string> {
	return scrubText(text, await secretFormsOf(ctx));
}

/**
 * The one way a streamed 2xx answer (`responseType: 'stream'`) is read as text: bounded by `maxBytes`
 * while it arrives (`tooLarge()` past it; 0 = no limit), decoded, and scrubbed of the credential's
 * secrets, since what it holds goes into items as it arrived.
 */
export async function readAnswerText(ctx: NexthinkContext, body: AsyncIterable<Uint8Array>, maxBytes: number, tooLarge: () => Error): Promise<string> {
	return await scrubAnswerText(ctx, await bodyText(boundedBody(body, maxBytes, tooLarge)));
}

/** Most characters of a non-2xx body kept for error messages (a stream body is read no further). */
const ERROR_BODY_MAX_CHARS = 64 * 1024;

/**
 * A non-2xx answer with its body as data: a streamed body is read (at most ERROR_BODY_MAX_CHARS)
 * and parsed when it is JSON, so error messages can quote the API's own words.
 */
async function withShortBody(response: NexthinkResponse): Promise<NexthinkResponse> {
	if (!isByteStream(response.body)) return response;
	const text = await readShortText(response.body, ERROR_BODY_MAX_CHARS);
	return { ...response, body: parseJsonOr(text) };
}

function parseJsonOr(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

