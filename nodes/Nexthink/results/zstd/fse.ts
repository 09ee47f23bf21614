/**
 * Finite State Entropy tables (RFC 8878 §4.1): a table description (§4.1.1) read into normalized counts,
 * and the decoding table built from them: per state, its symbol and the next state (`baseline` plus the
 * next `numBits` bits).
 */

import { ZstdError } from './errors';
import { readUint32LE } from './frameHeader';

/** The largest accuracy log any Zstandard FSE table may use (literal and match lengths). */
export const MAX_ACCURACY_LOG = 9;

export class FseTable {
	accuracyLog = 0;
	readonly symbol = new Uint8Array(1 << MAX_ACCURACY_LOG);
	readonly numBits = new Uint8Array(1 << MAX_ACCURACY_LOG);
	readonly baseline = new Uint16Array(1 << MAX_ACCURACY_LOG);
}

/** Normalized counts as read from a description: -1 means "less than 1". */
export class FseDistribution {
	accuracyLog = 0;
	symbolCount = 0;
	readonly counts = new Int16Array(256);
}

const nextStateCount = new Uint16Array(256);

/**
 * Reads the description at data[start, end) into `distribution` and returns the number of bytes it
 * occupies. `sourceOffset` is the input offset of data[0], for error messages.
 */
export function readFseDistribution(
	distribution: FseDistribution,
	data: Uint8Array,
	start: number,
	end: number,
	maxSymbol: number,
	maxAccuracyLog: number,
	sourceOffset: number,
): number {
	const errorOffset = sourceOffset + start;
	if (start >= end) throw new ZstdError('FSE table description is missing', errorOffset);
	const limit = (end - start) * 8;
	// A forward bitstream (§4.1.1), read upwards from data[start].
	let bitPosition = 4;
	const peek = (n: number) => (readUint32LE(data, start + (bitPosition >>> 3)) >>> (bitPosition & 7)) & ((1 << n) - 1);
	const accuracyLog = (data[start] & 15) + 5;
	if (accuracyLog > maxAccuracyLog) {
		throw new ZstdError(`FSE accuracy log ${accuracyLog} exceeds the maximum of ${maxAccuracyLog}`, errorOffset);
	}
	const counts = distribution.counts;
	// `remaining` is the number of probability points still to distribute, plus one; it bounds the value
	// of the next field, which is why fields shrink as points are used up.
	let remaining = (1 << accuracyLog) + 1;
	let threshold = 1 << accuracyLog;
	let fieldBits = accuracyLog + 1;
	let symbol = 0;
	while (remaining > 1) {
		if (symbol > maxSymbol) {
			throw new ZstdError(`FSE table description has more than ${maxSymbol + 1} symbols`, errorOffset);
		}
		const shortValues = 2 * threshold - 1 - remaining;
		const raw = peek(fieldBits);
		let value = raw & (threshold - 1);
		if (value < shortValues) {
			bitPosition += fieldBits - 1;
		} else {
			value = raw & (2 * threshold - 1);
			if (value >= threshold) value -= shortValues;
			bitPosition += fieldBits;
		}
		const probability = value - 1;
		counts[symbol++] = probability;
		remaining -= probability < 0 ? -probability : probability;
		if (probability === 0) {
			// A zero is followed by 2-bit repeat flags counting further zeros; 3 means "3, and more follow".
			let repeat: number;
			do {
				if (bitPosition > limit) break;
				repeat = peek(2);
				bitPosition += 2;
				if (symbol + repeat > maxSymbol + 1) {
					throw new ZstdError(`FSE table description has more than ${maxSymbol + 1} symbols`, errorOffset);
				}
				for (let i = 0; i < repeat; i++) counts[symbol++] = 0;
			} while (repeat === 3);
		}
		if (bitPosition > limit) {
			throw new ZstdError('FSE table description runs past the end of its section', errorOffset);
		}
		if (remaining < 1) throw new ZstdError('FSE table description distributes too many points', errorOffset);
		while (remaining < threshold) {
			fieldBits--;
			threshold >>= 1;
		}
	}
	distribution.accuracyLog = accuracyLog;
	distribution.symbolCount = symbol;
	return (bitPosition + 7) >>> 3;
}

/** Builds the decoding table for `distribution`; throws at `errorOffset` if the counts cannot fill it. */
export function buildFseTable(table: FseTable, distribution: FseDistribution, errorOffset: number): void {
	const { accuracyLog, symbolCount, counts } = distribution;
	const size = 1 << accuracyLog;
	const mask = size - 1;
	const symbols = table.symbol;
	let total = 0;
	for (let symbol = 0; symbol < symbolCount; symbol++) total += counts[symbol] < 0 ? 1 : counts[symbol];
	if (total !== size) throw new ZstdError('FSE distribution does not match its table size', errorOffset);
	let highPosition = size - 1;
	// "Less than 1" symbols take single cells from the end of the table and reset the state fully.
	for (let symbol = 0; symbol < symbolCount; symbol++) {
		if (counts[symbol] === -1) {
			symbols[highPosition--] = symbol;
			nextStateCount[symbol] = 1;
		} else {
			nextStateCount[symbol] = counts[symbol];
		}
	}
	const step = (size >>> 1) + (size >>> 3) + 3;
	let position = 0;
	for (let symbol = 0; symbol < symbolCount; symbol++) {
		for (let i = counts[symbol]; i > 0; i--) {
			symbols[position] = symbol;
			do {
				position = (position + step) & mask;
			} while (position > highPosition);
		}
	}
	// The step is odd, so the walk visits every cell once; it ends where it began only if the counts
	// exactly filled the cells left by the "less than 1" symbols.
	if (position !== 0) throw new ZstdError('FSE distribution does not fill its table', errorOffset);
	const numBits = table.numBits;
	const baseline = table.baseline;
	for (let state = 0; state < size; state++) {
		const next = nextStateCount[symbols[state]]++;
		const bits = accuracyLog - (31 - Math.clz32(next));
		numBits[state] = bits;
		baseline[state] = (next << bits) - size;
	}
	table.accuracyLog = accuracyLog;
}
