/**
 * Turns a failed call into an error a workflow builder can act on: the API's `message`, `code` and
 * `source`, and a hint per status. Only the sanitised body reaches n8n's error classes, never the
 * request options (docs/decisions.md, "Credential and transport", Errors).
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { redirectTargetHost, TLS_ERROR_CODE } from './tokenExchange';
import { upperFirst } from '../shared/wording';
import { tryParseJson } from './streamedBodies';
import { hostOf, UNEXPECTED_ANSWER } from './unexpectedAnswer';

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
export interface ApiErrorBody {
	message?: string;
	code?: string | number;
	source?: string;
}

export function readApiErrorBody(body: unknown): ApiErrorBody {
	const parsed = typeof body === 'string' ? tryParseJson(body) : body;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
	const { message, details, code, source } = parsed as Record<string, unknown>;
	const text = typeof message === 'string' && message !== '' ? message : typeof details === 'string' && details !== '' ? details : undefined;
	return {
		message: text,
		code: typeof code === 'string' || typeof code === 'number' ? code : undefined,
		source: typeof source === 'string' && source !== '' ? source : undefined,
	};
}

export interface ApiErrorDetails {
	statusCode: number;
	body: unknown;
	/** What was being done, e.g. "Starting the export": the start of the message. */
	action: string;
	hints?: StatusHints;
	/** Appended to the hint, e.g. when to retry after a 429. */
	extra?: string;
	itemIndex?: number;
}

export function apiError(node: INode, details: ApiErrorDetails): NodeApiError {
	const apiBody = readApiErrorBody(details.body);
	const sanitised: JsonObject = { httpCode: String(details.statusCode) };
	if (apiBody.message !== undefined) sanitised.message = apiBody.message;
	if (apiBody.code !== undefined) sanitised.code = apiBody.code;
	if (apiBody.source !== undefined) sanitised.source = apiBody.source;

	const detail = apiBody.message ?? DEFAULT_HINTS[details.statusCode]?.[0] ?? upperFirst(UNEXPECTED_ANSWER);
	const codeAndSource = [
		apiBody.code !== undefined ? `code ${apiBody.code}` : undefined,
		apiBody.source !== undefined ? `source ${apiBody.source}` : undefined,
	].filter(Boolean);
	const message = `${details.action} failed (HTTP ${details.statusCode}): ${detail}${codeAndSource.length ? ` [${codeAndSource.join(', ')}]` : ''}`;
	const hint = details.hints?.[details.statusCode] ?? DEFAULT_HINTS[details.statusCode]?.[1] ?? '';
	const description = [hint, details.extra].filter((part) => part !== undefined && part !== '').join(' ');

	return new NodeApiError(node, sanitised, {
		message,
		description: description === '' ? undefined : description,
		httpCode: String(details.statusCode),
		itemIndex: details.itemIndex,
	});
}

/** Errors made by `networkError`: no answer arrived (timeout, refused or broken connection). */
const noAnswerErrors = new WeakSet<object>();

/** True for an error that says no answer arrived, as opposed to an HTTP status or a bad answer. */
export function isNoAnswerError(error: unknown): boolean {
	return typeof error === 'object' && error !== null && noAnswerErrors.has(error);
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
	keepMessage(error, message);
	noAnswerErrors.add(error);
	return error;
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

export interface RedirectDetails {
	statusCode: number;
	location: string | undefined;
	/** The URL that answered, to resolve a relative `Location` and name the API host. */
	requestUrl: string;
	action: string;
	itemIndex?: number;
}

/** A 3xx from the API (never followed): names the status and the redirect's host only, and what to check. */
export function redirectError(node: INode, details: RedirectDetails): NodeApiError {
	const target = redirectTargetHost(details.location, details.requestUrl);
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
