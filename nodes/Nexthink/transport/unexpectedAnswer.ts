/**
 * Words for an answer that has a success status but not the body the API documents: status,
 * content type and host, never the request nor the body (docs/decisions.md, "A 2xx that is not the
 * documented answer").
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { upperFirst } from '../shared/wording';

export interface AnswerOrigin {
	statusCode: number;
	/** Lower-case header names, as the transport returns them. */
	headers?: Record<string, string>;
	/** Host (and port) the request went to. */
	host?: string;
}

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

/** The host of a URL, without user name or password; '' when it is not a URL. */
export function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return '';
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
