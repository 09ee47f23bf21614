/**
 * Backward bit readers. Backward streams (RFC 8878 §4.1, §4.2.2: FSE and Huffman data) are read from the end,
 * below a 1-bit end marker: as one little-endian integer, n bits read with `bitsLeft` left are bits
 * [bitsLeft - n, bitsLeft); bits below the start read as zeros and leave `bitsLeft` negative, which
 * callers check (a stream is consumed exactly). A read is one unaligned 32-bit load, a shift and a mask:
 * no refill branch, whose outcome the CPU cannot predict. Callers guarantee 4 readable bytes past every
 * stream (the decoder pads its staged blocks).
 */

const EMPTY_VIEW: DataView = new DataView(new ArrayBuffer(0));

/**
 * Bits below the end marker of the backward stream data[start, end); -1 if the stream is empty or its
 * last byte, which must hold the marker, is zero.
 */
export function backwardStreamBits(data: Uint8Array, start: number, end: number): number {
	if (end <= start || data[end - 1] === 0) return -1;
	return (end - start - 1) * 8 + (31 - Math.clz32(data[end - 1]));
}

/**
 * Bits [bitsLeft - n, bitsLeft) of the backward stream starting at byte `start` of `view`, for 0 <= n <= 31,
 * with zeros for bits below the stream start. The hot loops inline the first branch for n <= 25.
 */
export function readBackwardBits(view: DataView, start: number, bitsLeft: number, n: number): number {
	const position = bitsLeft - n;
	if (position >= 0) {
		if (n <= 25) return (view.getInt32(start + (position >>> 3), true) >>> (position & 7)) & ((1 << n) - 1);
		// A 32-bit load holds at least 25 bits at any alignment: wider fields take two.
		const high = readBackwardBits(view, start, bitsLeft, n - 16);
		return high * 65536 + readBackwardBits(view, start, bitsLeft - (n - 16), 16);
	}
	// Only bits [0, bitsLeft) exist; the rest read as zeros below them.
	if (bitsLeft <= 0) return 0;
	const low = view.getInt32(start, true) & ((1 << bitsLeft) - 1);
	return low * 2 ** -position;
}

export class BackwardBitReader {
	/** Unread bits above the start of the stream; negative once reads went past the start. */
	bitsLeft = 0;
	private view: DataView = EMPTY_VIEW;
	private start = 0;

	/** Positions the reader at the end of data[start, end); false if the stream is empty or lacks its end marker. */
	reset(data: Uint8Array, start: number, end: number): boolean {
		this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
		this.start = start;
		this.bitsLeft = backwardStreamBits(data, start, end);
		if (this.bitsLeft >= 0) return true;
		this.bitsLeft = 0;
		return false;
	}

	/** Reads 0 <= n <= 31 bits. */
	read(n: number): number {
		const value = readBackwardBits(this.view, this.start, this.bitsLeft, n);
		this.bitsLeft -= n;
		return value;
	}
}
