/**
 * Huffman coding of literals (RFC 8878 §4.2). A tree description (§4.2.1: weights stored directly or
 * FSE-compressed, the last one implied) becomes a lookup table indexed by the next `maxBits` bits of a
 * stream, each entry `symbol | numBits << 8`. Streams (§4.2.2) are backward and consumed exactly.
 */

import { BackwardBitReader, backwardStreamBits } from './bitReader';
import { ZstdError } from './errors';
import { FseDistribution, FseTable, buildFseTable, readFseDistribution } from './fse';

/** Longest prefix code the format allows. */
const MAX_CODE_BITS = 11;
/** Weights are FSE-compressed with an accuracy log of at most 6 and values 0-12 (12 is rejected later). */
const WEIGHTS_MAX_ACCURACY_LOG = 6;
const WEIGHTS_MAX_SYMBOL = 12;
const MAX_EXPLICIT_WEIGHTS = 255;

export class HuffmanTable {
	maxBits = 0;
	readonly entries = new Uint16Array(1 << MAX_CODE_BITS);
}

const weights = new Uint8Array(MAX_EXPLICIT_WEIGHTS + 1);
const weightCounts = new Uint32Array(MAX_CODE_BITS + 2);
const weightStarts = new Uint32Array(MAX_CODE_BITS + 2);
const weightDistribution = new FseDistribution();
const weightTable = new FseTable();
const weightReader = new BackwardBitReader();

/** Reads the tree description at data[start, end) into `table`; returns the index after it. */
export function readHuffmanTable(
	table: HuffmanTable,
	data: Uint8Array,
	start: number,
	end: number,
	sourceOffset: number,
): number {
	const errorOffset = sourceOffset + start;
	if (start >= end) throw new ZstdError('Huffman tree description is missing', errorOffset);
	const header = data[start];
	let position = start + 1;
	let count: number;
	if (header >= 128) {
		count = header - 127;
		const bytes = (count + 1) >>> 1;
		if (position + bytes > end) throw new ZstdError('Huffman tree description is truncated', errorOffset);
		for (let i = 0; i < count; i++) {
			const byte = data[position + (i >>> 1)];
			weights[i] = (i & 1) === 0 ? byte >>> 4 : byte & 15;
		}
		position += bytes;
	} else {
		if (position + header > end) throw new ZstdError('Huffman tree description is truncated', errorOffset);
		count = decodeCompressedWeights(data, position, position + header, sourceOffset);
		position += header;
	}
	buildTable(table, count, errorOffset);
	return position;
}

/** FSE-compressed weights: one distribution, two interleaved states, decoded until the stream overflows. */
function decodeCompressedWeights(data: Uint8Array, start: number, end: number, sourceOffset: number): number {
	const errorOffset = sourceOffset + start;
	if (start >= end) throw new ZstdError('Huffman weights are missing', errorOffset);
	const descriptionSize = readFseDistribution(
		weightDistribution,
		data,
		start,
		end,
		WEIGHTS_MAX_SYMBOL,
		WEIGHTS_MAX_ACCURACY_LOG,
		sourceOffset,
	);
	buildFseTable(weightTable, weightDistribution, errorOffset);
	const reader = weightReader;
	if (!reader.reset(data, start + descriptionSize, end)) {
		throw new ZstdError('Huffman weights bitstream is empty or lacks its end marker', errorOffset);
	}
	const { accuracyLog, symbol, numBits, baseline } = weightTable;
	const states = [reader.read(accuracyLog), reader.read(accuracyLog)];
	let count = 0;
	// The two states take turns; once the stream is exhausted, the other state gives the last weight.
	for (let turn = 0; ; turn ^= 1) {
		if (count + 2 > MAX_EXPLICIT_WEIGHTS) throw new ZstdError('too many Huffman weights', errorOffset);
		const state = states[turn];
		weights[count++] = symbol[state];
		states[turn] = baseline[state] + reader.read(numBits[state]);
		if (reader.bitsLeft < 0) {
			weights[count++] = symbol[states[turn ^ 1]];
			return count;
		}
	}
}

/** Completes the weights with the implied last one and fills the lookup table. */
function buildTable(table: HuffmanTable, count: number, errorOffset: number): void {
	let total = 0;
	weightCounts.fill(0);
	for (let i = 0; i < count; i++) {
		const weight = weights[i];
		if (weight > MAX_CODE_BITS) throw new ZstdError(`Huffman weight ${weight} is out of range`, errorOffset);
		if (weight > 0) total += 1 << (weight - 1);
		weightCounts[weight]++;
	}
	if (total === 0) throw new ZstdError('Huffman tree has no symbols', errorOffset);
	const maxBits = 32 - Math.clz32(total);
	if (maxBits > MAX_CODE_BITS) throw new ZstdError('Huffman tree is deeper than 11 bits', errorOffset);
	const rest = (1 << maxBits) - total;
	if ((rest & (rest - 1)) !== 0) throw new ZstdError('Huffman weights do not complete a tree', errorOffset);
	const lastWeight = 32 - Math.clz32(rest);
	weights[count] = lastWeight;
	weightCounts[lastWeight]++;

	// Codes go to symbols by increasing weight, then increasing symbol value; a symbol of weight w covers
	// 2^(w-1) consecutive entries of the 2^maxBits table.
	let next = 0;
	for (let weight = 1; weight <= maxBits; weight++) {
		weightStarts[weight] = next;
		next += weightCounts[weight] << (weight - 1);
	}
	const entries = table.entries;
	for (let symbol = 0; symbol <= count; symbol++) {
		const weight = weights[symbol];
		if (weight === 0) continue;
		const first = weightStarts[weight];
		const span = 1 << (weight - 1);
		entries.fill(symbol | ((maxBits + 1 - weight) << 8), first, first + span);
		weightStarts[weight] = first + span;
	}
	table.maxBits = maxBits;
}

/** Bits of the stream data[start, end) below its end marker; throws if the marker is missing. */
function streamBits(data: Uint8Array, start: number, end: number, sourceOffset: number): number {
	const bits = backwardStreamBits(data, start, end);
	if (bits < 0) throw new ZstdError('Huffman stream is empty or lacks its end marker', sourceOffset + start);
	return bits;
}

/**
 * Decodes out[outStart, outEnd) from the stream data[start, end), which must be consumed exactly; a
 * caller that decoded its first symbols passes the `bitsLeft` they left.
 */
export function decodeHuffmanStream(
	table: HuffmanTable,
	data: Uint8Array,
	start: number,
	end: number,
	out: Uint8Array,
	outStart: number,
	outEnd: number,
	sourceOffset: number,
	bitsLeft = streamBits(data, start, end, sourceOffset),
): void {
	const entries = table.entries;
	const maxBits = table.maxBits;
	const mask = (1 << maxBits) - 1;
	let outPosition = outStart;
	// Fast path: the next maxBits bits lie inside the stream; 3 bytes cover them at any bit alignment.
	while (outPosition < outEnd) {
		const position = bitsLeft - maxBits;
		if (position < 0) break;
		const index = start + (position >>> 3);
		const bits = ((data[index] | (data[index + 1] << 8) | (data[index + 2] << 16)) >>> (position & 7)) & mask;
		const entry = entries[bits];
		out[outPosition++] = entry;
		bitsLeft -= entry >>> 8;
	}
	// Near the start of the stream, missing low bits read as zeros.
	while (outPosition < outEnd) {
		const available = bitsLeft < 0 ? 0 : bitsLeft;
		const low = data[start] | (data[start + 1] << 8);
		const bits = ((low & ((1 << available) - 1)) << (maxBits - available)) & mask;
		const entry = entries[bits];
		out[outPosition++] = entry;
		bitsLeft -= entry >>> 8;
	}
	if (bitsLeft !== 0) {
		throw new ZstdError(
			bitsLeft > 0 ? 'Huffman stream has unused bits' : 'Huffman stream ends before its last symbol',
			sourceOffset + start,
		);
	}
}

/**
 * Decodes the four streams behind the jump table at data[start] (§3.1.1.3.1.6) into four segments of
 * out[0, total), each a quarter rounded up (the last may be shorter), in lockstep: four independent
 * dependency chains the CPU can overlap.
 */
export function decodeFourHuffmanStreams(
	table: HuffmanTable,
	data: Uint8Array,
	start: number,
	end: number,
	out: Uint8Array,
	total: number,
	sourceOffset: number,
): void {
	const errorOffset = sourceOffset + start;
	if (start + 6 > end) throw new ZstdError('literals jump table is truncated', errorOffset);
	const start1 = start + 6;
	const start2 = start1 + (data[start] | (data[start + 1] << 8));
	const start3 = start2 + (data[start + 2] | (data[start + 3] << 8));
	const start4 = start3 + (data[start + 4] | (data[start + 5] << 8));
	if (start4 >= end) throw new ZstdError('literals jump table points past the end of the streams', errorOffset);
	const segment = (total + 3) >>> 2;
	if (segment * 3 > total) throw new ZstdError(`${total} literals are too few for four streams`, errorOffset);
	let bits1 = streamBits(data, start1, start2, sourceOffset);
	let bits2 = streamBits(data, start2, start3, sourceOffset);
	let bits3 = streamBits(data, start3, start4, sourceOffset);
	let bits4 = streamBits(data, start4, end, sourceOffset);
	const { entries, maxBits } = table;
	let out1 = 0;
	let out2 = segment;
	let out3 = 2 * segment;
	let out4 = 3 * segment;
	const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
	for (;;) {
		// Each round takes two symbols, at most 2 * maxBits bits, from every stream; this many rounds
		// stay clear of the stream starts and of the segment ends.
		const rounds = Math.min(
			Math.floor(Math.min(bits1, bits2, bits3, bits4) / (2 * maxBits)),
			(segment - out1) >>> 1,
			(total - out4) >>> 1,
		);
		if (rounds <= 0) break;
		for (let round = 0; round < rounds; round++) {
			bits1 = decodePair(entries, maxBits, view, start1, bits1, out, out1);
			bits2 = decodePair(entries, maxBits, view, start2, bits2, out, out2);
			bits3 = decodePair(entries, maxBits, view, start3, bits3, out, out3);
			bits4 = decodePair(entries, maxBits, view, start4, bits4, out, out4);
			out1 += 2;
			out2 += 2;
			out3 += 2;
			out4 += 2;
		}
	}
	decodeHuffmanStream(table, data, start1, start2, out, out1, segment, sourceOffset, bits1);
	decodeHuffmanStream(table, data, start2, start3, out, out2, 2 * segment, sourceOffset, bits2);
	decodeHuffmanStream(table, data, start3, start4, out, out3, 3 * segment, sourceOffset, bits3);
	decodeHuffmanStream(table, data, start4, end, out, out4, total, sourceOffset, bits4);
}

/**
 * Decodes two symbols into out[at, at + 2) from the stream at `start` with `bits` (at least 2 * maxBits)
 * unread bits; returns the bits left. One 32-bit load holds 25 bits at any alignment: two 11-bit codes.
 */
function decodePair(
	entries: Uint16Array,
	maxBits: number,
	view: DataView,
	start: number,
	bits: number,
	out: Uint8Array,
	at: number,
): number {
	const position = bits - 2 * maxBits;
	const word = view.getInt32(start + (position >>> 3), true) >>> (position & 7);
	const mask = (1 << maxBits) - 1;
	const first = entries[(word >>> maxBits) & mask];
	const second = entries[(word >>> (maxBits - (first >>> 8))) & mask];
	out[at] = first;
	out[at + 1] = second;
	return bits - (first >>> 8) - (second >>> 8);
}
