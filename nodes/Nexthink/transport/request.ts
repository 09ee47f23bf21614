/**
 * The one place that sends Nexthink API requests: the retry loop around hostCompat.ts's one attempt.
 * Its rules and why (retries, deadline, scrubbing, redirects, a write's 2xx): docs/decisions.md,
 * "Credential and transport", "Secrets in answers, refused credentials, rate limits, refused run
 * requests" and "A write's 2xx".
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiError, hostOf, networkError, notJsonBody, redirectError, unexpectedAnswer, unprovenAnswerError } from './apiErrors';
import { cancelSignalOf, outgoingHeaders, sendOnce, sleepUnlessCancelled, throwIfCancelled, unsendableHeader } from './hostCompat';
import { scrubText, scrubValue, secretForms, type SecretForms } from './secretScrub';
import { bodyText, boundedBody, isByteStream, parsedBody, readShortText } from './streamedBodies';
import { answerTimer, timedBody } from './timedAnswer';
import { NexthinkHostError, resolveNexthinkHosts } from './hosts';
import {
	backoffDelayMs,
	DEFAULT_RETRY_POLICY,
	NEVER_SENT_NETWORK_CODES,
	parseRetryAfterMs,
	REFUSED_STATUSES,
	RETRYABLE_NETWORK_CODES,
	RETRYABLE_STATUSES,
	retryWaitMs,
	type RetryPolicy,
} from './retryPolicy';
import { NEXTHINK_CREDENTIAL_TYPE, type NexthinkContext, type NexthinkRequest, type NexthinkResponse } from './types';

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
			const reason = await scrubAnswerText(ctx, attempt.message);
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
			if (!request.idempotent || !RETRYABLE_NETWORK_CODES.has(attempt.code ?? '') || !mayWait(retry, waitMs, policy, request)) {
				const error = networkError(ctx.getNode(), action, attempt.code, retry + 1, request.itemIndex);
				if (!request.idempotent && request.mayHaveRunNote !== undefined && !NEVER_SENT_NETWORK_CODES.has(attempt.code ?? '')) {
					error.description = `${request.mayHaveRunNote} ${error.description ?? ''}`.trim();
				}
				throw error;
			}
			await sleepUnlessCancelled(ctx, waitMs, signal, request.itemIndex);
			continue;
		}

		const response = scrubbedAnswer(
			isSuccess(attempt.response.statusCode) ? attempt.response : await withShortBody(attempt.response),
			secretForms(await credentialOf(ctx)),
		);
		if (response.statusCode >= 300 && response.statusCode < 400) {
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
			throw apiError(ctx.getNode(), response, request, action, extra);
		}
		await sleepUnlessCancelled(ctx, waitMs, signal, request.itemIndex);
	}
}

/** The request's own timeout, cut to the time left before the deadline (at least 1 ms). */
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

/** The answer with its headers and body scrubbed; a 2xx byte stream is data and goes on as it arrives. */
function scrubbedAnswer(response: NexthinkResponse, forms: SecretForms): NexthinkResponse {
	const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, scrubText(value, forms)]));
	return { ...response, headers, body: isByteStream(response.body) ? response.body : scrubValue(response.body, forms) };
}

/** The credential as it is now (a renewal may have replaced the token); none is an empty one. */
export async function credentialOf(ctx: NexthinkContext): Promise<ICredentialDataDecryptedObject> {
	try {
		return (await ctx.getCredentials(NEXTHINK_CREDENTIAL_TYPE)) ?? {};
	} catch {
		return {};
	}
}

/**
 * Scrubs text that did not pass through nexthinkRequest (a streamed answer, a results file's header),
 * with the credential read now; without a credential only secretScrub.ts's patterns apply.
 */
export async function scrubAnswerText(ctx: NexthinkContext, text: string): Promise<string> {
	return scrubText(text, secretForms(await credentialOf(ctx)));
}

/** The one way a streamed 2xx answer is read as text: bounded by `maxBytes` (0: none), decoded, scrubbed. */
export async function readAnswerText(ctx: NexthinkContext, body: AsyncIterable<Uint8Array>, maxBytes: number, tooLarge: () => Error): Promise<string> {
	return await scrubAnswerText(ctx, await bodyText(boundedBody(body, maxBytes, tooLarge)));
}

/** Most characters of a non-2xx body kept for error messages (a stream body is read no further). */
const ERROR_BODY_MAX_CHARS = 64 * 1024;

/** A non-2xx answer with a streamed body read (at most ERROR_BODY_MAX_CHARS) and parsed when it is JSON. */
async function withShortBody(response: NexthinkResponse): Promise<NexthinkResponse> {
	if (!isByteStream(response.body)) return response;
	const text = await readShortText(response.body, ERROR_BODY_MAX_CHARS);
	const parsed = parsedBody(text);
	return { ...response, body: parsed === undefined ? text : parsed };
}

