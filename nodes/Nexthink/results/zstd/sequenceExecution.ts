/**
 * Sequence execution (RFC 8878 §3.1.1.4): for each decoded sequence, copy its literals to the output,
 * then copy its match from earlier output; the literals left after the last sequence close the block.
 *
 * Contract: every length and offset is checked before use, so corrupt input fails with a `ZstdError`
 * and never writes past the block's reserved space (plus the window's wild-copy margin) or reads outside
 * the window.
 */

import { copyBetween, copyMatch } from './byteCopy';
import { ZstdError } from './errors';
import type { Literals } from './literals';
import type { DecodedSequences } from './sequenceDecoding';
import { WILD_COPY_MARGIN } from './window';
import type { OutputWindow } from './window';

/** Literal runs up to this length are copied byte by byte (measured faster than word copies for them). */
const SHORT_LITERALS = 16;

/**
 * Executes `sequences` and the remaining literals at `window.position`, writing at most `maxBlockSize`
 * bytes, and advances `window.position`. `errorOffset` is the input offset reported on failure.
 */
export function executeSequences(
	sequences: DecodedSequences,
	literals: Literals,
	window: OutputWindow,
	maxBlockSize: number,
	errorOffset: number,
): void {
	const { count, literalLengths, matchLengths, offsets } = sequences;
	const out = window.buffer;
	const outView = window.view;
	const blockStart = window.position;
	const outLimit = blockStart + maxBlockSize;
	const historyBefore = window.frameProduced - blockStart;
	const windowSize = window.windowSize;
	const wrapEnd = window.wrapEnd;
	const literalData = literals.buffer;
	const literalView = literals.view;
	let literalPosition = literals.start;
	const literalEnd = literals.end;
	let outPosition = blockStart;

	for (let sequence = 0; sequence < count; sequence++) {
		const literalLength = literalLengths[sequence];
		const matchLength = matchLengths[sequence];
		const offset = offsets[sequence];
		if (literalLength > literalEnd - literalPosition) {
			throw new ZstdError('sequences use more literals than the block has', errorOffset);
		}
		if (outPosition + literalLength + matchLength > outLimit) {
			throw new ZstdError('block decodes to more bytes than a block may hold', errorOffset);
		}
		if (literalLength <= SHORT_LITERALS) {
			for (let i = 0; i < literalLength; i++) out[outPosition + i] = literalData[literalPosition + i];
		} else {
			copyBetween(out, outView, outPosition, literalData, literalView, literalPosition, literalLength);
		}
		literalPosition += literalLength;
		outPosition += literalLength;

		if (offset > historyBefore + outPosition || offset > windowSize) {
			throw new ZstdError(`match offset ${offset} reaches before the start of the window`, errorOffset);
		}
		const source = outPosition - offset;
		if (source >= 0 && matchLength <= 2 * WILD_COPY_MARGIN && offset >= 4) {
			// Fixed 16 or 32 bytes in 4-byte steps; each step reads only bytes at least 4 behind its
			// target, which are final. The surplus (at most 15 bytes) lands in the window's margin or is
			// overwritten by the next sequence.
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
		} else if (source >= 0) {
			copyMatch(out, outView, outPosition, source, matchLength);
		} else {
			// The match starts in the previous lap of the ring and may continue at its start.
			const lapSource = source + wrapEnd;
			const fromPreviousLap = Math.min(matchLength, wrapEnd - lapSource);
			copyMatch(out, outView, outPosition, lapSource, fromPreviousLap);
			copyMatch(out, outView, outPosition + fromPreviousLap, 0, matchLength - fromPreviousLap);
		}
		outPosition += matchLength;
	}


	const rest = literalEnd - literalPosition;
	if (outPosition + rest > outLimit) {
		throw new ZstdError(`block decodes to more than ${maxBlockSize} bytes`, errorOffset);
	}
	out.set(literalData.subarray(literalPosition, literalEnd), outPosition);
	window.position = outPosition + rest;
}
