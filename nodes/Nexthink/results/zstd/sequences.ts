/**
 * The sequences section of a compressed block (RFC 8878 §3.1.1.3.2) and its execution (§3.1.1.4): the
 * header, the three tables, then one pass that decodes each sequence, resolves repeat offsets (§3.1.1.5)
 * and copies its literals and match into the window. Tables and repeat offsets persist across a frame.
 *
 * Contract: every length and offset is checked before use, so corrupt input fails with a `ZstdError` and
 * never writes past the block's space (plus the window's wild-copy margin) or reads outside the window;
 * the bitstream must be consumed exactly.
 */

import { backwardStreamBits, readBackwardBits } from './bitReader';
import { ZstdError } from './errors';
import { MAX_ACCURACY_LOG } from './fse';
import type { Literals } from './literals';
import { SequenceTables } from './sequenceTables';
import { WILD_COPY_MARGIN } from './window';
import type { OutputWindow } from './window';

/** From this length on, the built-in bulk copies are faster than byte loops. */
const BULK_COPY = 64;

export class SequenceState {
	readonly tables = new SequenceTables();
	repeatOffset1 = 1;
	repeatOffset2 = 4;
	repeatOffset3 = 8;

	startFrame(): void {
		this.tables.startFrame();
		this.repeatOffset1 = 1;
		this.repeatOffset2 = 4;
		this.repeatOffset3 = 8;
	}
}

/**
 * Decodes data[start, end) (the block after its literals section) into the window, at most `maxBlockSize`
 * bytes, advancing `window.position`. data[0] is at input offset `sourceOffset`.
 */
export function decodeSequencesSection(
	state: SequenceState,
	literals: Literals,
	data: Uint8Array,
	start: number,
	end: number,
	window: OutputWindow,
	maxBlockSize: number,
	sourceOffset: number,
): void {
	const errorOffset = sourceOffset + start;
	if (start >= end) throw new ZstdError('sequences section is missing', errorOffset);
	let position = start;
	let count = data[position++];
	if (count >= 128) {
		if (count === 255) {
			count = data[position] + (data[position + 1] << 8) + 0x7f00;
			position += 2;
		} else {
			count = ((count - 128) << 8) + data[position];
			position += 1;
		}
	}
	const outLimit = window.position + maxBlockSize;
	if (count > 0) {
		if (position >= end) throw new ZstdError('sequences section header is truncated', errorOffset);
		const modes = data[position++];
		if ((modes & 3) !== 0) throw new ZstdError('reserved bits of the sequence modes are set', errorOffset);
		for (let type = 0; type < 3; type++) {
			position = state.tables.select(type, (modes >>> (6 - 2 * type)) & 3, data, position, end, sourceOffset);
		}
		executeSequences(state, count, data, position, end, literals, window, outLimit, errorOffset);
	} else if (position !== end) {
		throw new ZstdError('a block without sequences has extra bytes after its sequences header', errorOffset);
	}
	const rest = literals.end - literals.start;
	if (window.position + rest > outLimit) {
		throw new ZstdError(`block decodes to more than ${maxBlockSize} bytes`, errorOffset);
	}
	window.buffer.set(literals.buffer.subarray(literals.start, literals.end), window.position);
	window.position += rest;
}

/**
 * Decodes `count` sequences from the bitstream data[start, end) and executes each at once: its literals
 * from `literals`, then its match. Advances `window.position` and `literals.start`; writes below `outLimit`.
 */
function executeSequences(
	state: SequenceState,
	count: number,
	data: Uint8Array,
	start: number,
	end: number,
	literals: Literals,
	window: OutputWindow,
	outLimit: number,
	errorOffset: number,
): void {
	let bits = backwardStreamBits(data, start, end);
	if (bits < 0) throw new ZstdError('sequence bitstream is empty or lacks its end marker', errorOffset);
	const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
	const { transitions, valueBases, accuracyLogs } = state.tables;
	let repeat1 = state.repeatOffset1;
	let repeat2 = state.repeatOffset2;
	let repeat3 = state.repeatOffset3;

	const out = window.buffer;
	const outView = window.view;
	let outPosition = window.position;
	/** The frame offset of out[0] in this lap's terms: a match may reach back `history + outPosition` bytes. */
	const history = window.frameProduced - outPosition;
	const windowSize = window.windowSize;
	const wrapEnd = window.wrapEnd;
	const lapStart = window.lapStart;
	const literalData = literals.buffer;
	let literalPosition = literals.start;
	const literalEnd = literals.end;

	// Initial states, in this order, then every sequence: extra bits of offset, match length, literal
	// length; then (except after the last) the literal length, match length and offset state updates.
	let n = accuracyLogs[0];
	let llState = readBackwardBits(view, start, bits, n);
	bits -= n;
	n = accuracyLogs[1];
	let ofState = (1 << MAX_ACCURACY_LOG) + readBackwardBits(view, start, bits, n);
	bits -= n;
	n = accuracyLogs[2];
	let mlState = (2 << MAX_ACCURACY_LOG) + readBackwardBits(view, start, bits, n);
	bits -= n;

	// Reads are inlined: a field of up to 25 bits whose lowest bit is at `bits` after the read is one
	// 32-bit load at that bit's byte, a shift and a mask; fields read one after the other share a load when
	// they fit in 25 bits together. A read below the start of the stream, which only corrupt input asks
	// for, finds a negative position there and the load throws a RangeError (a valid stream is read
	// exactly to its start); it becomes the `ZstdError` below.
	const last = count - 1;
	let failure: unknown;
	try {
		for (let sequence = 0; sequence <= last; sequence++) {
			const ofEntry = transitions[ofState];
			const mlEntry = transitions[mlState];
			const llEntry = transitions[llState];
			let offset = valueBases[ofState];
			let matchLength = valueBases[mlState];
			let literalLength = valueBases[llState];
			n = ofEntry >>> 24;
			if (n > 24) {
				// Extra bits of offsets from 2^25 on come in two reads: high bits first.
				bits -= n - 16;
				offset += ((view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << (n - 16)) - 1)) * 65536;
				n = 16;
			}
			bits -= n;
			offset += (view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << n) - 1);
			const mlBits = mlEntry >>> 24;
			const llBits = llEntry >>> 24;
			if (mlBits + llBits <= 25) {
				bits -= mlBits + llBits;
				const word = view.getInt32(start + (bits >>> 3), true) >>> (bits & 7);
				matchLength += (word >>> llBits) & ((1 << mlBits) - 1);
				literalLength += word & ((1 << llBits) - 1);
			} else {
				bits -= mlBits;
				matchLength += (view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << mlBits) - 1);
				bits -= llBits;
				literalLength += (view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << llBits) - 1);
			}
			if (sequence < last) {
				// Literal length and match length states (at most 9 bits each) in one load, offset in another.
				const llStateBits = (llEntry >>> 16) & 0xff;
				const mlStateBits = (mlEntry >>> 16) & 0xff;
				bits -= llStateBits + mlStateBits;
				const word = view.getInt32(start + (bits >>> 3), true) >>> (bits & 7);
				llState = (llEntry & 0xffff) + ((word >>> mlStateBits) & ((1 << llStateBits) - 1));
				mlState = (mlEntry & 0xffff) + (word & ((1 << mlStateBits) - 1));
				n = (ofEntry >>> 16) & 0xff;
				bits -= n;
				ofState = (ofEntry & 0xffff) + ((view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << n) - 1));
			}

			if (offset > 3) {
				offset -= 3;
				repeat3 = repeat2;
				repeat2 = repeat1;
				repeat1 = offset;
			} else {
				// With no literals before the match, the repeat codes shift by one.
				const repeatCode = literalLength === 0 ? offset : offset - 1;
				if (repeatCode === 0) {
					offset = repeat1;
				} else {
					if (repeatCode === 1) {
						offset = repeat2;
					} else if (repeatCode === 2) {
						offset = repeat3;
						repeat3 = repeat2;
					} else {
						offset = repeat1 - 1;
						if (offset === 0) throw new ZstdError('repeat offset becomes zero', errorOffset);
						repeat3 = repeat2;
					}
					repeat2 = repeat1;
					repeat1 = offset;
				}
			}

			if (literalLength > literalEnd - literalPosition) {
				throw new ZstdError('sequences use more literals than the block has', errorOffset);
			}
			if (outPosition + literalLength + matchLength > outLimit) {
				throw new ZstdError('block decodes to more bytes than a block may hold', errorOffset);
			}
			if (literalLength !== 0) {
				if (literalLength < BULK_COPY) {
					for (let i = 0; i < literalLength; i++) out[outPosition + i] = literalData[literalPosition + i];
				} else {
					out.set(literalData.subarray(literalPosition, literalPosition + literalLength), outPosition);
				}
				literalPosition += literalLength;
				outPosition += literalLength;
			}

			if (offset > history + outPosition || offset > windowSize) {
				throw new ZstdError(`match offset ${offset} reaches before the start of the window`, errorOffset);
			}
			let source = outPosition - offset;
			if (source < lapStart) {
				// The match starts in the previous lap of the ring and may continue at this lap's start.
				source += wrapEnd - lapStart;
				if (source + matchLength > wrapEnd) {
					const fromPreviousLap = wrapEnd - source;
					copyMatch(out, outPosition, source, fromPreviousLap);
					copyMatch(out, outPosition + fromPreviousLap, lapStart, matchLength - fromPreviousLap);
					outPosition += matchLength;
					continue;
				}
			}
			if (matchLength <= 2 * WILD_COPY_MARGIN && offset >= 4) {
				// Fixed 16 or 32 bytes in 4-byte steps; each step reads only bytes at least 4 behind its
				// target (or in the previous lap, ahead of it), which are final. The surplus (at most 15
				// bytes) lands in the window's margin or is overwritten by the next sequence.
				outView.setInt32(outPosition, outView.getInt32(source, true), true);
				outView.setInt32(outPosition + 4, outView.getInt32(source + 4, true), true);
				outView.setInt32(outPosition + 8, outView.getInt32(source + 8, true), true);
				outView.setInt32(outPosition + 12, outView.getInt32(source + 12, true), true);
				if (matchLength > WILD_COPY_MARGIN) {
					outView.setInt32(outPosition + 16, outView.getInt32(source + 16, true), true);
					outView.setInt32(outPosition + 20, outView.getInt32(source + 20, true), true);
					outView.setInt32(outPosition + 24, outView.getInt32(source + 24, true), true);
					outView.setInt32(outPosition + 28, outView.getInt32(source + 28, true), true);
				}
			} else {
				copyMatch(out, outPosition, source, matchLength);
			}
			outPosition += matchLength;
		}
	} catch (error) {
		failure = error;
	}
	if (failure !== undefined) {
		throw failure instanceof RangeError
			? new ZstdError('sequence bitstream ends before its last sequence', errorOffset)
			: failure;
	}
	if (bits !== 0) {
		throw new ZstdError(
			bits > 0 ? 'sequence bitstream has unused bits' : 'sequence bitstream ends before its last sequence',
			errorOffset,
		);
	}
	state.repeatOffset1 = repeat1;
	state.repeatOffset2 = repeat2;
	state.repeatOffset3 = repeat3;
	window.position = outPosition;
	literals.start = literalPosition;
}

/**
 * Copies `length` bytes from out[source] to out[target] in increasing order, so when the source overlaps
 * the target from below the copied bytes repeat with period `target - source` (an LZ77 match).
 */
function copyMatch(out: Uint8Array, target: number, source: number, length: number): void {
	const distance = target - source;
	if (length < BULK_COPY) {
		for (let i = 0; i < length; i++) out[target + i] = out[source + i];
		return;
	}
	// Where the source overlaps the target, each pass copies all bytes written so far, doubling the run.
	let copied = 0;
	while (copied < length) {
		const chunk = distance < 0 ? length : Math.min(length - copied, distance + copied);
		out.copyWithin(target + copied, source, source + chunk);
		copied += chunk;
	}
}
