/**
 * Decoding the sequence bitstream of a compressed block (RFC 8878 §3.1.1.3.2.1.2 "Decoding Sequences",
 * §3.1.1.5 repeat offsets).
 *
 * Contract: `decodeSequences` reads `count` (literal length, offset, match length) triples into
 * `DecodedSequences`, with repeat codes already resolved to actual offsets, and updates the repeat offsets
 * in `state`. The bitstream must be consumed exactly. Lengths and offsets are not checked against the
 * block or window here; `executeSequences` does that.
 */

import { backwardStreamBits, readBackwardBits } from './bitReader';
import { ZstdError } from './errors';
import type { SequenceTable } from './sequenceTables';

/**
 * A sequence reads at most 30 + 16 + 16 extra bits and 9 + 9 + 8 state bits; with this many bits left,
 * none of its reads can reach below the start of the stream, so the inlined reads need no such check.
 */
const FAST_PATH_BITS = 128;

/** The sequences of one block, in arrays reused between blocks. */
export class DecodedSequences {
	count = 0;
	literalLengths = new Int32Array(0);
	matchLengths = new Int32Array(0);
	offsets = new Int32Array(0);

	reset(count: number): void {
		if (this.offsets.length < count) {
			const capacity = Math.max(count, 2 * this.offsets.length, 1024);
			this.literalLengths = new Int32Array(capacity);
			this.matchLengths = new Int32Array(capacity);
			this.offsets = new Int32Array(capacity);
		}
		this.count = count;
	}
}

/** What decoding needs from, and updates in, the state that persists across blocks. */
export interface SequenceDecodingState {
	repeatOffset1: number;
	repeatOffset2: number;
	repeatOffset3: number;
}

/**
 * Decodes `sequences.count` sequences from the bitstream data[start, end) with the given tables.
 * `sourceOffset` is the input offset of data[0].
 */
export function decodeSequences(
	state: SequenceDecodingState,
	literalTable: SequenceTable,
	offsetTable: SequenceTable,
	matchTable: SequenceTable,
	sequences: DecodedSequences,
	data: Uint8Array,
	start: number,
	end: number,
	sourceOffset: number,
): void {
	const errorOffset = sourceOffset + start;
	let bits = backwardStreamBits(data, start, end);
	if (bits < 0) throw new ZstdError('sequence bitstream is empty or lacks its end marker', errorOffset);
	const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
	const { literalLengths, matchLengths, offsets } = sequences;
	const { transition: llTransition, valueBase: llValueBase } = literalTable;
	const { transition: ofTransition, valueBase: ofValueBase } = offsetTable;
	const { transition: mlTransition, valueBase: mlValueBase } = matchTable;
	let repeat1 = state.repeatOffset1;
	let repeat2 = state.repeatOffset2;
	let repeat3 = state.repeatOffset3;

	// Initial states, in this order, then every sequence: extra bits of offset, match length, literal
	// length; then (except after the last) the literal length, match length and offset state updates.
	let llState = readBackwardBits(view, start, bits, literalTable.accuracyLog);
	bits -= literalTable.accuracyLog;
	let ofState = readBackwardBits(view, start, bits, offsetTable.accuracyLog);
	bits -= offsetTable.accuracyLog;
	let mlState = readBackwardBits(view, start, bits, matchTable.accuracyLog);
	bits -= matchTable.accuracyLog;

	const last = sequences.count - 1;
	for (let sequence = 0; sequence <= last; sequence++) {
		const ofEntry = ofTransition[ofState];
		const mlEntry = mlTransition[mlState];
		const llEntry = llTransition[llState];
		let offsetValue = ofValueBase[ofState];
		let matchLength = mlValueBase[mlState];
		let literalLength = llValueBase[llState];
		if (bits >= FAST_PATH_BITS) {
			// `readBackwardBits` inlined for fields of up to 25 bits: the field's lowest bit is at `bits`
			// after the read; one 32-bit load at its byte holds the whole field.
			let n = ofEntry >>> 24;
			if (n > 24) {
				// Extra bits of offsets from 2^25 on come in two reads: high bits first.
				bits -= n - 16;
				offsetValue += ((view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << (n - 16)) - 1)) * 65536;
				n = 16;
			}
			bits -= n;
			offsetValue += (view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << n) - 1);

			n = mlEntry >>> 24;
			bits -= n;
			matchLength += (view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << n) - 1);

			n = llEntry >>> 24;
			bits -= n;
			literalLength += (view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << n) - 1);

			if (sequence < last) {
				n = (llEntry >>> 16) & 0xff;
				bits -= n;
				llState = (llEntry & 0xffff) + ((view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << n) - 1));

				n = (mlEntry >>> 16) & 0xff;
				bits -= n;
				mlState = (mlEntry & 0xffff) + ((view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << n) - 1));

				n = (ofEntry >>> 16) & 0xff;
				bits -= n;
				ofState = (ofEntry & 0xffff) + ((view.getInt32(start + (bits >>> 3), true) >>> (bits & 7)) & ((1 << n) - 1));
			}
		} else {
			// Near the start of the stream: the general read handles reads running past it.
			let n = ofEntry >>> 24;
			offsetValue += readBackwardBits(view, start, bits, n);
			bits -= n;
			n = mlEntry >>> 24;
			matchLength += readBackwardBits(view, start, bits, n);
			bits -= n;
			n = llEntry >>> 24;
			literalLength += readBackwardBits(view, start, bits, n);
			bits -= n;
			if (sequence < last) {
				n = (llEntry >>> 16) & 0xff;
				llState = (llEntry & 0xffff) + readBackwardBits(view, start, bits, n);
				bits -= n;
				n = (mlEntry >>> 16) & 0xff;
				mlState = (mlEntry & 0xffff) + readBackwardBits(view, start, bits, n);
				bits -= n;
				n = (ofEntry >>> 16) & 0xff;
				ofState = (ofEntry & 0xffff) + readBackwardBits(view, start, bits, n);
				bits -= n;
			}
		}

		let offset: number;
		if (offsetValue > 3) {
			offset = offsetValue - 3;
			repeat3 = repeat2;
			repeat2 = repeat1;
			repeat1 = offset;
		} else {
			// With no literals before the match, the repeat codes shift by one.
			const repeatCode = literalLength === 0 ? offsetValue : offsetValue - 1;
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

		literalLengths[sequence] = literalLength;
		matchLengths[sequence] = matchLength;
		offsets[sequence] = offset;
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
}
