/**
 * Decodes a stream of UTF-8 bytes into text with one streaming `TextDecoder` (a character split
 * across chunks is decoded whole), one array of text pieces per chunk: fields holding characters
 * beyond U+00FF are decoded apart from the rest, so every other value stays a one-byte V8 string
 * (half the memory of the values copied from it): docs/decisions.md, "Memory of row values".
 * Invalid UTF-8 is an error, never a replacement character; a leading byte order mark is removed.
 */

export class Utf8DecodeError extends Error {
	constructor(detail: string) {
		super(`The results file is not valid UTF-8 text: ${detail}`);
		this.name = 'Utf8DecodeError';
	}
}

export async function* decodeUtf8(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string[], void, undefined> {
	const decoder = new TextDecoder('utf-8', { fatal: true });
	let offset = 0;
	for await (const chunk of chunks) {
		const texts: string[] = [];
		for (const piece of splitWideFields(chunk)) {
			const text = decode(decoder, piece, offset);
			offset += piece.length;
			if (text !== '') texts.push(text);
		}
		if (texts.length > 0) yield texts;
	}
	const rest = decode(decoder, undefined, offset);
	if (rest !== '') yield [rest];
}

/** Decodes the next chunk, found at `offset` (`undefined`: flush at the end); fails on bytes that are not valid UTF-8. */
function decode(decoder: InstanceType<typeof TextDecoder>, chunk: Uint8Array | undefined, offset: number): string {
	try {
		return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
	} catch {
		// not valid UTF-8: thrown below, out of the catch, where n8n's lint expects a node error
	}
	throw new Utf8DecodeError(
		chunk === undefined
			? 'the text ends in the middle of a character (truncated file?)'
			: `invalid byte sequence between byte ${offset} and byte ${offset + chunk.length}`,
	);
}

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const COMMA = 0x2c;
const QUOTE = 0x22;

/** The smallest lead byte of a UTF-8 sequence encoding a character above U+00FF (U+0100 is C4 80). */
const FIRST_WIDE_LEAD_BYTE = 0xc4;

/**
 * The chunk in pieces, so that only the values holding characters beyond U+00FF become two-byte
 * strings: in a line with such characters, the span from the first field holding one to the last is a
 * piece, and so is the rest of the line (where a quote is in the way, the span reaches the line's start
 * or end; at most three pieces per line): docs/decisions.md, "Row items without copies; wide fields, not
 * wide lines". Contract: the pieces, concatenated, are exactly the chunk, cut only after an ASCII byte
 * (never inside a UTF-8 sequence); a chunk that neither holds such characters nor starts inside a
 * character is one piece.
 */
export function splitWideFields(chunk: Uint8Array): Uint8Array[] {
	const words = alignedWords(chunk);
	// A chunk that starts inside a character may complete a wide one: its first field is cut out too.
	let wide = (chunk[0] & 0xc0) === 0x80 ? 0 : findWideLeadByte(chunk, words, 0);
	if (wide === -1) return [chunk];
	const pieces: Uint8Array[] = [];
	let pieceStart = 0;
	/** Where the last piece, a wide span, starts; -1 when the last piece is narrow. */
	let wideStart = -1;
	while (wide !== -1) {
		const lineEnd = lineEndOf(chunk, wide);
		let spanStart = fieldStartOf(chunk, wide, pieceStart);
		let spanEnd: number;
		if (spanStart === -1) {
			spanStart = Math.max(pieceStart, chunk.lastIndexOf(LINE_FEED, wide) + 1);
			spanEnd = lineEnd;
		} else {
			spanEnd = fieldEndOf(chunk, wide, lineEnd);
		}
		wide = findWideLeadByte(chunk, words, spanEnd);
		while (wide !== -1 && wide < lineEnd) {
			spanEnd = fieldEndOf(chunk, wide, lineEnd);
			wide = findWideLeadByte(chunk, words, spanEnd);
		}
		if (spanStart > pieceStart) {
			pieces.push(chunk.subarray(pieceStart, spanStart));
			wideStart = -1;
		}
		if (wideStart === -1) {
			pieces.push(chunk.subarray(spanStart, spanEnd));
			wideStart = spanStart;
		} else {
			pieces[pieces.length - 1] = chunk.subarray(wideStart, spanEnd);
		}
		pieceStart = spanEnd;
		if (lineEnd > spanEnd) {
			// The rest of the line apart from the lines after it.
			pieces.push(chunk.subarray(spanEnd, lineEnd));
			pieceStart = lineEnd;
			wideStart = -1;
		}
	}
	if (pieceStart < chunk.length) pieces.push(chunk.subarray(pieceStart));
	return pieces;
}

/** Just after the comma or line break before `index` (at least `floor`), or -1 when a quote comes first. */
function fieldStartOf(chunk: Uint8Array, index: number, floor: number): number {
	for (let at = index - 1; at >= floor; at--) {
		const byte = chunk[at];
		if (byte === COMMA || byte === LINE_FEED || byte === CARRIAGE_RETURN) return at + 1;
		if (byte === QUOTE) return -1;
	}
	return floor;
}

/** Just after the comma after `index`, else `lineEnd` (also when a quote or line break comes first). */
function fieldEndOf(chunk: Uint8Array, index: number, lineEnd: number): number {
	for (let at = index + 1; at < lineEnd; at++) {
		const byte = chunk[at];
		if (byte === COMMA) return at + 1;
		if (byte === QUOTE || byte === LINE_FEED || byte === CARRIAGE_RETURN) return lineEnd;
	}
	return lineEnd;
}

/** Just after the line feed ending the line at `index`, or the chunk's end. */
function lineEndOf(chunk: Uint8Array, index: number): number {
	const lineFeed = chunk.indexOf(LINE_FEED, index);
	return lineFeed === -1 ? chunk.length : lineFeed + 1;
}

/** The chunk's bytes as 32-bit words, for the whole words it holds; `first` is the byte index of word 0. */
function alignedWords(chunk: Uint8Array) {
	const first = (4 - (chunk.byteOffset % 4)) % 4;
	const count = chunk.length > first ? Math.floor((chunk.length - first) / 4) : 0;
	return { first, words: new Uint32Array(chunk.buffer, chunk.byteOffset + first, count) };
}

/**
 * Index of the first byte at or after `from` that starts a character above U+00FF, or -1.
 *
 * Four bytes are tested at a time: `(w & 0x7f7f7f7f) + 0x3c3c3c3c` sets a byte's top bit when its
 * low seven bits are 0x44 or more (no carry can cross into the next byte), and masking that with the
 * word's own top bits leaves exactly the bytes that are 0xc4 or more.
 */
function findWideLeadByte(chunk: Uint8Array, aligned: ReturnType<typeof alignedWords>, from: number): number {
	const { first, words } = aligned;
	const wordsEnd = first + words.length * 4;
	let index = from;
	// bytes before the first whole word at or after `from`
	const headEnd = index < first ? first : index + ((4 - ((index - first) % 4)) % 4);
	for (; index < headEnd && index < chunk.length; index++) {
		if (chunk[index] >= FIRST_WIDE_LEAD_BYTE) return index;
	}
	for (let word = (index - first) >> 2; index < wordsEnd; word++, index += 4) {
		const value = words[word];
		if ((((value & 0x7f7f7f7f) + 0x3c3c3c3c) & value & 0x80808080) !== 0) {
			for (let byte = index; byte < index + 4; byte++) if (chunk[byte] >= FIRST_WIDE_LEAD_BYTE) return byte;
		}
	}
	for (; index < chunk.length; index++) {
		if (chunk[index] >= FIRST_WIDE_LEAD_BYTE) return index;
	}
	return -1;
}
