/**
 * Splits a chunk of UTF-8 bytes so that lines holding characters beyond U+00FF are decoded apart
 * from the rest.
 *
 * Why: V8 stores a string with one byte per character when every character is at most U+00FF
 * (ASCII and Latin-1: `Zürich`, `São Paulo`), and with two bytes per character otherwise. Decoding a
 * whole 64 KiB chunk that holds a single `東京` makes the entire chunk a two-byte string, and the row
 * values sliced out of it keep it alive for as long as the items live. With a million rows that
 * doubles the memory of the decoded text. Decoding the lines with such characters on their own keeps
 * every other line one-byte.
 *
 * Contract: the pieces, concatenated, are exactly the chunk. Cuts are made only right after a line
 * feed (a byte that never occurs inside a multi-byte UTF-8 sequence), so a streaming decoder fed the
 * pieces in order decodes the same text as from the whole chunk. A chunk without such characters is
 * returned as one piece.
 */

const LINE_FEED = 0x0a;

/** The smallest lead byte of a UTF-8 sequence encoding a character above U+00FF (U+0100 is C4 80). */
const FIRST_WIDE_LEAD_BYTE = 0xc4;

export function splitWideLines(chunk: Uint8Array): Uint8Array[] {
	let wide = findWideLeadByte(chunk, 0);
	if (wide === -1) return [chunk];
	const pieces: Uint8Array[] = [];
	let pieceStart = 0;
	while (wide !== -1) {
		// A run of consecutive lines with wide characters becomes one piece.
		const runStart = lineStartOf(chunk, wide);
		let runEnd = lineEndOf(chunk, wide);
		wide = findWideLeadByte(chunk, runEnd);
		while (wide !== -1 && lineStartOf(chunk, wide) === runEnd) {
			runEnd = lineEndOf(chunk, wide);
			wide = findWideLeadByte(chunk, runEnd);
		}
		if (runStart > pieceStart) pieces.push(chunk.subarray(pieceStart, runStart));
		pieces.push(chunk.subarray(runStart, runEnd));
		pieceStart = runEnd;
	}
	if (pieceStart < chunk.length) pieces.push(chunk.subarray(pieceStart));
	return pieces;
}

function lineStartOf(chunk: Uint8Array, index: number): number {
	return chunk.lastIndexOf(LINE_FEED, index) + 1;
}

/** Just after the line feed ending the line at `index`, or the chunk's end. */
function lineEndOf(chunk: Uint8Array, index: number): number {
	const lineFeed = chunk.indexOf(LINE_FEED, index);
	return lineFeed === -1 ? chunk.length : lineFeed + 1;
}

/** Index of the first byte at or after `from` that starts a character above U+00FF, or -1. */
function findWideLeadByte(chunk: Uint8Array, from: number): number {
	for (let index = from; index < chunk.length; index++) {
		if (chunk[index] >= FIRST_WIDE_LEAD_BYTE) return index;
	}
	return -1;
}
