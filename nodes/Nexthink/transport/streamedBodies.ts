/**
 * Small helpers for response bodies that arrive as byte streams (`encoding: 'stream'`): reading
 * the start of one for a message, and closing one that is not wanted. Leaving a body unread keeps
 * its connection busy until the server gives up, so every streamed body is read or closed.
 */

export function isByteStream(body: unknown): body is AsyncIterable<Uint8Array> {
	return typeof body === 'object' && body !== null && typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/** Stops reading a streamed body that is not wanted, which frees its connection; other bodies are left alone. */
export async function closeBody(body: unknown): Promise<void> {
	if (isByteStream(body)) await readShortText(body, 0);
}

/**
 * The first `limit` characters of a byte stream, then stops reading it (stopping an iteration closes
 * the stream). A stream that breaks gives what arrived before: the refusal itself is what matters.
 */
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
