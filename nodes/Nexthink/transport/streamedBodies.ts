/**
 * Small helpers for response bodies, most for byte streams (`encoding: 'stream'`): bounding one's
 * size while it arrives, reading one (or its start) as text, and closing one that is not wanted (an
 * unread body keeps its connection busy). Its time is bounded by timedAnswer.ts.
 */
import { parseJson } from '../shared/jsonValues';

export function isByteStream(body: unknown): body is AsyncIterable<Uint8Array> {
	return typeof body === 'object' && body !== null && typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/** Stops reading a streamed body that is not wanted, which frees its connection; other bodies are left alone. */
export async function closeBody(body: unknown): Promise<void> {
	if (isByteStream(body)) await readShortText(body, 0);
}

/** The first `limit` characters of a byte stream, then closes it; a stream that breaks gives what arrived. */
export async function readShortText(body: AsyncIterable<Uint8Array> | undefined | null, limit: number): Promise<string> {
	if (body === undefined || body === null) return '';
	const decoder = new TextDecoder();
	let text = '';
	try {
		for await (const chunk of body) {
			if (text.length >= limit) break;
			text += decoder.decode(chunk, { stream: true });
		}
	} catch {
		// what arrived is all there is to quote
	}
	return text.slice(0, limit);
}

/** The body's bytes as they arrive (counted inflated), failing with `tooLarge()` past `maxBytes` (0: no limit). */
export async function* boundedBody(body: AsyncIterable<Uint8Array>, maxBytes: number, tooLarge: () => Error): AsyncGenerator<Uint8Array, void, undefined> {
	let received = 0;
	for await (const chunk of body) {
		received += chunk.length;
		if (maxBytes > 0 && received > maxBytes) throw tooLarge();
		yield chunk;
	}
}

/** A body as JSON: text parsed (undefined when it is not JSON), an already parsed value as it is. */
export function parsedBody(body: unknown): unknown {
	return typeof body === 'string' ? parseJson(body).value : body;
}

/** All of a (bounded) body as text, decoded as UTF-8. */
export async function bodyText(body: AsyncIterable<Uint8Array>): Promise<string> {
	const decoder = new TextDecoder();
	const parts: string[] = [];
	for await (const chunk of body) parts.push(decoder.decode(chunk, { stream: true }));
	parts.push(decoder.decode());
	return parts.join('');
}
