/**
 * Bit readers for the two bitstream flavours of Zstandard.
 *
 * Backward streams (RFC 8878 §4.1, §4.2.2: FSE and Huffman coded data) are written forwards and read from
 * the end: the last byte holds a 1-bit marker above 0-7 padding zeros, and values are taken from the most
 * recently written bits downwards. Treating the stream as one little-endian integer, a read of n bits when
 * `bitsLeft` bits remain returns bits [bitsLeft - n, bitsLeft). Reads that go below the start of the
 * stream yield zero bits and leave `bitsLeft` negative, which callers check (a stream must be consumed
 * exactly). The reader keeps a 32-bit container of the bits just below the read position, so most reads
 * are two shifts; it reloads the container only when a read would run past its bottom.
 *
 * Forward streams (§4.1.1, FSE table descriptions) are read from the first byte upwards.
 *
 * Callers guarantee that `data` extends at least 4 bytes past the end of a stream (the decoder stages
 * every block in a padded buffer), so word loads never leave the array.
 */

const EMPTY = new Uint8Array(0);

function loadWord(data: Uint8Array, index: number): number {
	return data[index] | (data[index + 1] << 8) | (data[index + 2] << 16) | (data[index + 3] << 24);
}

export class BackwardBitReader {
	/**
	 * Stream bits [containerTop - 32, containerTop) as an int32, and how many of them, from the top, are
	 * already read. Public so the sequence decoder's hot loop can inline `read` on local copies.
	 */
	container = 0;
	containerTop = 0;
	consumed = 0;
	private data: Uint8Array = EMPTY;
	private start = 0;

	/** Unread bits above the start of the stream; negative once reads went past the start. */
	get bitsLeft(): number {
		return this.containerTop - this.consumed;
	}

	/** Positions the reader at the end of data[start, end); false if the stream is empty or lacks its end marker. */
	reset(data: Uint8Array, start: number, end: number): boolean {
		this.data = data;
		this.start = start;
		this.containerTop = 0;
		this.consumed = 0;
		if (end <= start || data[end - 1] === 0) return false;
		const bits = (end - start - 1) * 8 + (31 - Math.clz32(data[end - 1]));
		this.refill(-bits);
		return true;
	}

	/** Reads 0 <= n <= 31 bits. */
	read(n: number): number {
		let consumed = this.consumed;
		if (consumed + n > 32) {
			consumed = this.refill(consumed);
			if (consumed + n > 32) return this.readAcrossContainer(n);
		}
		this.consumed = consumed + n;
		return (this.container >>> (32 - consumed - n)) & ((1 << n) - 1);
	}

	/**
	 * Reloads the container after `consumed` of its bits were read, so that it starts at most 7 bits above
	 * the first unread bit (at least 25 unread bits in it, unless the stream start is near); returns the
	 * new `consumed`.
	 */
	refill(consumed: number): number {
		const bitsLeft = this.containerTop - consumed;
		// ceil((bitsLeft - 32) / 8) bytes above the stream start
		const byte = bitsLeft >= 32 ? (bitsLeft - 25) >>> 3 : 0;
		this.container = loadWord(this.data, this.start + byte);
		this.containerTop = byte * 8 + 32;
		this.consumed = this.containerTop - bitsLeft;
		return this.consumed;
	}

	/** Reads wider than the container allows after a refill (n > 25), or reaching below the stream start. */
	private readAcrossContainer(n: number): number {
		const bitsLeft = this.containerTop - this.consumed;
		if (bitsLeft >= n) {
			const high = this.read(n - 16);
			return high * 65536 + this.read(16);
		}
		// Only bits [0, bitsLeft) exist; the rest read as zeros below them. The container starts at bit 0 here.
		const available = bitsLeft > 0 ? bitsLeft : 0;
		this.consumed += n;
		const low = available === 0 ? 0 : this.container & ((1 << available) - 1);
		return (low * 2 ** (n - available)) >>> 0;
	}
}

export class ForwardBitReader {
	/** Bits consumed from `start`. */
	bitPosition = 0;
	private data: Uint8Array = EMPTY;
	private start = 0;

	reset(data: Uint8Array, start: number): void {
		this.data = data;
		this.start = start;
		this.bitPosition = 0;
	}

	/** Returns the next 0 <= n <= 25 bits without consuming them. */
	peek(n: number): number {
		const word = loadWord(this.data, this.start + (this.bitPosition >>> 3));
		return (word >>> (this.bitPosition & 7)) & ((1 << n) - 1);
	}

	skip(n: number): void {
		this.bitPosition += n;
	}

	/** Bytes touched so far (the last one possibly partly). */
	bytesConsumed(): number {
		return (this.bitPosition + 7) >>> 3;
	}
}
