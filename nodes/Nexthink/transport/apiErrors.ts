/**
 * Turns a failed call into an error a workflow builder can act on: the API's own `message`, `code`
 * and `source` when it sent them, and a plain-language hint per status. Only the sanitised body is
 * handed to n8n's error classes: request options (with the bearer token) never reach an error.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export type StatusHints = Partial<Record<number, string>>;

const DEFAULT_HINTS: Record<number, string> = {
	400: 'The API rejected the request as invalid. The message above says which part.',
	401: 'Nexthink did not accept the credential even after a fresh token was fetched. Check the client ID and secret, and that the API credential still exists in Nexthink.',
	403: 'The API credential is missing a permission: the "NQL API" permission to run queries and exports, or the "Enrichment API" permission to enrich objects (Administration > API credentials).',
	404: 'Nexthink does not know this query or export ID.',
	406: 'The API cannot answer in the requested format.',
	429: 'Nexthink reports that the daily request limit was reached.',
	500: 'Nexthink had an internal error. Retrying later usually helps.',
	502: 'A gateway in front of Nexthink failed. Retrying later usually helps.',
	503: 'The Nexthink service is unavailable at the moment. Retrying later usually helps.',
	504: 'A gateway in front of Nexthink timed out. Retrying later usually helps.',
};

/** The parts of an API error body the spec defines (`message`, `code`, `source`). */
export interface ApiErrorBody {
	message?: string;
	code?: string | number;
	source?: string;
}

export function readApiErrorBody(body: unknown): ApiErrorBody {
	const parsed = typeof body === 'string' ? tryParseJson(body) : body;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
	const { message, code, source } = parsed as Record<string, unknown>;
	return {
		message: typeof message === 'string' && message !== '' ? message : undefined,
		code: typeof code === 'string' || typeof code === 'number' ? code : undefined,
		source: typeof source === 'string' && source !== '' ? source : undefined,
	};
}

export interface ApiErrorDetails {
	statusCode: number;
	body: unknown;
	/** What was being done, e.g. "Starting the export", used as the start of the message. */
	action: string;
	hints?: StatusHints;
	/** Extra sentence appended to the hint, e.g. when to retry after a 429. */
	extra?: string;
	itemIndex?: number;
}

export function apiError(node: INode, details: ApiErrorDetails): NodeApiError {
	const apiBody = readApiErrorBody(details.body);
	const sanitised: JsonObject = { httpCode: String(details.statusCode) };
	if (apiBody.message !== undefined) sanitised.message = apiBody.message;
	if (apiBody.code !== undefined) sanitised.code = apiBody.code;
	if (apiBody.source !== undefined) sanitised.source = apiBody.source;

	const detail = apiBody.message ?? statusText(details.statusCode);
	const codeAndSource = [
		apiBody.code !== undefined ? `code ${apiBody.code}` : undefined,
		apiBody.source !== undefined ? `source ${apiBody.source}` : undefined,
	].filter(Boolean);
	const message = `${details.action} failed (HTTP ${details.statusCode}): ${detail}${codeAndSource.length ? ` [${codeAndSource.join(', ')}]` : ''}`;
	const hint = details.hints?.[details.statusCode] ?? DEFAULT_HINTS[details.statusCode] ?? '';
	const description = [hint, details.extra].filter((part) => part !== undefined && part !== '').join(' ');

	return new NodeApiError(node, sanitised, {
		message,
		description: description === '' ? undefined : description,
		httpCode: String(details.statusCode),
		itemIndex: details.itemIndex,
	});
}

export function networkError(
	node: INode,
	action: string,
	code: string | undefined,
	attempts: number,
	itemIndex: number | undefined,
): NodeApiError {
	const reason = code ?? 'connection failed';
	return new NodeApiError(
		node,
		{ message: `Network error: ${reason}`, code: reason },
		{
			message: `${action} failed: could not get an answer from Nexthink (${reason}) after ${attempts} attempt${attempts === 1 ? '' : 's'}`,
			description: 'Check the network path to Nexthink (proxy, firewall, DNS) and the API base URL of the credential.',
			itemIndex,
		},
	);
}

function statusText(statusCode: number): string {
	const texts: Record<number, string> = {
		400: 'Bad request',
		401: 'Unauthorized',
		403: 'Forbidden',
		404: 'Not found',
		406: 'Not acceptable',
		429: 'Too many requests',
		500: 'Internal server error',
		502: 'Bad gateway',
		503: 'Service unavailable',
		504: 'Gateway timeout',
	};
	return texts[statusCode] ?? 'Unexpected answer';
}

function tryParseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
