/**
 * The literals section of a compressed block (RFC 8878 §3.1.1.3.1): raw, RLE, Huffman-compressed with a
 * new tree, or "treeless" (reusing the previous tree of the frame), in one or four streams.
 *
 * Contract: `decodeLiteralsSection` leaves the block's literals in `literals.buffer[start, end)` and
 * returns the index just after the section. The Huffman tree persists across blocks until `startFrame`.
 */

import { ZstdError } from './errors';
import { HuffmanTable, decodeFourHuffmanStreams, decodeHuffmanStream, readHuffmanTable } from './huffman';

const RAW = 0;
const RLE = 1;
const COMPRESSED = 2;

export class Literals {
	start = 0;
	end = 0;
	/** Holds a frame's largest block of literals. */
	buffer = new Uint8Array(0);
	readonly huffman = new HuffmanTable();
	hasHuffman = false;

	startFrame(maxBlockSize: number): void {
		this.hasHuffman = false;
		if (this.buffer.length < maxBlockSize) this.buffer = new Uint8Array(maxBlockSize);
	}
}

export function decodeLiteralsSection(
	literals: Literals,
	data: Uint8Array,
	start: number,
	end: number,
	maxBlockSize: number,
	sourceOffset: number,
): number {
	const errorOffset = sourceOffset + start;
	if (start >= end) throw new ZstdError('literals section is missing', errorOffset);
	const byte0 = data[start];
	const type = byte0 & 3;
	const sizeFormat = (byte0 >>> 2) & 3;

	if (type === RAW || type === RLE) {
		let headerSize: number;
		let size: number;
		if ((sizeFormat & 1) === 0) {
			headerSize = 1;
			size = byte0 >>> 3;
		} else if (sizeFormat === 1) {
			headerSize = 2;
			size = (byte0 >>> 4) | (data[start + 1] << 4);
		} else {
			headerSize = 3;
			size = (byte0 >>> 4) | (data[start + 1] << 4) | (data[start + 2] << 12);
		}
		const contentStart = start + headerSize;
		if (contentStart > end) throw new ZstdError('literals section header is truncated', errorOffset);
		if (size > maxBlockSize) {
			throw new ZstdError(`literals section holds ${size} bytes, more than a block may`, errorOffset);
		}
		if (type === RAW) {
			if (contentStart + size > end) throw new ZstdError('raw literals run past the end of the block', errorOffset);
			literals.buffer.set(data.subarray(contentStart, contentStart + size));
			literals.start = 0;
			literals.end = size;
			return contentStart + size;
		}
		if (contentStart + 1 > end) throw new ZstdError('RLE literals byte is missing', errorOffset);
		literals.buffer.fill(data[contentStart], 0, size);
		literals.start = 0;
		literals.end = size;
		return contentStart + 1;
	}

	let headerSize: number;
	let regeneratedSize: number;
	let compressedSize: number;
	if (sizeFormat < 2) {
		headerSize = 3;
		const header = byte0 | (data[start + 1] << 8) | (data[start + 2] << 16);
		regeneratedSize = (header >>> 4) & 0x3ff;
		compressedSize = (header >>> 14) & 0x3ff;
	} else if (sizeFormat === 2) {
		headerSize = 4;
		const header = (byte0 | (data[start + 1] << 8) | (data[start + 2] << 16) | (data[start + 3] << 24)) >>> 0;
		regeneratedSize = (header >>> 4) & 0x3fff;
		compressedSize = header >>> 18;
	} else {
		headerSize = 5;
		regeneratedSize = (byte0 >>> 4) | (data[start + 1] << 4) | ((data[start + 2] & 0x3f) << 12);
		compressedSize = (data[start + 2] >>> 6) | (data[start + 3] << 2) | (data[start + 4] << 10);
	}
	const sectionEnd = start + headerSize + compressedSize;
	if (start + headerSize > end || sectionEnd > end) {
		throw new ZstdError('compressed literals run past the end of the block', errorOffset);
	}
	if (regeneratedSize > maxBlockSize) {
		throw new ZstdError(`literals section holds ${regeneratedSize} bytes, more than a block may`, errorOffset);
	}
	let streamsStart = start + headerSize;
	if (type === COMPRESSED) {
		streamsStart = readHuffmanTable(literals.huffman, data, streamsStart, sectionEnd, sourceOffset);
		literals.hasHuffman = true;
	} else if (!literals.hasHuffman) {
		throw new ZstdError('treeless literals without a previous Huffman tree in the frame', errorOffset);
	}
	const out = literals.buffer;
	if (sizeFormat === 0) {
		decodeHuffmanStream(literals.huffman, data, streamsStart, sectionEnd, out, 0, regeneratedSize, sourceOffset);
	} else {
		decodeFourHuffmanStreams(literals.huffman, data, streamsStart, sectionEnd, out, regeneratedSize, sourceOffset);
	}
	literals.start = 0;
	literals.end = regeneratedSize;
	return sectionEnd;
}
