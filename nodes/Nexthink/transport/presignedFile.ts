/**
 * Fetches a pre-signed results-file URL: the one request sent with the plain `httpRequest` helper and
 * no credential (storage refuses a second auth mechanism), following redirects, with "Ignore SSL
 * Issues" (docs/decisions.md, "Redirects of the results-file download"). The body comes as a stream;
 * a non-200 with its short body as scrubbed text; no answer as `network` (the caller may refresh the
 * URL and try once more).
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { cancelSignalOf, errorCodeOf } from './hostCompat';
import { credentialOf } from './request';
import type { NexthinkContext } from './types';
import { readShortText } from './streamedBodies';
import { scrubText, secretForms } from './secretScrub';

/** Most characters of a refusal's body kept for the message (storage errors are short XML). */
const REFUSAL_BODY_MAX_CHARS = 4096;

export type PresignedFileResult =
	| { kind: 'file'; headers: Record<string, string>; body: AsyncIterable<Uint8Array> }
	| { kind: 'refused'; statusCode: number; bodyText: string }
	| { kind: 'network'; code: string | undefined };

export async function fetchPresignedFile(
	ctx: NexthinkContext,
	url: string,
	timeoutMs: number | undefined,
): Promise<PresignedFileResult> {
	// for "Ignore SSL Issues" (none: certificates checked) and the secrets to scrub
	const credentials = await credentialOf(ctx);
	const options: IHttpRequestOptions = {
		method: 'GET',
		url,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: timeoutMs,
		abortSignal: cancelSignalOf(ctx),
		skipSslCertificateValidation: credentials.ignoreSslIssues === true,
	};
	let response: { statusCode?: number; headers?: Record<string, unknown>; body?: unknown };
	try {
		response = await ctx.helpers.httpRequest(options);
	} catch (error) {
		return { kind: 'network', code: errorCodeOf(error) };
	}
	const body = response.body as AsyncIterable<Uint8Array>;
	const headers = Object.fromEntries(Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
	if (response.statusCode !== 200) {
		const bodyText = scrubText(await readShortText(body, REFUSAL_BODY_MAX_CHARS), secretForms(credentials));
		return { kind: 'refused', statusCode: response.statusCode ?? 0, bodyText };
	}
	return { kind: 'file', headers, body };
}

/** True for errors of a download stream that broke (as opposed to bad content). */
export function isInterruptedDownload(error: unknown): boolean {
	const code = errorCodeOf(error);
	if (code !== undefined && /^(ECONNRESET|ECONNABORTED|ETIMEDOUT|EPIPE|ERR_STREAM_PREMATURE_CLOSE|UND_ERR_SOCKET)$/.test(code)) return true;
	const message = (error as { message?: unknown })?.message;
	return typeof message === 'string' && /^(aborted|socket hang up|premature close)$/i.test(message);
}
