/**
 * Turns a failed call into an error a workflow builder can act on, built from the sanitised body only
 * (docs/decisions.md, "Credential and transport", Errors); a 2xx that is not the documented answer is
 * named by its status, content type and host ("A 2xx that is not the documented answer").
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { upperFirst } from '../shared/wording';
import { parsedBody } from './streamedBodies';
import type { NexthinkRequest, NexthinkResponse } from './types';

export type StatusHints = Partial<Record<number, string>>;

/** Per status: the words used when the API sent no message, and the default hint. */
const DEFAULT_HINTS: Record<number, [words: string, hint: string]> = {
	400: ['Bad request', 'The API rejected the request as invalid. The message above says which part.'],
	401: ['Unauthorized', 'Nexthink did not accept the credential even after a fresh token was fetched. Check the client ID and secret, and that the API credential still exists in Nexthink.'],
	403: ['Forbidden', 'The API credential is missing a permission: the "NQL API" permission to run queries and exports, or the "Enrichment API" permission to enrich objects (Administration > API credentials).'],
	404: ['Not found', 'Nexthink does not know this query or export ID.'],
	406: ['Not acceptable', 'The API cannot answer in the requested format.'],
	429: ['Too many requests', 'Nexthink reports that the daily request limit was reached.'],
	500: ['Internal server error', 'Nexthink had an internal error. Retrying later usually helps.'],
	502: ['Bad gateway', 'A gateway in front of Nexthink failed. Retrying later usually helps.'],
	503: ['Service unavailable', 'The Nexthink service is unavailable at the moment. Retrying later usually helps.'],
	504: ['Gateway timeout', 'A gateway in front of Nexthink timed out. Retrying later usually helps.'],
};

/** `message`, `code`, `source` of an API error body; the Workflows API's `details` stands in for `message`. */
export function readApiErrorBody(body: unknown): { message?: string; code?: string | number; source?: string } {
	const parsed = parsedBody(body);
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
	const { message, details, code, source } = parsed as Record<string, unknown>;
	const text = typeof message === 'string' && message !== '' ? message : typeof details === 'string' && details !== '' ? details : undefined;
	return {
		message: text,
		code: typeof code === 'string' || typeof code === 'number' ? code : undefined,
		source: typeof source === 'string' && source !== '' ? source : undefined,
	};
}

/** `action`: what was being done, the start of the message; `extra`: sentences after the hint (e.g. when to retry after a 429). */
export function apiError(
	node: INode,
	response: Pick<NexthinkResponse, 'statusCode' | 'body'>,
	request: Pick<NexthinkRequest, 'hints' | 'itemIndex'>,
	action: string,
	extra: string[],
): NodeApiError {
	const apiBody = readApiErrorBody(response.body);
	const sanitised: JsonObject = { httpCode: String(response.statusCode) };
	if (apiBody.message !== undefined) sanitised.message = apiBody.message;
	if (apiBody.code !== undefined) sanitised.code = apiBody.code;
	if (apiBody.source !== undefined) sanitised.source = apiBody.source;

	const detail = apiBody.message ?? DEFAULT_HINTS[response.statusCode]?.[0] ?? upperFirst(UNEXPECTED_ANSWER);
	const codeAndSource = [
		apiBody.code !== undefined ? `code ${apiBody.code}` : undefined,
		apiBody.source !== undefined ? `source ${apiBody.source}` : undefined,
	].filter(Boolean);
	const message = `${action} failed (HTTP ${response.statusCode}): ${detail}${codeAndSource.length ? ` [${codeAndSource.join(', ')}]` : ''}`;
	const hint = request.hints?.[response.statusCode] ?? DEFAULT_HINTS[response.statusCode]?.[1] ?? '';
	const description = [hint, ...extra].filter((part) => part !== '').join(' ');

	return new NodeApiError(node, sanitised, {
		message,
		description: description === '' ? undefined : description,
		httpCode: String(response.statusCode),
		itemIndex: request.itemIndex,
	});
}

/**
 * Errors that say no complete answer arrived (timeout, refused or broken connection, a body cut off
 * by its time): `networkError`'s and timedAnswer.ts's. A poll with a deadline reads one as "the
 * wait ran out" when the deadline has come.
 */
const noAnswerErrors = new WeakSet<object>();

/** True for an error that says no complete answer arrived, as opposed to an HTTP status or a bad answer. */
export function isNoAnswerError(error: unknown): boolean {
	return typeof error === 'object' && error !== null && noAnswerErrors.has(error);
}

export function markedNoAnswer<E extends object>(error: E): E {
	noAnswerErrors.add(error);
	return error;
}

export function networkError(
	node: INode,
	action: string,
	code: string | undefined,
	attempts: number,
	itemIndex: number | undefined,
): NodeApiError {
	const reason = code === undefined ? 'connection failed' : TIMEOUT_CODES.has(code) ? `${code}: no answer in the time allowed` : code;
	const message = `${action} failed: could not get an answer from Nexthink (${reason}) after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
	const error = new NodeApiError(
		node,
		{ message: `Network error: ${reason}` },
		{
			message,
			description: tlsCertificateHint(code) ?? 'Check the network path to Nexthink (proxy, firewall, DNS) and the API base URL of the credential.',
			itemIndex,
		},
	);
	return markedNoAnswer(keepMessage(error, message));
}

/** Codes of a request cut off by its timeout (axios says ECONNABORTED, Node ETIMEDOUT). */
const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);

/** Puts the node's message back where NodeApiError replaced it (one naming an error code) by n8n's generic one. */
export function keepMessage(error: NodeApiError, message: string): NodeApiError {
	error.message = message;
	return error;
}

/** What to do when a TLS certificate was not accepted; undefined for other network errors. */
export function tlsCertificateHint(code: string | undefined): string | undefined {
	if (code === undefined || !TLS_ERROR_CODE.test(code)) return undefined;
	return 'The TLS certificate was not accepted. If a TLS-inspecting proxy (such as Zscaler) or a proxy with a self-signed certificate sits in between, switch on "Ignore SSL Issues" in the Nexthink API credential (insecure: certificates are then not checked).';
}

/**
 * A 3xx from the API (never followed): names the status and the redirect's host only, and what to
 * check. `requestUrl`: the URL that answered, to resolve a relative `Location` and name the API host.
 */
export function redirectError(
	node: INode,
	details: { statusCode: number; location: string | undefined; requestUrl: string; action: string; itemIndex?: number },
): NodeApiError {
	const target = hostOf(details.location, details.requestUrl);
	const apiHost = hostOf(details.requestUrl) || details.requestUrl;
	// no target: no usable Location, or n8n 1.x dropped the headers of an answer it threw
	const where = target === undefined ? 'whose target is not known' : target === apiHost ? `to ${target} (the same host)` : `to ${target}`;
	return new NodeApiError(
		node,
		{ httpCode: String(details.statusCode), message: `Redirect ${where}` },
		{
			message: `${details.action} failed: the API answered HTTP ${details.statusCode}, a redirect ${where}. Requests to the Nexthink API never follow redirects, so the token and the request stay with ${apiHost}`,
			description:
				'Check the API Base URL of the credential (or the instance name and region): it must be the address the API answers at, e.g. https://acme.api.eu.nexthink.cloud. If a proxy sits in between, it must forward requests instead of redirecting them. Nothing was done for this request.',
			httpCode: String(details.statusCode),
			itemIndex: details.itemIndex,
		},
	);
}

/** Codes Node.js gives a TLS certificate that was not accepted (self-signed, unknown issuer, expired, wrong host). */
export const TLS_ERROR_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/i;

export type AnswerOrigin = Pick<NexthinkResponse, 'statusCode' | 'host'> & Partial<Pick<NexthinkResponse, 'headers'>>;

/** The words for an answer that is not what the API documents, wherever the node names one. */
export const UNEXPECTED_ANSWER = 'unexpected answer';

/** Said with every unexpected answer: who may have answered, and what to check. One wording for every node. */
export const PROXY_MAY_HAVE_ANSWERED = 'A proxy or login page may have answered instead of Nexthink: check the API base URL of the credential.';

/** `unexpected answer (HTTP 200, text/html) from acme.api.eu.nexthink.cloud`; `Unexpected answer (…` at the start of a sentence. */
export function unexpectedAnswer(answer: AnswerOrigin, opensSentence = false): string {
	const contentType = mediaTypeOf(answer.headers?.['content-type']);
	const from = answer.host ? ` from ${answer.host}` : '';
	const words = opensSentence ? upperFirst(UNEXPECTED_ANSWER) : UNEXPECTED_ANSWER;
	return `${words} (HTTP ${answer.statusCode}, ${contentType === '' ? 'no content type' : contentType})${from}`;
}

/** `text/html` for `text/html; charset=utf-8`; '' when absent. */
export function mediaTypeOf(contentType: string | undefined): string {
	return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * The host (with port, without user name or password) of a URL, resolved against `base` when given
 * (a redirect's `Location` against the URL that answered it); undefined when it is not a URL.
 */
export function hostOf(url: string | undefined, base?: string): string | undefined {
	if (url === undefined || url === '') return undefined;
	try {
		return new URL(url, base).host;
	} catch {
		return undefined;
	}
}

/** The error of a 2xx whose body proves nothing; `note` says what may already have happened. */
export function unprovenAnswerError(ctx: { getNode(): INode }, message: string, answer: AnswerOrigin, itemIndex?: number, note?: string): NodeApiError {
	const httpCode = String(answer.statusCode);
	return new NodeApiError(
		ctx.getNode(),
		{ message: upperFirst(UNEXPECTED_ANSWER), httpCode },
		{ message, description: [PROXY_MAY_HAVE_ANSWERED, note].filter(Boolean).join(' '), httpCode, itemIndex },
	);
}

/**
 * The one rule for a write's 2xx (docs/decisions.md, "A write's 2xx"): words for a body that is
 * neither empty nor JSON (n8n hands JSON over parsed, other text as a string); undefined otherwise.
 */
export function notJsonBody(body: unknown): string | undefined {
	if (body === undefined || body === null) return undefined;
	if (typeof body !== 'string') return typeof body === 'object' && !isPlainData(body) ? 'a body that is not JSON' : undefined;
	if (body.trim() === '') return undefined;
	return /^\s*</.test(body) ? 'an HTML page' : 'text that is not JSON';
}

/** A value JSON can give: an object or a list (a stream or a buffer is not). */
function isPlainData(body: object): boolean {
	if (Array.isArray(body)) return true;
	const prototype = Object.getPrototypeOf(body) as unknown;
	return prototype === Object.prototype || prototype === null;
}
