/**
 * Decodes a stream of UTF-8 bytes into text with one streaming `TextDecoder`, so a character split
 * across chunk boundaries is decoded whole. Each input chunk gives one array of text pieces, in
 * order: lines with characters beyond U+00FF are decoded apart from the rest (see wideLines.ts), so
 * most of the text stays one-byte, and handing over a chunk's pieces together costs one step of the
 * async iteration per chunk rather than per piece (a dense file has hundreds of pieces per chunk).
 *
 * Invalid UTF-8 is an error, never a replacement character: a wrong byte means the file is not what
 * it claims to be (for example compressed data that was not recognised). A leading byte order mark
 * is removed.
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
