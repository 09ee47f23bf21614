/**
 * Decodes a stream of UTF-8 bytes into text with one streaming `TextDecoder` (a character split
 * across chunks is decoded whole), one array of text pieces per chunk (wideLines.ts says why).
 * Invalid UTF-8 is an error, never a replacement character; a leading byte order mark is removed.
 */

import { splitWideLines } from './wideLines';

export class Utf8DecodeError extends Error {
	/** Offset, in the decompressed bytes, of the chunk that held the invalid sequence. */
	readonly byteOffset: number;

	constructor(detail: string, byteOffset: number) {
		super(`The results file is not valid UTF-8 text: ${detail}`);
		this.name = 'Utf8DecodeError';
		this.byteOffset = byteOffset;
	}
}

export async function* decodeUtf8(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string[], void, undefined> {
	const decoder = new TextDecoder('utf-8', { fatal: true });
	let offset = 0;
	for await (const chunk of chunks) {
		const texts: string[] = [];
		for (const piece of splitWideLines(chunk)) {
			const text = tryDecode(decoder, piece);
			if (text === undefined) {
				throw new Utf8DecodeError(`invalid byte sequence between byte ${offset} and byte ${offset + piece.length}`, offset);
			}
			offset += piece.length;
			if (text !== '') texts.push(text);
		}
		if (texts.length > 0) yield texts;
	}
	const rest = tryDecode(decoder, undefined);
	if (rest === undefined) throw new Utf8DecodeError('the text ends in the middle of a character (truncated file?)', offset);
	if (rest !== '') yield [rest];
}

/** Decodes the next chunk (`undefined`: flush at the end); `undefined` when the bytes are not valid UTF-8. */
function tryDecode(decoder: InstanceType<typeof TextDecoder>, chunk: Uint8Array | undefined): string | undefined {
	try {
		return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
	} catch {
		return undefined;
	}
}
