/**
 * Sending one request through n8n's own request helper, with its headers exactly as they go out, and
 * where n8n 1.x and 2.x differ (detected at run time, not from a version number): the sleep that ends
 * on cancel, the 401 renewal (sendOnce) and the shape of a thrown answer (classifyThrownError). Why:
 * docs/decisions.md, "Reading 4xx/5xx as data on n8n 1.x and 2.x; token renewal", "Cancellation" and
 * "Header values". The retry loop around it is request.ts.
 */
import type { IAdditionalCredentialOptions, IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { closeBody } from './streamedBodies';
import { TLS_ERROR_CODE } from './apiErrors';
import { NEXTHINK_CREDENTIAL_TYPE, TOKEN_FAILURE_PREFIX, type Attempt, type NexthinkContext, type NexthinkRequest, type NexthinkResponse } from './types';

type AbortableSleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** 1.x's `sleep(ms)` ignores a signal, so it has `sleepWithAbort`; 2.x's `sleep(ms, signal)` rejects on abort. */
const legacySleepWithAbort = (n8nWorkflow as unknown as { sleepWithAbort?: AbortableSleep }).sleepWithAbort;

export async function cancellableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
	if (ms <= 0) return;
	if (signal !== undefined && typeof legacySleepWithAbort === 'function') {
		await legacySleepWithAbort(ms, signal);
		return;
	}
	await (sleep as AbortableSleep)(ms, signal);
}

/** The cancel signal of the running execution; undefined in contexts that have none. */
export function cancelSignalOf(ctx: NexthinkContext): AbortSignal | undefined {
	return typeof ctx.getExecutionCancelSignal === 'function' ? ctx.getExecutionCancelSignal() : undefined;
}

export function throwIfCancelled(ctx: NexthinkContext, signal: AbortSignal | undefined, itemIndex?: number): void {
	if (signal?.aborted === true) {
		throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled', { itemIndex });
	}
}

/** Waits, ending at once on cancel with our message rather than the host sleep's own abort reason. */
export async function sleepUnlessCancelled(
	ctx: NexthinkContext,
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

/** One attempt: the answer whatever its status (a 401 after one renewal), a network failure, or no token. */
export async function sendOnce(
	ctx: NexthinkContext,
	apiBaseUrl: string,
	request: NexthinkRequest,
	timeoutMs: number | undefined,
	signal: AbortSignal | undefined,
): Promise<Attempt> {
	const asStream = request.responseType === 'stream';
	const options: IHttpRequestOptions = {
		method: request.method,
		// serialised here: n8n's helper drops keys named `constructor` or `__proto__` (NQL parameter names)
		url: `${apiBaseUrl}${request.path}${queryString(request.qs)}`,
		body: (request.body === undefined ? undefined : JSON.stringify(request.body)) as IDataObject | string | undefined,
		headers: outgoingHeaders(request),
		json: !asStream,
		encoding: asStream ? 'stream' : undefined,
		returnFullResponse: true,
		timeout: timeoutMs,
		abortSignal: signal,
		ignoreHttpStatusErrors: STATUSES_AS_DATA_EXCEPT_401,
		// a 3xx then comes back as data (or, with status errors on, as a thrown answer) and fails in request.ts
		disableFollowRedirect: true,
	};
	const first = await send(ctx, options);
	if (first.kind === 'response' && first.response.statusCode === 401 && first.thrown !== true) {
		await closeBody(first.response.body);
		// n8n 1.x returned the 401 as data without renewing: send once more with the stored token
		// blanked, so n8n runs preAuthentication first and the answer still arrives as data
		return await send(ctx, options, await withoutStoredToken(ctx, request.itemIndex));
	}
	// a 401 thrown by n8n (2.x) already followed n8n's own renewal and second send
	return first;
}

/** The credential with its expirable token emptied, as `credentialsDecrypted` (n8n-core 1.x and 2.x). */
async function withoutStoredToken(ctx: NexthinkContext, itemIndex: number | undefined): Promise<IAdditionalCredentialOptions> {
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

/** Non-2xx answers as data, except 401, which must throw so that n8n (2.x) renews the token. */
const STATUSES_AS_DATA_EXCEPT_401 = { ignore: true, except: [401] } as unknown as IHttpRequestOptions['ignoreHttpStatusErrors'];

async function send(ctx: NexthinkContext, options: IHttpRequestOptions, credentialOptions?: IAdditionalCredentialOptions): Promise<Attempt> {
	try {
		// n8n's helper takes its own context as `this`; ctx is that context (execute or poll)
		const self = ctx as unknown as ThisParameterType<typeof ctx.helpers.httpRequestWithAuthentication>;
		const full = await ctx.helpers.httpRequestWithAuthentication.call(self, NEXTHINK_CREDENTIAL_TYPE, options, credentialOptions);
		const { statusCode, headers, body } = (full ?? {}) as { statusCode?: number; headers?: Record<string, unknown>; body?: unknown };
		return { kind: 'response', response: { statusCode: statusCode ?? 200, headers: lowerCaseHeaders(headers), body } };
	} catch (error) {
		return classifyThrownError(error);
	}
}

/** A thrown error: a credential that could not get a token, the answer it carries, or no answer. */
function classifyThrownError(error: unknown): Attempt {
	const chain = errorChain(error);
	const tokenFailure = chain.flatMap(messagesOf).find((message) => message.includes(TOKEN_FAILURE_PREFIX));
	if (tokenFailure !== undefined) {
		return { kind: 'credential', message: tokenFailure.slice(tokenFailure.indexOf(TOKEN_FAILURE_PREFIX) + TOKEN_FAILURE_PREFIX.length) };
	}
	const response = thrownAnswer(chain);
	return response !== undefined ? { kind: 'response', thrown: true, response } : { kind: 'network', code: networkCodeOf(chain) };
}

/** The answer a thrown error carries: 2.x keeps the HTTP client's error as `cause`, 1.x only `httpCode` and `context.data`. */
export function thrownAnswer(chain: object[]): NexthinkResponse | undefined {
	for (const candidate of chain) {
		const response = (candidate as { response?: { status?: unknown; headers?: Record<string, unknown>; data?: unknown } }).response;
		if (typeof response?.status === 'number') return { statusCode: response.status, headers: lowerCaseHeaders(response.headers), body: response.data };
	}
	for (const candidate of chain) {
		const httpCode = String((candidate as { httpCode?: unknown }).httpCode ?? '');
		if (/^\d{3}$/.test(httpCode)) return { statusCode: Number(httpCode), headers: {}, body: (candidate as { context?: { data?: unknown } }).context?.data };
	}
	return undefined;
}

/** The first error code (`code`) along an error's chain, whatever its form. */
export function errorCodeOf(error: unknown): string | undefined {
	return errorChain(error)
		.map((candidate) => (candidate as { code?: unknown }).code)
		.find((code): code is string => typeof code === 'string');
}

export function networkCodeOf(chain: object[]): string | undefined {
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

export function errorChain(error: unknown): object[] {
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

/** Accept, the request's own headers, and Content-Type when a JSON body goes with it. */
export function outgoingHeaders(request: NexthinkRequest): Record<string, string> {
	const headers: Record<string, string> = { Accept: request.accept ?? 'application/json', ...request.headers };
	if (request.body !== undefined) headers['Content-Type'] = 'application/json';
	return headers;
}

/** Every header value is sent byte for byte or not at all: U+0020–U+007E and U+0080–U+00FF, no space at either end. */
const SENDABLE = /^(?:[\x21-\x7e\x80-\xff](?:[\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/** Why a header cannot go out as it is, naming it; undefined when every value is sent byte for byte. */
export function unsendableHeader(headers: Record<string, string>): string | undefined {
	for (const [name, value] of Object.entries(headers)) {
		if (typeof value !== 'string') return `the ${name} header is not text`;
		if (SENDABLE.test(value)) continue;
		const characters = [...value];
		const bad = characters.findIndex((character, index) => !characterSendable(character, index === 0 || index === characters.length - 1));
		const codePoint = characters[bad].codePointAt(0) ?? 0;
		const code = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
		const why =
			codePoint === 0x20
				? 'a space at its start or end, which HTTP drops'
				: codePoint > 0xff
					? `a character outside Latin-1 (${code}) at character ${bad + 1}, which the HTTP client would drop`
					: `a control character (${code}) at character ${bad + 1}, which a header cannot carry`;
		return `the ${name} header's value has ${why}`;
	}
	return undefined;
}

function characterSendable(character: string, atEnd: boolean): boolean {
	const codePoint = character.codePointAt(0) ?? 0;
	if (codePoint === 0x20) return !atEnd;
	return (codePoint > 0x20 && codePoint < 0x7f) || (codePoint >= 0x80 && codePoint <= 0xff);
}
