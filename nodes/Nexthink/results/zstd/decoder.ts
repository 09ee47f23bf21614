/**
 * Incremental Zstandard decoder (RFC 8878 §3): Zstandard and skippable frames, fed in arbitrary chunks.
 *
 * Input is a series of units whose size is known before they are read (magic number, frame header
 * descriptor, rest of the header, block header, block, checksum). A unit is gathered in a padded staging
 * buffer (it may arrive over many chunks; bit readers load words past its end), then decoded at once;
 * skippable frames are passed over. Memory is bounded by one block of input plus the output window.
 */

import { ZstdError } from './errors';
import {
	BLOCK_COMPRESSED,
	BLOCK_RAW,
	BLOCK_RLE,
	FRAME_MAGIC,
	MAX_BLOCK_SIZE,
	SKIPPABLE_MAGIC_BASE,
	SKIPPABLE_MAGIC_MASK,
	frameHeaderRestSize,
	parseFrameHeader,
	readUint32LE,
} from './frameHeader';
import type { FrameHeader } from './frameHeader';
import { Literals, decodeLiteralsSection } from './literals';
import { SequenceState, decodeSequencesSection } from './sequences';
import { OutputWindow } from './window';
import { Xxhash64 } from './xxhash64';

export interface ZstdDecoderOptions {
	/**
	 * Largest Window_Size (bytes) a frame may ask for, at most 2^31; default 2^27 (128 MiB, enough for
	 * `zstd --long=27`). The decoder's memory is about this window plus one block.
	 */
	maxWindowSize?: number;
}

const DEFAULT_MAX_WINDOW_SIZE = 2 ** 27;
/** Offsets of 2^31 and more are not supported (see sequenceTables.ts), which caps the window. */
const LARGEST_MAX_WINDOW_SIZE = 2 ** 31;

/** The units of the input, in the order they come (see the top of this file). */
const enum Stage {
	Magic,
	SkippableSize,
	Skip,
	Descriptor,
	FrameHeader,
	BlockHeader,
	Block,
	Checksum,
}

/** What the input ends inside of, by stage. */
const UNIT_NAMES = [
	'a frame magic number',
	'a skippable frame header',
	'a skippable frame',
	'a frame header',
	'a frame header',
	'a block header',
	'a block',
	'a content checksum',
];

/** Spare bytes after any staged unit, so bitstream readers may load a word past its end. */
const READ_PADDING = 8;

const NO_FRAME: FrameHeader = { windowSize: 0, contentSize: -1, hasChecksum: false, maxBlockSize: 0 };

function hex32(value: number): string {
	return `0x${value.toString(16).padStart(8, '0')}`;
}

export class ZstdDecoder {
	private readonly maxWindowSize: number;
	/** Grows with the largest unit seen, up to a full block. */
	private staged = new Uint8Array(64 + READ_PADDING);
	private stagedLength = 0;
	private stage = Stage.Magic;
	/** Bytes the current unit needs in `staged`. */
	private need = 4;
	/** Input offset of staged[0]. */
	private unitOffset = 0;
	/** Input bytes received so far. */
	private inputOffset = 0;
	private skipRemaining = 0;
	private descriptor = 0;
	private frame = NO_FRAME;
	private frameOffset = 0;
	private blockType = BLOCK_RAW;
	private blockSize = 0;
	private lastBlock = false;
	private readonly window = new OutputWindow();
	/** Entropy state carried over between the blocks of a frame (Huffman tree, sequence tables, repeat offsets). */
	private readonly literals = new Literals();
	private readonly sequences = new SequenceState();
	private readonly checksum = new Xxhash64();
	private failed = false;
	private ended = false;

	constructor(options: ZstdDecoderOptions = {}) {
		const maxWindowSize = options.maxWindowSize ?? DEFAULT_MAX_WINDOW_SIZE;
		if (!Number.isSafeInteger(maxWindowSize) || maxWindowSize < 1 || maxWindowSize > LARGEST_MAX_WINDOW_SIZE) {
			throw new RangeError(`maxWindowSize must be an integer from 1 to 2^31, got ${maxWindowSize}`);
		}
		this.maxWindowSize = maxWindowSize;
	}

	/**
	 * Feeds compressed bytes (the caller may reuse `chunk` afterwards) and returns the output decoded so
	 * far, possibly none; the returned chunks belong to the caller. Throws `ZstdError` on invalid input,
	 * after which the decoder stays failed.
	 */
	push(chunk: Uint8Array): Uint8Array[] {
		const out: Uint8Array[] = [];
		for (const portion of this.pushInPortions(chunk, Number.POSITIVE_INFINITY)) out.push(...portion);
		return out;
	}

	/**
	 * Like `push`, but hands the output over in portions of about `portionBytes` (at most one block and one
	 * window lap more), decoding the next only when asked: a 64 KiB chunk of RLE blocks decodes to 2 GiB, so
	 * a caller enforcing a size limit keeps what it has not checked small. `chunk` must stay unchanged until
	 * the iteration ends; stopping early leaves the rest undecoded (the decoder must then not be used).
	 */
	*pushInPortions(chunk: Uint8Array, portionBytes: number): Generator<Uint8Array[], void, undefined> {
		let position = 0;
		do {
			this.assertUsable();
			const out: Uint8Array[] = [];
			// Stays set if decoding throws: after invalid input the decoder refuses to go on.
			this.failed = true;
			position = this.consume(chunk, out, position, portionBytes);
			this.window.flush(out);
			this.failed = false;
			if (out.length > 0) yield out;
		} while (position < chunk.length);
	}

	/** Signals the end of input; throws `ZstdError` if it ended inside a frame. Returns any remaining output. */
	end(): Uint8Array[] {
		this.assertUsable();
		this.ended = true;
		if (this.stage !== Stage.Magic || this.stagedLength !== 0) {
			throw new ZstdError(`the input ends inside ${UNIT_NAMES[this.stage]}`, this.inputOffset);
		}
		const out: Uint8Array[] = [];
		this.window.flush(out);
		return out;
	}

	private assertUsable(): void {
		if (this.failed) throw new ZstdError('decoding already failed on earlier input', this.inputOffset);
		if (this.ended) throw new Error('The Zstandard decoder was already ended');
	}

	/**
	 * Decodes `chunk` from `position` on; returns where it stopped: the chunk's length, or earlier once
	 * at least `budget` bytes of output are waiting (in `out` or not yet flushed from the window).
	 */
	private consume(chunk: Uint8Array, out: Uint8Array[], position: number, budget: number): number {
		const length = chunk.length;
		for (;;) {
			if (this.stage === Stage.Skip) {
				const skipped = Math.min(this.skipRemaining, length - position);
				position += skipped;
				this.inputOffset += skipped;
				this.skipRemaining -= skipped;
				if (this.skipRemaining > 0) return length;
				this.expect(Stage.Magic, 4);
				continue;
			}
			const missing = this.need - this.stagedLength;
			if (missing > 0) {
				const taken = Math.min(missing, length - position);
				if (taken === 0) return length;
				this.staged.set(chunk.subarray(position, position + taken), this.stagedLength);
				this.stagedLength += taken;
				position += taken;
				this.inputOffset += taken;
				if (taken < missing) return length;
			}
			const decodedBlock = this.stage === Stage.Block;
			this.decodeUnit(out);
			if (decodedBlock && this.window.unflushed + out.reduce((total, part) => total + part.length, 0) >= budget) {
				return position;
			}
		}
	}

	/** Moves to the next unit, which starts at the next input byte. */
	private expect(stage: Stage, need: number): void {
		if (need + READ_PADDING > this.staged.length) {
			this.staged = new Uint8Array(Math.max(need, Math.min(2 * this.staged.length, MAX_BLOCK_SIZE)) + READ_PADDING);
		}
		this.stage = stage;
		this.need = need;
		this.stagedLength = 0;
		this.unitOffset = this.inputOffset;
	}

	private decodeUnit(out: Uint8Array[]): void {
		const data = this.staged;
		const offset = this.unitOffset;
		switch (this.stage) {
			case Stage.Magic: {
				const magic = readUint32LE(data, 0);
				if (magic === FRAME_MAGIC) {
					this.frameOffset = offset;
					this.expect(Stage.Descriptor, 1);
				} else if ((magic & SKIPPABLE_MAGIC_MASK) >>> 0 === SKIPPABLE_MAGIC_BASE) {
					this.expect(Stage.SkippableSize, 4);
				} else {
					throw new ZstdError(`expected a Zstandard frame magic number, found ${hex32(magic)}`, offset);
				}
				return;
			}
			case Stage.SkippableSize:
				this.expect(Stage.Skip, 0);
				this.skipRemaining = readUint32LE(data, 0);
				return;
			case Stage.Descriptor:
				this.descriptor = data[0];
				this.expect(Stage.FrameHeader, frameHeaderRestSize(data[0], offset));
				return;
			case Stage.FrameHeader:
				this.startFrame(offset, out);
				return;
			case Stage.BlockHeader:
				this.readBlockHeader(offset);
				return;
			case Stage.Block:
				this.decodeBlock(offset, out);
				return;
			default:
				this.verifyChecksum(offset);
		}
	}

	private startFrame(offset: number, out: Uint8Array[]): void {
		const frame = parseFrameHeader(this.descriptor, this.staged, offset - 1, this.maxWindowSize);
		this.frame = frame;
		this.window.startFrame(frame.windowSize, frame.maxBlockSize, frame.contentSize, out);
		this.literals.startFrame(frame.maxBlockSize);
		this.sequences.startFrame();
		this.checksum.reset();
		this.expect(Stage.BlockHeader, 3);
	}

	private readBlockHeader(offset: number): void {
		const data = this.staged;
		const header = data[0] | (data[1] << 8) | (data[2] << 16);
		this.lastBlock = (header & 1) === 1;
		this.blockType = (header >>> 1) & 3;
		this.blockSize = header >>> 3;
		if (this.blockType === 3) throw new ZstdError('block type 3 is reserved', offset);
		if (this.blockSize > this.frame.maxBlockSize) {
			throw new ZstdError(
				`block size ${this.blockSize} exceeds the frame's maximum block size of ${this.frame.maxBlockSize}`,
				offset,
			);
		}
		this.expect(Stage.Block, this.blockType === BLOCK_RLE ? 1 : this.blockSize);
	}

	private decodeBlock(offset: number, out: Uint8Array[]): void {
		const frame = this.frame;
		const window = this.window;
		const data = this.staged;
		const size = this.blockSize;
		window.reserve(this.blockType === BLOCK_COMPRESSED ? frame.maxBlockSize : size, out);
		const blockStart = window.position;
		if (this.blockType === BLOCK_RAW) {
			window.buffer.set(data.subarray(0, size), blockStart);
			window.position += size;
		} else if (this.blockType === BLOCK_RLE) {
			window.buffer.fill(data[0], blockStart, blockStart + size);
			window.position += size;
		} else {
			// A literals section, then a sequences section executed into the window (§3.1.1.3).
			const max = frame.maxBlockSize;
			const sequencesStart = decodeLiteralsSection(this.literals, data, 0, size, max, offset);
			decodeSequencesSection(this.sequences, this.literals, data, sequencesStart, size, window, max, offset);
		}
		if (frame.hasChecksum) this.checksum.update(window.buffer, blockStart, window.position);
		// Copied out at once, while the block is still in the CPU's cache: chunks of at most a block.
		window.flush(out);
		window.frameProduced += window.position - blockStart;
		if (frame.contentSize >= 0 && window.frameProduced > frame.contentSize) {
			throw new ZstdError(`the frame decodes to more than its declared ${frame.contentSize} bytes`, offset);
		}
		if (!this.lastBlock) {
			this.expect(Stage.BlockHeader, 3);
			return;
		}
		if (frame.contentSize >= 0 && window.frameProduced !== frame.contentSize) {
			throw new ZstdError(
				`the frame decodes to ${window.frameProduced} bytes but declares ${frame.contentSize}`,
				this.frameOffset,
			);
		}
		this.expect(frame.hasChecksum ? Stage.Checksum : Stage.Magic, 4);
	}

	private verifyChecksum(offset: number): void {
		const stored = readUint32LE(this.staged, 0);
		const computed = this.checksum.digest().low;
		if (stored !== computed) {
			throw new ZstdError(
				`content checksum mismatch: the frame stores ${hex32(stored)}, the decoded data hashes to ${hex32(computed)}`,
				offset,
			);
		}
		this.expect(Stage.Magic, 4);
	}
}
