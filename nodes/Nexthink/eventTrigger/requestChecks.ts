/**
 * What a call must be before its body is read: a method of the channel, a content type that can
 * carry JSON, and a size within the trigger's limit. Each refusal has its HTTP status and a text
 * that says what to change; the trigger answers it without starting the workflow.
 */
import { MB } from '../results/limits';

export interface Refusal {
	status: number;
	error: string;
	message: string;
	headers?: Record<string, string>;
}

/** Methods per channel: webhooks use POST, PUT or PATCH (documented); an exporter POSTs (others accepted, unknown); a thinklet may use all five. */
export const CHANNEL_METHODS = {
	webhook: ['POST', 'PUT', 'PATCH'],
	dataExporter: ['POST', 'PUT', 'PATCH'],
	workflowCall: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
};

export type Channel = keyof typeof CHANNEL_METHODS;

/** Every method the trigger registers with n8n (one webhook each, on the same path). */
export const ALL_METHODS = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE'] as const;

export function checkMethod(channel: Channel, method: string): Refusal | undefined {
	const allowed = CHANNEL_METHODS[channel];
	if (allowed.includes(method.toUpperCase())) return undefined;
	return {
		status: 405,
		error: 'method_not_allowed',
		message: `This trigger takes ${allowed.join(', ')} calls, not ${method.toUpperCase()}`,
		headers: { allow: allowed.join(', ') },
	};
}

/** Content types that cannot hold a JSON body. A missing type, any JSON or NDJSON type, text and octet streams are read as JSON. */
const NOT_JSON = /^(multipart\/|application\/x-www-form-urlencoded|text\/html|text\/xml|application\/xml|image\/|audio\/|video\/|font\/)|\+xml$/;

export function checkContentType(contentType: string | undefined): Refusal | undefined {
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	if (type === '' || !NOT_JSON.test(type)) return undefined;
	return {
		status: 400,
		error: 'unsupported_content_type',
		message: `The body must be JSON (application/json, NDJSON or text), not ${type}`,
	};
}

/** Refuses a body over the limit: its declared `Content-Length`, before anything is read. */
export function checkDeclaredSize(contentLength: string | string[] | undefined, limitBytes: number): Refusal | undefined {
	if (typeof contentLength !== 'string' || !/^\d+$/.test(contentLength.trim())) return undefined;
	return checkReadSize(Number(contentLength), limitBytes);
}

/** Refuses a body over the limit: as read (a chunked call has no Content-Length). */
export function checkReadSize(byteLength: number, limitBytes: number): Refusal | undefined {
	if (byteLength <= limitBytes) return undefined;
	return {
		status: 413,
		error: 'payload_too_large',
		message: `The body is larger than this trigger's limit of ${Number((limitBytes / MB).toPrecision(3))} MB (Maximum Body Size)`,
	};
}

/** n8n refused to read the body: over N8N_PAYLOAD_SIZE_MAX (raw-body's 413), or the call broke off. */
export function readFailure(error: unknown): Refusal {
	const status = typeof error === 'object' && error !== null ? Number((error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode) : NaN;
	if (status === 413) {
		return {
			status: 413,
			error: 'payload_too_large',
			message: "The body is larger than n8n's payload limit (N8N_PAYLOAD_SIZE_MAX, 16 MiB unless raised)",
		};
	}
	return { status: 400, error: 'unreadable_body', message: 'The body could not be read (the call ended early or its Content-Encoding is not gzip or deflate)' };
}

/** The JSON answer of a refusal: flat, so a Nexthink workflow reads `$.status` and `$.error`. */
export function refusalBody(refusal: Refusal): { status: 'error'; error: string; message: string } {
	return { status: 'error', error: refusal.error, message: refusal.message };
}
