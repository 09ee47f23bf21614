/**
 * The one place that sends Nexthink API requests (design.md sections 3 and 4).
 *
 * Contract:
 * - Authenticates through `httpRequestWithAuthentication`, so n8n fetches a token when none is
 *   stored and, on a 401, renews it and sends the request once more: the stale token goes out once
 *   on n8n 1.x and 2.x alike (see sendOnce), and the answer after the renewal keeps its status,
 *   headers and body.
 * - Returns status code, headers and body for 2xx answers and for the statuses the caller lists in
 *   `acceptStatus`; every other answer becomes a `NodeApiError` with the API's message and a hint.
 * - Retries requests marked `idempotent` on 429 (after `retry-after`), 500, 502, 503, 504 and
 *   broken connections, with capped exponential backoff and jitter. A request that is not
 *   idempotent (the export start) is only sent again when it was refused before anything ran:
 *   with `retryRefused`, on 429 and 503 (issue 15, point 10); never after a 500, 502, 504, a
 *   timeout or a broken connection, when it may have taken effect (the error then carries
 *   `mayHaveRunNote`).
 * - `deadline` is a hard bound: no wait or retry goes past it, and each attempt's timeout is cut
 *   to the time left (issue 15, point 3).
 * - Waits end at once when the execution is cancelled.
 * - Never follows a redirect. n8n's request helpers follow redirects by default and put the
 *   `Authorization` header back on every hop, also to another host, and 307/308 repeat a POST with
 *   its body; the bearer token and a non-idempotent export start must never go to a host the API
 *   did not name. A 3xx answer (to any origin, same-origin included) is an error naming the status
 *   and the redirect's host, never retried. (The results-file download carries no credential and may
 *   follow redirects: transport/presignedFile.ts.)
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, IAdditionalCredentialOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiError, networkError, redirectError, type StatusHints } from './apiErrors';
import { cancellableSleep } from './hostCompat';
import { closeBody, isByteStream, readShortText } from './streamedBodies';
import { NexthinkHostError, resolveNexthinkHosts } from './hosts';
import {
	backoffDelayMs,
	DEFAULT_RETRY_POLICY,
	isRetryableNetworkCode,
	parseRetryAfterMs,
	isNeverSentNetworkCode,
	REFUSED_STATUSES,
	RETRYABLE_STATUSES,
	type RetryPolicy,
} from './retryPolicy';
import { TLS_ERROR_CODE, TOKEN_FAILURE_PREFIX } from './tokenExchange';
import { hostOf } from './unexpectedAnswer';

export const NEXTHINK_CREDENTIAL_TYPE = 'nexthinkApi';

export interface NexthinkRequest {
	method: 'GET' | 'POST';
	/** Path below the credential's API base URL, e.g. `/api/v1/nql/export`. */
	path: string;
	qs?: Record<string, string>;
	/** Sent as JSON. */
	body?: unknown;
	headers?: Record<string, string>;
	/** Safe to send again (GET, execute, enrichment). The export start POST is not. */
	idempotent: boolean;
	/** Not idempotent, but may be sent again after a 429 or 503, which refuse a request before it runs. */
	retryRefused?: boolean;
	/** For a request that is not idempotent: said when it failed in a way after which it may have run. */
	mayHaveRunNote?: string;
	/** Non-2xx statuses the caller reads as data instead of errors, e.g. `[400]` or `[207, 400]`. */
	acceptStatus?: number[];
	/** Epoch milliseconds; no retry, wait or attempt goes past it. */
	deadline?: number;
	/** Bound for each HTTP attempt (cut to the time left before `deadline`). */
	timeoutMs?: number;
	/**
	 * `stream`: a 2xx body arrives as `AsyncIterable<Uint8Array>` (after HTTP decoding such as
	 * `Content-Encoding: gzip`), for answers the caller must bound while they arrive; the caller reads
	 * it to the end or stops iterating, which closes it. Default `json`: n8n reads the whole body.
	 * Bodies of other statuses are read here either way, at most `ERROR_BODY_MAX_CHARS`.
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

type Attempt =
	| { kind: 'response'; response: NexthinkResponse }
	| { kind: 'network'; code: string | undefined }
	| { kind: 'credential'; message: string };

export async function nexthinkRequest<T = unknown>(
	ctx: IExecuteFunctions,
	request: NexthinkRequest,
): Promise<NexthinkResponse<T>> {
	const apiBaseUrl = await apiBaseUrlOf(ctx, request.itemIndex);
	const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...request.retryPolicy };
	const signal = cancelSignalOf(ctx);
	const action = request.action ?? `${request.method} ${request.path}`;

	for (let retry = 0; ; retry++) {
		throwIfCancelled(ctx, signal, request.itemIndex);
		const timeoutMs = attemptTimeoutMs(request);
		const timer = request.responseType === 'stream' && timeoutMs !== undefined ? answerTimer(timeoutMs, signal) : undefined;
		const attempt = await sendOnce(ctx, apiBaseUrl, request, timeoutMs, timer?.signal ?? signal);
		if (attempt.kind !== 'response' || !isSuccess(attempt.response.statusCode)) timer?.stop();
		throwIfCancelled(ctx, signal, request.itemIndex);

		if (attempt.kind === 'credential') {
			throw new NodeApiError(
				ctx.getNode(),
				{ message: attempt.message },
				{
					message: `${action} failed: the Nexthink API credential could not get a token`,
					description: attempt.message,
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

		const response = isSuccess(attempt.response.statusCode) ? attempt.response : await withShortBody(attempt.response);
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
			const body = timer !== undefined && isByteStream(response.body) ? timedBody(ctx, response.body, timer, signal, request, action) : response.body;
			return { ...response, body, host: hostOf(apiBaseUrl) } as NexthinkResponse<T>;
		}
		const retryAfterMs = parseRetryAfterMs(response.headers['retry-after'], Date.now());
		const retryable = request.idempotent
			? RETRYABLE_STATUSES.has(response.statusCode)
			: request.retryRefused === true && REFUSED_STATUSES.has(response.statusCode);
		const waitMs = retryAfterMs ?? backoffDelayMs(retry, policy);
		if (!retryable || !mayWait(retry, waitMs, policy, request) || waitMs > policy.maxRetryAfterMs) {
			const extra = [
				retryAfterMs !== undefined ? retryAfterSentence(retryAfterMs) : undefined,
				retryable && retry > 0 ? `Tried ${retry + 1} times.` : undefined,
				!request.idempotent && mayHaveRun(response.statusCode) ? request.mayHaveRunNote : undefined,
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

interface AnswerTimer {
	/** Aborts the request (which ends its body stream) when the time is up or the execution is cancelled. */
	signal: AbortSignal;
	expired(): boolean;
	/** Ends the wait once the answer is complete (or abandoned). */
	stop(): void;
}

/**
 * Bounds a streamed answer's whole time, headers and body: n8n's request timeout ends only the wait
 * for the headers, and a body that stalls or trickles would otherwise keep the item running forever.
 * The wait is n8n's own sleep (nodes may not start timers themselves).
 */
function answerTimer(ms: number, cancel: AbortSignal | undefined): AnswerTimer {
	const timeUp = new AbortController();
	const done = new AbortController();
	void cancellableSleep(ms, done.signal).then(
		() => timeUp.abort(),
		() => undefined,
	);
	return {
		signal: cancel === undefined ? timeUp.signal : AbortSignal.any([cancel, timeUp.signal]),
		expired: () => timeUp.signal.aborted,
		stop: () => done.abort(),
	};
}

/**
 * The body as it arrives; a stream that fails says why in words (time up, cancelled, broken off),
 * as a NodeOperationError for the request's item.
 * Each read races the timer: aborting the request's signal makes n8n's HTTP client end the
 * connection, but a body it wraps in its own stream (n8n 2.x) may then never settle a pending read.
 */
async function* timedBody(
	ctx: IExecuteFunctions,
	body: AsyncIterable<Uint8Array>,
	timer: AnswerTimer,
	cancel: AbortSignal | undefined,
	request: NexthinkRequest,
	action: string,
): AsyncGenerator<Uint8Array, void, undefined> {
	const iterator = body[Symbol.asyncIterator]();
	const stopped = new Promise<never>((_resolve, reject) => {
		if (timer.signal.aborted) reject(new Error('aborted'));
		else timer.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
	});
	stopped.catch(() => undefined); // read only through the race below
	let ended = false;
	try {
		for (;;) {
			const step = await Promise.race([iterator.next(), stopped]);
			if (step.done === true) {
				ended = true;
				return;
			}
			yield step.value;
		}
	} catch (error) {
		throwIfCancelled(ctx, cancel, request.itemIndex);
		const reason = networkCodeOf(errorChain(error)) ?? (error as Error)?.message ?? String(error);
		const timeout = request.timeoutMs === undefined ? '' : ` (now ${request.timeoutMs / 1000} s)`;
		throw new NodeOperationError(
			ctx.getNode(),
			timer.expired()
				? `${action} failed: the answer was still arriving when the Request Timeout ran out`
				: `${action} failed: the connection broke before the answer was complete (${reason})`,
			{
				itemIndex: request.itemIndex,
				description: `Nothing was output for this item. Run it again; if it keeps failing, raise "Request Timeout"${timeout}, or use the Export operation for large results.`,
			},
		);
	} finally {
		timer.stop();
		// closes the body when the reader stopped early; not awaited, as a read may still be pending
		if (!ended) void Promise.resolve(iterator.return?.()).catch(() => undefined);
	}
}

/** The cancel signal of the running execution; undefined in contexts that have none. */
export function cancelSignalOf(ctx: IExecuteFunctions): AbortSignal | undefined {
	return typeof ctx.getExecutionCancelSignal === 'function' ? ctx.getExecutionCancelSignal() : undefined;
}

export function throwIfCancelled(ctx: IExecuteFunctions, signal: AbortSignal | undefined, itemIndex?: number): void {
	if (signal?.aborted === true) {
		throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled', { itemIndex });
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

/**
 * Waits, ending at once on cancel with "The execution was cancelled" (the host's sleep rejects with
 * its own abort reason, which n8n would show as an unexplained error).
 */
export async function sleepUnlessCancelled(
	ctx: IExecuteFunctions,
	ms: number,
	signal: AbortSignal | undefined,
	itemIndex?: number,
): Promise<void> {
	try {
		await cancellableSleep(ms, signal);
	} catch (error) {
		throwIfCancelled(ctx, signal, itemIndex);
		throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	}
	throwIfCancelled(ctx, signal, itemIndex);
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

const apiBaseUrlCache = new WeakMap<IExecuteFunctions, Promise<string>>();

async function apiBaseUrlOf(ctx: IExecuteFunctions, itemIndex: number | undefined): Promise<string> {
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

async function sendOnce(
	ctx: IExecuteFunctions,
	apiBaseUrl: string,
	request: NexthinkRequest,
	timeoutMs: number | undefined,
	signal: AbortSignal | undefined,
): Promise<Attempt> {
	const asStream = request.responseType === 'stream';
	const options: IHttpRequestOptions = {
		method: request.method,
		// The query string and the JSON body are serialised here, not by n8n: n8n's request helper
		// drops keys named `constructor` or `__proto__` from `qs` and `body` objects, and those are
		// ordinary NQL parameter names.
		url: `${apiBaseUrl}${request.path}${queryString(request.qs)}`,
		body: (request.body === undefined ? undefined : JSON.stringify(request.body)) as IDataObject | string | undefined,
		headers: { Accept: request.accept ?? 'application/json', ...request.headers },
		json: !asStream,
		encoding: asStream ? 'stream' : undefined,
		returnFullResponse: true,
		timeout: timeoutMs,
		abortSignal: signal,
		ignoreHttpStatusErrors: STATUSES_AS_DATA_EXCEPT_401,
		// a 3xx then comes back as data (or, with status errors on, as a thrown answer) and fails above
		disableFollowRedirect: true,
	};
	if (request.body !== undefined && options.headers !== undefined) options.headers['Content-Type'] = 'application/json';
	const first = await send(ctx, options);
	if (first.kind === 'response' && first.response.statusCode === 401) {
		await closeBody(first.response.body);
		// An n8n 1.x host: it only tests `ignoreHttpStatusErrors` for truthiness, so the 401 came back as
		// data and n8n did not renew the token. Send once more with the stored token blanked: n8n's
		// request helper then runs the credential's preAuthentication first (it does whenever the
		// expirable token is empty), stores the new token and sends the request with it. So the stale
		// token goes out once, as on 2.x, and the answer after the renewal still arrives as data with
		// its status, headers and body (retry-after, the API's message).
		return await send(ctx, options, await withoutStoredToken(ctx, request.itemIndex));
	}
	return first;
}

/**
 * The credential as n8n holds it, with the expirable token emptied, for `httpRequestWithAuthentication`'s
 * `credentialsDecrypted` option (read by n8n-core 1.x and 2.x alike). n8n's credentials helper sees the
 * empty token, asks the credential's `preAuthentication` for a new one and saves it for later requests.
 */
async function withoutStoredToken(ctx: IExecuteFunctions, itemIndex: number | undefined): Promise<IAdditionalCredentialOptions> {
	const data = await ctx.getCredentials(NEXTHINK_CREDENTIAL_TYPE, itemIndex);
	const details = ctx.getNode().credentials?.[NEXTHINK_CREDENTIAL_TYPE];
	return {
		credentialsDecrypted: {
			id: details?.id ?? '',
			name: details?.name ?? '',
			type: NEXTHINK_CREDENTIAL_TYPE,
			data: { ...data, accessToken: '' },
		},
	};
}

/** `?key=value&...` with every key and value percent-encoded (`#` as `%23`, space as `%20`); '' when empty. */
function queryString(qs: Record<string, string> | undefined): string {
	if (qs === undefined) return '';
	const pairs = Object.entries(qs).map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
	return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/**
 * Non-2xx answers as data, except 401, which must throw so that n8n renews the token (the object
 * form is understood by n8n 2.x; see sendOnce for 1.x).
 */
const STATUSES_AS_DATA_EXCEPT_401 = { ignore: true, except: [401] } as unknown as IHttpRequestOptions['ignoreHttpStatusErrors'];

async function send(ctx: IExecuteFunctions, options: IHttpRequestOptions, credentialOptions?: IAdditionalCredentialOptions): Promise<Attempt> {
	try {
		const full = await ctx.helpers.httpRequestWithAuthentication.call(ctx, NEXTHINK_CREDENTIAL_TYPE, options, credentialOptions);
		return { kind: 'response', response: toResponse(full) };
	} catch (error) {
		return classifyThrownError(error);
	}
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

interface FullResponse {
	statusCode?: number;
	headers?: Record<string, unknown>;
	body?: unknown;
}

function toResponse(full: unknown): NexthinkResponse {
	const { statusCode, headers, body } = (full ?? {}) as FullResponse;
	return { statusCode: statusCode ?? 200, headers: lowerCaseHeaders(headers), body };
}

/**
 * What a thrown error means. n8n wraps the HTTP client's error in a NodeApiError: 2.x keeps the
 * original as `cause` (with `response.{status, headers, data}`), 1.x keeps only `httpCode`,
 * `messages` and, for JSON bodies, `context.data`.
 */
function classifyThrownError(error: unknown): Attempt {
	const chain = errorChain(error);
	const tokenFailure = chain.flatMap(messagesOf).find((message) => message.includes(TOKEN_FAILURE_PREFIX));
	if (tokenFailure !== undefined) {
		return { kind: 'credential', message: tokenFailure.slice(tokenFailure.indexOf(TOKEN_FAILURE_PREFIX) + TOKEN_FAILURE_PREFIX.length) };
	}
	for (const candidate of chain) {
		const response = (candidate as { response?: { status?: unknown; headers?: Record<string, unknown>; data?: unknown } }).response;
		if (typeof response?.status === 'number') {
			return { kind: 'response', response: { statusCode: response.status, headers: lowerCaseHeaders(response.headers), body: response.data } };
		}
	}
	for (const candidate of chain) {
		const httpCode = String((candidate as { httpCode?: unknown }).httpCode ?? '');
		if (/^\d{3}$/.test(httpCode)) {
			const data = (candidate as { context?: { data?: unknown } }).context?.data;
			return { kind: 'response', response: { statusCode: Number(httpCode), headers: {}, body: data } };
		}
	}
	return { kind: 'network', code: networkCodeOf(chain) };
}

function networkCodeOf(chain: object[]): string | undefined {
	for (const candidate of chain) {
		for (const field of ['code', 'httpCode'] as const) {
			const code = (candidate as Record<string, unknown>)[field];
			if (typeof code === 'string' && (/^E[A-Z_]{3,}$/.test(code) || (/^[A-Z_]{4,}$/.test(code) && TLS_ERROR_CODE.test(code)))) return code;
		}
	}
	for (const message of chain.flatMap(messagesOf)) {
		const code = /\b(E[A-Z]{4,}[A-Z_]*)\b/.exec(message)?.[1];
		if (code !== undefined) return code;
		if (/socket hang up/i.test(message)) return 'ECONNRESET';
	}
	return undefined;
}

function messagesOf(candidate: object): string[] {
	const { message, description, messages } = candidate as { message?: unknown; description?: unknown; messages?: unknown };
	return [message, description, ...(Array.isArray(messages) ? messages : [])].filter((m): m is string => typeof m === 'string');
}

function errorChain(error: unknown): object[] {
	const chain: object[] = [];
	let current: unknown = error;
	while (typeof current === 'object' && current !== null && chain.length < 5 && !chain.includes(current)) {
		chain.push(current);
		const next = current as { cause?: unknown; reason?: unknown };
		current = next.cause ?? next.reason;
	}
	return chain;
}

function lowerCaseHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
	const out: Record<string, string> = {};
	if (headers === undefined || headers === null) return out;
	const entries =
		typeof (headers as { toJSON?: unknown }).toJSON === 'function'
			? Object.entries((headers as unknown as { toJSON(): Record<string, unknown> }).toJSON())
			: Object.entries(headers);
	for (const [name, value] of entries) {
		if (value === undefined || value === null) continue;
		out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return out;
}
