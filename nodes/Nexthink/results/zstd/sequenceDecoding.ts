/**
 * Decoding the sequence bitstream of a compressed block (RFC 8878 §3.1.1.3.2.1.2 "Decoding Sequences",
 * §3.1.1.5 repeat offsets).
 *
 * Contract: `decodeSequences` reads `count` (literal length, offset, match length) triples into
 * `DecodedSequences`, with repeat codes already resolved to actual offsets, and updates the repeat offsets
 * in `state`. The bitstream must be consumed exactly. Lengths and offsets are not checked against the
 * block or window here; `executeSequences` does that.
 */

import type { BackwardBitReader } from './bitReader';
import { ZstdError } from './errors';
import type { SequenceTable } from './sequenceTables';

/**
 * A sequence reads at most 30 + 16 + 16 extra bits and 9 + 9 + 8 state bits; with this many bits left,
 * none of its reads can reach the start of the stream, so the inlined reads need no such check.
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
	readonly reader: BackwardBitReader;
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
	const reader = state.reader;
	if (!reader.reset(data, start, end)) {
		throw new ZstdError('sequence bitstream is empty or lacks its end marker', errorOffset);
	}
	const { literalLengths, matchLengths, offsets } = sequences;
	const { transition: llTransition, valueBase: llValueBase } = literalTable;
	const { transition: ofTransition, valueBase: ofValueBase } = offsetTable;
	const { transition: mlTransition, valueBase: mlValueBase } = matchTable;
	let repeat1 = state.repeatOffset1;
	let repeat2 = state.repeatOffset2;
	let repeat3 = state.repeatOffset3;

	// Initial states, in this order, then every sequence: extra bits of offset, match length, literal
	// length; then (except after the last) the literal length, match length and offset state updates.
	let llState = reader.read(literalTable.accuracyLog);
	let ofState = reader.read(offsetTable.accuracyLog);
	let mlState = reader.read(matchTable.accuracyLog);
	let container = reader.container;
	let consumed = reader.consumed;

	const last = sequences.count - 1;
	for (let sequence = 0; sequence <= last; sequence++) {
		const ofEntry = ofTransition[ofState];
		const mlEntry = mlTransition[mlState];
		const llEntry = llTransition[llState];
		let offsetValue = ofValueBase[ofState];
		let matchLength = mlValueBase[mlState];
		let literalLength = llValueBase[llState];
		if (reader.containerTop - consumed >= FAST_PATH_BITS) {
			// `reader.read` inlined on locals: refill the container when a read would pass its bottom
			// (afterwards at least 25 bits are available), then take the n bits below the consumed ones.
			let n = ofEntry >>> 24;
			if (n > 24) {
				// Extra bits of offsets from 2^25 on come in two reads: high bits first.
				if (consumed + n - 16 > 32) {
					consumed = reader.refill(consumed);
					container = reader.container;
				}
				offsetValue += ((container >>> (48 - consumed - n)) & ((1 << (n - 16)) - 1)) * 65536;
				consumed += n - 16;
				n = 16;
			}
			if (consumed + n > 32) {
				consumed = reader.refill(consumed);
				container = reader.container;
			}
			offsetValue += (container >>> (32 - consumed - n)) & ((1 << n) - 1);
			consumed += n;

			n = mlEntry >>> 24;
			if (consumed + n > 32) {
				consumed = reader.refill(consumed);
				container = reader.container;
			}
			matchLength += (container >>> (32 - consumed - n)) & ((1 << n) - 1);
			consumed += n;

			n = llEntry >>> 24;
			if (consumed + n > 32) {
				consumed = reader.refill(consumed);
				container = reader.container;
			}
			literalLength += (container >>> (32 - consumed - n)) & ((1 << n) - 1);
			consumed += n;

			if (sequence < last) {
				n = (llEntry >>> 16) & 0xff;
				if (consumed + n > 32) {
					consumed = reader.refill(consumed);
					container = reader.container;
				}
				llState = (llEntry & 0xffff) + ((container >>> (32 - consumed - n)) & ((1 << n) - 1));
				consumed += n;

				n = (mlEntry >>> 16) & 0xff;
				if (consumed + n > 32) {
					consumed = reader.refill(consumed);
					container = reader.container;
				}
				mlState = (mlEntry & 0xffff) + ((container >>> (32 - consumed - n)) & ((1 << n) - 1));
				consumed += n;

				n = (ofEntry >>> 16) & 0xff;
				if (consumed + n > 32) {
					consumed = reader.refill(consumed);
					container = reader.container;
				}
				ofState = (ofEntry & 0xffff) + ((container >>> (32 - consumed - n)) & ((1 << n) - 1));
				consumed += n;
			}
		} else {
			// Near the start of the stream: the general reader handles reads running past it.
			reader.consumed = consumed;
			offsetValue += reader.read(ofEntry >>> 24);
			matchLength += reader.read(mlEntry >>> 24);
			literalLength += reader.read(llEntry >>> 24);
			if (sequence < last) {
				llState = (llEntry & 0xffff) + reader.read((llEntry >>> 16) & 0xff);
				mlState = (mlEntry & 0xffff) + reader.read((mlEntry >>> 16) & 0xff);
				ofState = (ofEntry & 0xffff) + reader.read((ofEntry >>> 16) & 0xff);
			}
			consumed = reader.consumed;
			container = reader.container;
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

	reader.consumed = consumed;
	if (reader.bitsLeft !== 0) {
		throw new ZstdError(
			reader.bitsLeft > 0 ? 'sequence bitstream has unused bits' : 'sequence bitstream ends before its last sequence',
			errorOffset,
		);
	}
	state.repeatOffset1 = repeat1;
	state.repeatOffset2 = repeat2;
	state.repeatOffset3 = repeat3;
}
