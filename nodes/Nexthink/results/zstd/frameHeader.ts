/**
 * Frame-level structures (RFC 8878 §3.1): magic numbers, the frame header (§3.1.1.1), block constants
 * (§3.1.1.2). The header's first byte decides how many follow: `frameHeaderRestSize`, then `parseFrameHeader`.
 */

import { ZstdError } from './errors';

export const FRAME_MAGIC = 0xfd2fb528;
/** Skippable frames use the 16 magic numbers 0x184D2A50-0x184D2A5F (§3.1.2). */
export const SKIPPABLE_MAGIC_BASE = 0x184d2a50;
export const SKIPPABLE_MAGIC_MASK = 0xfffffff0;

/** The largest block, compressed or not (§3.1.1.2.4); smaller windows lower it. */
export const MAX_BLOCK_SIZE = 128 * 1024;

export const BLOCK_RAW = 0;
export const BLOCK_RLE = 1;
export const BLOCK_COMPRESSED = 2;

export interface FrameHeader {
	windowSize: number;
	/** Decoded size of the frame, or -1 when the header does not give it. */
	contentSize: number;
	hasChecksum: boolean;
	/** Block_Maximum_Size: the smaller of the window and 128 KiB. */
	maxBlockSize: number;
}

const FCS_FIELD_SIZES = [0, 2, 4, 8];
const DICTIONARY_ID_FIELD_SIZES = [0, 1, 2, 4];

export function readUint32LE(data: Uint8Array, index: number): number {
	return (data[index] | (data[index + 1] << 8) | (data[index + 2] << 16) | (data[index + 3] << 24)) >>> 0;
}

function singleSegment(descriptor: number): boolean {
	return (descriptor & 0x20) !== 0;
}

/** Bytes of the frame header after its descriptor byte; throws for a descriptor with the reserved bit set. */
export function frameHeaderRestSize(descriptor: number, descriptorOffset: number): number {
	if ((descriptor & 0x08) !== 0) {
		throw new ZstdError('the reserved bit of the frame header descriptor is set', descriptorOffset);
	}
	const fcsSize = FCS_FIELD_SIZES[descriptor >>> 6] || (singleSegment(descriptor) ? 1 : 0);
	return (singleSegment(descriptor) ? 0 : 1) + DICTIONARY_ID_FIELD_SIZES[descriptor & 3] + fcsSize;
}

/** Parses the header fields in data[0, frameHeaderRestSize(descriptor)); the descriptor was at `descriptorOffset`. */
export function parseFrameHeader(
	descriptor: number,
	data: Uint8Array,
	descriptorOffset: number,
	maxWindowSize: number,
): FrameHeader {
	let position = 0;
	let windowSize = 0;
	if (!singleSegment(descriptor)) {
		const windowDescriptor = data[position++];
		const windowBase = 2 ** (10 + (windowDescriptor >>> 3));
		windowSize = windowBase + (windowBase / 8) * (windowDescriptor & 7);
	}

	const dictionaryIdSize = DICTIONARY_ID_FIELD_SIZES[descriptor & 3];
	let dictionaryId = 0;
	for (let i = 0; i < dictionaryIdSize; i++) dictionaryId += data[position + i] * 2 ** (8 * i);
	position += dictionaryIdSize;
	if (dictionaryId !== 0) {
		throw new ZstdError(
			`the frame needs dictionary ${dictionaryId}; decoding with dictionaries is not supported`,
			descriptorOffset,
		);
	}

	let contentSize = -1;
	const fcsFlag = descriptor >>> 6;
	if (fcsFlag === 0 && singleSegment(descriptor)) {
		contentSize = data[position];
	} else if (fcsFlag === 1) {
		contentSize = (data[position] | (data[position + 1] << 8)) + 256;
	} else if (fcsFlag === 2) {
		contentSize = readUint32LE(data, position);
	} else if (fcsFlag === 3) {
		contentSize = readUint32LE(data, position) + readUint32LE(data, position + 4) * 2 ** 32;
	}
	if (singleSegment(descriptor)) windowSize = contentSize;

	if (windowSize > maxWindowSize) {
		throw new ZstdError(
			`the frame needs a window of ${windowSize} bytes, more than the limit of ${maxWindowSize}`,
			descriptorOffset,
		);
	}
	return {
		windowSize,
		contentSize,
		hasChecksum: (descriptor & 0x04) !== 0,
		maxBlockSize: Math.min(windowSize, MAX_BLOCK_SIZE),
	};
}
