/**
 * The decoded-output window of a frame (RFC 8878 §3.1.1.1.2 Window_Size, §3.1.1.4 sequence execution).
 *
 * A ring of `history + one block` bytes (history: the window size, or the content size when smaller).
 * Each block is written contiguously from `position`; when the next might not fit, writing wraps to
 * `lapStart` at a block boundary and the previous lap stays readable up to `wrapEnd`, so every byte up to
 * `history` back is intact. A lap starts at the frame offset of its first byte modulo 8 (0 to 7), so a
 * byte's index in the ring and its offset in the frame agree modulo 8: the checksum reads the frame's
 * 8-byte words straight from the ring (xxhash64.ts). Fixed-size copies may write `WILD_COPY_MARGIN` bytes
 * past the output: `reserve` keeps that room, and a wrap leaves `history + WILD_COPY_MARGIN + lapStart`
 * bytes behind, so the clobbered bytes are further back than any match reaches. The ring doubles from a
 * small start until it wraps; `flush` hands out fresh copies.
 */

export const WILD_COPY_MARGIN = 16;

const INITIAL_SIZE = 64 * 1024;
/** A lap starts at the frame offset of its first byte modulo this. */
const LAP_ALIGNMENT = 8;

export class OutputWindow {
	buffer: Uint8Array = new Uint8Array(0);
	/** A view of `buffer` for word-sized copies. */
	view: DataView = new DataView(this.buffer.buffer);
	/** Where the next decoded byte goes. */
	position = 0;
	/** End of the previous lap's data; 0 until the ring has wrapped. */
	wrapEnd = 0;
	/** Where the current lap starts: bytes before it belong to the previous lap (they end at `wrapEnd`). */
	lapStart = 0;
	/** Bytes of the current frame written before the current block. */
	frameProduced = 0;
	/** The frame's Window_Size: no match may reach further back. */
	windowSize = 0;
	private capacity = 0;
	private flushedTo = 0;

	/** Starts a new frame; `contentSize` is -1 when the header does not give it. */
	startFrame(windowSize: number, maxBlockSize: number, contentSize: number, out: Uint8Array[]): void {
		this.flush(out);
		const history = contentSize >= 0 && contentSize < windowSize ? contentSize : windowSize;
		this.windowSize = windowSize;
		this.capacity = history + maxBlockSize + 2 * WILD_COPY_MARGIN + LAP_ALIGNMENT;
		this.position = 0;
		this.flushedTo = 0;
		this.wrapEnd = 0;
		this.lapStart = 0;
		this.frameProduced = 0;
		// Even a declared size is only allocated as output arrives: the frame may be cut short or corrupt.
		const initial = Math.min(this.capacity, INITIAL_SIZE);
		if (this.buffer.length < initial) this.replaceBuffer(new Uint8Array(initial));
	}

	/** Makes room for `size` contiguous bytes (plus the margin) at `position`, growing or wrapping the ring. */
	reserve(size: number, out: Uint8Array[]): void {
		if (this.position + size + WILD_COPY_MARGIN > this.capacity) {
			this.flush(out);
			this.wrapEnd = this.position;
			this.lapStart = this.frameProduced % LAP_ALIGNMENT;
			this.position = this.lapStart;
			this.flushedTo = this.lapStart;
		}
		const needed = this.position + size + WILD_COPY_MARGIN;
		if (needed > this.buffer.length) {
			// Copy everything, not just up to `position`: after a wrap the previous lap is still history.
			const grown = new Uint8Array(Math.min(this.capacity, Math.max(needed, this.buffer.length * 2)));
			grown.set(this.buffer.subarray(0, Math.min(this.buffer.length, grown.length)));
			this.replaceBuffer(grown);
		}
	}

	private replaceBuffer(buffer: Uint8Array): void {
		this.buffer = buffer;
		this.view = new DataView(buffer.buffer);
	}

	/** Bytes written since the last flush. */
	get unflushed(): number {
		return this.position - this.flushedTo;
	}

	/** Appends a copy of every byte written since the last flush to `out`. */
	flush(out: Uint8Array[]): void {
		if (this.position > this.flushedTo) {
			out.push(this.buffer.slice(this.flushedTo, this.position));
			this.flushedTo = this.position;
		}
	}
}
