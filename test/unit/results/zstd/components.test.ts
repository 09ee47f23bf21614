// The entropy-coding building blocks against the worked examples and tables of RFC 8878, and hand-made
// frames for format corners the zstd CLI does not produce (or only by chance).
import { ZstdError, decompressZstd } from '../../../../nodes/Nexthink/results/zstd';
import { BackwardBitReader, backwardStreamBits, readBackwardBits } from '../../../../nodes/Nexthink/results/zstd/bitReader';
import { FseDistribution, FseTable, buildFseTable, readFseDistribution } from '../../../../nodes/Nexthink/results/zstd/fse';
import { HuffmanTable, decodeHuffmanStream, readHuffmanTable } from '../../../../nodes/Nexthink/results/zstd/huffman';
import { LITERAL_LENGTH_CODES, OFFSET_CODES } from '../../../../nodes/Nexthink/results/zstd/sequenceTables';
import { OutputWindow, WILD_COPY_MARGIN } from '../../../../nodes/Nexthink/results/zstd/window';
import { concat, seededRandom, zstdErrorOf } from '../../../helpers/zstdFixtures';

const numbers = (text: string) => text.split(',').map(Number);

/** Writes an FSE table description (RFC 8878 §4.1.1) for normalized `counts`: the inverse of the reader. */
function encodeFseDistribution(counts: readonly number[], accuracyLog: number): Uint8Array {
	const bits: number[] = [];
	const write = (value: number, width: number) => {
		for (let i = 0; i < width; i++) bits.push((value >>> i) & 1);
	};
	write(accuracyLog - 5, 4);
	let remaining = (1 << accuracyLog) + 1;
	let threshold = 1 << accuracyLog;
	let width = accuracyLog + 1;
	for (let symbol = 0; symbol < counts.length && remaining > 1; symbol++) {
		const value = counts[symbol] + 1;
		const shortValues = 2 * threshold - 1 - remaining;
		if (value < shortValues) write(value, width - 1);
		else if (value < threshold) write(value, width);
		else write(value + shortValues, width);
		remaining -= Math.abs(counts[symbol]);
		if (counts[symbol] === 0) {
			let zeros = 0;
			while (symbol + 1 + zeros < counts.length && counts[symbol + 1 + zeros] === 0) zeros++;
			symbol += zeros;
			for (; zeros >= 3; zeros -= 3) write(3, 2);
			write(zeros, 2);
		}
		while (remaining < threshold) {
			width--;
			threshold >>= 1;
		}
	}
	const bytes = new Uint8Array(Math.ceil(bits.length / 8) + 8);
	bits.forEach((bit, index) => (bytes[index >>> 3] |= bit << (index & 7)));
	return bytes.subarray(0, Math.ceil(bits.length / 8));
}

/** `bytes` in a buffer with spare room after it, as the decoder stages its input. */
function padded(bytes: Uint8Array): Uint8Array {
	return concat([bytes, new Uint8Array(8)]);
}

function readDistribution(bytes: Uint8Array, maxSymbol: number, maxAccuracyLog: number): FseDistribution {
	const distribution = new FseDistribution();
	const size = readFseDistribution(distribution, padded(bytes), 0, bytes.length, maxSymbol, maxAccuracyLog, 0);
	expect(size).toBe(bytes.length);
	return distribution;
}

describe('BackwardBitReader', () => {
	/** A backward stream holding `fields` (value, width), read back first to last, plus its end marker. */
	function backwardStream(fields: Array<[number, number]>): Uint8Array {
		const bits: number[] = [];
		for (const [value, width] of [...fields].reverse()) {
			for (let i = 0; i < width; i++) bits.push(Math.floor(value / 2 ** i) % 2);
		}
		bits.push(1);
		const bytes = new Uint8Array(Math.ceil(bits.length / 8));
		bits.forEach((bit, index) => (bytes[index >>> 3] |= bit << (index & 7)));
		return bytes;
	}

	it('reads fields of 0 to 31 bits back in order, then zeros past the start', () => {
		const random = seededRandom(3);
		const fields: Array<[number, number]> = [];
		for (let i = 0; i < 300; i++) {
			const width = Math.floor(random() * 32);
			fields.push([Math.floor(random() * 2 ** width), width]);
		}
		const stream = backwardStream(fields);
		const reader = new BackwardBitReader();
		expect(reader.reset(padded(stream), 0, stream.length)).toBe(true);
		for (const [value, width] of fields) expect(reader.read(width)).toBe(value);
		expect(reader.bitsLeft).toBe(0);
		expect(reader.read(31)).toBe(0);
		expect(reader.bitsLeft).toBe(-31);
	});

	it('reads a field that straddles the start of the stream with zeros below it', () => {
		const stream = backwardStream([[0b101, 3]]);
		const reader = new BackwardBitReader();
		reader.reset(padded(stream), 0, stream.length);
		expect(reader.read(28)).toBe(0b101 << 25);
		expect(reader.bitsLeft).toBe(-25);
	});

	it('reads a field with readBackwardBits as the reader does, at every bit alignment', () => {
		const random = seededRandom(4);
		const fields: Array<[number, number]> = [];
		for (let i = 0; i < 200; i++) {
			const width = Math.floor(random() * 26);
			fields.push([Math.floor(random() * 2 ** width), width]);
		}
		const stream = padded(backwardStream(fields));
		const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
		let bits = backwardStreamBits(stream, 0, backwardStream(fields).length);
		for (const [value, width] of fields) {
			expect(readBackwardBits(view, 0, bits, width)).toBe(value);
			bits -= width;
		}
		expect(bits).toBe(0);
		expect(backwardStreamBits(padded(new Uint8Array([1, 0])), 0, 2)).toBe(-1);
	});

	it('refuses a stream without its end marker', () => {
		expect(new BackwardBitReader().reset(padded(new Uint8Array([1, 0])), 0, 2)).toBe(false);
		expect(new BackwardBitReader().reset(padded(new Uint8Array([1])), 0, 0)).toBe(false);
	});
});

describe('FSE tables', () => {
	function predefinedTable(counts: readonly number[], accuracyLog: number): FseTable {
		const distribution = new FseDistribution();
		distribution.accuracyLog = accuracyLog;
		distribution.symbolCount = counts.length;
		distribution.counts.set(counts);
		const table = new FseTable();
		buildFseTable(table, distribution, 0);
		return table;
	}

	it('builds the predefined literal length table of RFC 8878 Appendix A', () => {
		const table = predefinedTable(LITERAL_LENGTH_CODES.predefinedCounts, 6);
		expect([...table.symbol.subarray(0, 64)]).toEqual(
			numbers(
				'0,0,1,3,4,6,7,9,10,12,14,16,18,19,21,22,24,25,26,27,29,31,0,1,2,4,5,7,8,10,11,13,' +
					'16,17,19,20,22,23,25,25,26,28,30,0,1,2,3,5,6,8,9,11,12,15,17,18,20,21,23,24,35,34,33,32',
			),
		);
		expect([...table.numBits.subarray(0, 64)]).toEqual(
			numbers(
				'4,4,5,5,5,5,5,5,5,5,6,5,5,5,5,5,5,5,5,6,6,6,4,4,5,5,5,5,5,5,5,6,' +
					'5,5,5,5,5,5,4,4,5,6,6,4,4,5,5,5,5,5,5,5,5,6,5,5,5,5,5,5,6,6,6,6',
			),
		);
		expect([...table.baseline.subarray(0, 64)]).toEqual(
			numbers(
				'0,16,32,0,0,0,0,0,0,0,0,0,0,0,0,0,0,32,0,0,0,0,32,0,0,32,0,32,0,32,0,0,' +
					'32,0,32,0,32,0,0,16,32,0,0,48,16,32,32,32,32,32,32,32,32,0,32,32,32,32,32,32,0,0,0,0',
			),
		);
	});

	it('builds the predefined offset table of RFC 8878 Appendix A', () => {
		const table = predefinedTable(OFFSET_CODES.predefinedCounts, 5);
		expect([...table.symbol.subarray(0, 32)]).toEqual(
			numbers('0,6,9,15,21,3,7,12,18,23,5,8,14,20,2,7,11,17,22,4,8,13,19,1,6,10,16,28,27,26,25,24'),
		);
		expect([...table.numBits.subarray(0, 32)]).toEqual(
			numbers('5,4,5,5,5,5,4,5,5,5,5,4,5,5,5,4,5,5,5,5,4,5,5,5,4,5,5,5,5,5,5,5'),
		);
		expect([...table.baseline.subarray(0, 32)]).toEqual(
			numbers('0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,16,0,0,0,0,16,0,0,0,16,0,0,0,0,0,0,0'),
		);
	});

	it('reads back table descriptions of the predefined and of random distributions', () => {
		const random = seededRandom(5);
		const cases: Array<[number[], number]> = [
			[[...LITERAL_LENGTH_CODES.predefinedCounts], 6],
			[[...OFFSET_CODES.predefinedCounts], 5],
		];
		for (let round = 0; round < 200; round++) {
			const accuracyLog = 5 + Math.floor(random() * 5);
			const counts: number[] = [];
			let left = 1 << accuracyLog;
			while (left > 0 && counts.length < 52) {
				const kind = random();
				const count = kind < 0.2 ? 0 : kind < 0.35 ? -1 : 1 + Math.floor(random() * Math.min(left, 40));
				counts.push(Math.min(count, left));
				left -= Math.abs(Math.min(count, left));
			}
			if (left > 0) counts.push(left);
			while (counts[counts.length - 1] === 0) counts.pop();
			cases.push([counts, accuracyLog]);
		}
		for (const [counts, accuracyLog] of cases) {
			const distribution = readDistribution(encodeFseDistribution(counts, accuracyLog), 52, 9);
			expect(distribution.accuracyLog).toBe(accuracyLog);
			expect([...distribution.counts.subarray(0, distribution.symbolCount)]).toEqual(counts);
		}
	});

	it('rejects descriptions with too high an accuracy log, too many symbols, or cut short', () => {
		const description = encodeFseDistribution([...LITERAL_LENGTH_CODES.predefinedCounts], 6);
		const read = (bytes: Uint8Array, maxSymbol: number, maxAccuracyLog: number) =>
			zstdErrorOf(() =>
				readFseDistribution(new FseDistribution(), padded(bytes), 0, bytes.length, maxSymbol, maxAccuracyLog, 100),
			);
		expect(read(description, 35, 5)?.message).toContain('accuracy log 6 exceeds the maximum of 5');
		expect(read(description, 20, 9)?.message).toContain('more than 21 symbols');
		expect(read(description.subarray(0, description.length - 3), 35, 9)?.message).toContain('past the end');
		expect(read(description, 35, 9)).toBeUndefined();
		expect(read(description.subarray(0, 0), 35, 9)).toMatchObject({ offset: 100 });
	});
});

describe('Huffman tables', () => {
	// RFC 8878 §4.2.1: weights 4, 3, 2, 0, 1 for literals 0-4; literal 5 gets the implied weight 1.
	const directWeights = new Uint8Array([127 + 5, 0x43, 0x20, 0x10]);

	it('builds the prefix codes of the RFC example and decodes a stream written with them', () => {
		const table = new HuffmanTable();
		expect(readHuffmanTable(table, padded(directWeights), 0, directWeights.length, 0)).toBe(directWeights.length);
		expect(table.maxBits).toBe(4);
		const code = (index: number) => [table.entries[index] & 0xff, table.entries[index] >>> 8];
		expect(code(0b0000)).toEqual([4, 4]);
		expect(code(0b0001)).toEqual([5, 4]);
		expect(code(0b0011)).toEqual([2, 3]);
		expect(code(0b0110)).toEqual([1, 2]);
		expect(code(0b1111)).toEqual([0, 1]);
		// "0145": codes 1, 01, 0000, 0001 read from the top, under the end marker: 0b1_1_01_0000_0001.
		const out = new Uint8Array(4);
		decodeHuffmanStream(table, padded(new Uint8Array([0x01, 0x0d])), 0, 2, out, 0, 4, 0);
		expect([...out]).toEqual([0, 1, 4, 5]);
	});

	it('rejects streams that are not consumed exactly', () => {
		const table = new HuffmanTable();
		readHuffmanTable(table, padded(directWeights), 0, directWeights.length, 0);
		const stream = padded(new Uint8Array([0x01, 0x0d]));
		const decode = (data: Uint8Array, symbols: number) =>
			zstdErrorOf(() => decodeHuffmanStream(table, data, 0, 2, new Uint8Array(symbols), 0, symbols, 0))?.message;
		expect(decode(stream, 3)).toContain('unused bits');
		expect(decode(stream, 9)).toContain('ends before');
		expect(decode(padded(new Uint8Array([0x01, 0])), 4)).toContain('end marker');
	});

	it.each([
		['all weights zero', [127 + 2, 0x00], 'no symbols'],
		['weights that cannot complete a tree', [127 + 2, 0x31], 'do not complete a tree'],
		['a weight above 11', [127 + 1, 0xc0], 'out of range'],
		['a tree deeper than 11 bits', [127 + 2, 0xbb], 'deeper than 11 bits'],
		['a direct representation cut short', [127 + 5, 0x43], 'truncated'],
	])('rejects %s', (_name, bytes, message) => {
		const description = new Uint8Array(bytes);
		const error = zstdErrorOf(() => readHuffmanTable(new HuffmanTable(), padded(description), 0, description.length, 10));
		expect(error?.message).toContain(message);
		expect(error?.offset).toBe(10);
	});
});

describe('OutputWindow', () => {
	it('starts each lap at its frame offset modulo 8, with the history and the copy margin behind it', () => {
		const random = seededRandom(808);
		const window = new OutputWindow();
		const out: Uint8Array[] = [];
		const history = 1024;
		const maxBlockSize = 1024;
		window.startFrame(history, maxBlockSize, -1, out);
		const lapStarts = new Set<number>();
		for (let block = 0; block < 2000; block++) {
			const size = random() < 0.5 ? maxBlockSize : 1 + Math.floor(random() * maxBlockSize);
			window.reserve(size, out);
			const state = { block, position: window.position, frameProduced: window.frameProduced };
			expect({ ...state, misalignment: (window.frameProduced - window.position) & 7 }).toEqual({ ...state, misalignment: 0 });
			expect(window.position + size + WILD_COPY_MARGIN).toBeLessThanOrEqual(window.buffer.length);
			if (window.wrapEnd > 0) expect(window.wrapEnd - window.lapStart).toBeGreaterThan(history + WILD_COPY_MARGIN);
			lapStarts.add(window.lapStart);
			window.position += size;
			window.frameProduced += size;
		}
		expect([...lapStarts].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
		const flushed = out.reduce((total, chunk) => total + chunk.length, 0);
		expect(flushed + window.unflushed).toBe(window.frameProduced);
	});
});

describe('hand-made frames', () => {
	const magic = [0x28, 0xb5, 0x2f, 0xfd];

	/** A frame without content size or checksum, with the given window, holding `blocks`. */
	function frame(windowLog: number, ...blocks: Uint8Array[]): Uint8Array {
		return concat([new Uint8Array([...magic, 0x00, (windowLog - 10) << 3]), ...blocks]);
	}

	function compressedBlock(content: number[], last = true): Uint8Array {
		const header = (last ? 1 : 0) | (2 << 1) | (content.length << 3);
		return new Uint8Array([header & 0xff, (header >>> 8) & 0xff, header >>> 16, ...content]);
	}

	/** RLE literals section (3-byte header form): `size` copies of `byte`. */
	function rleLiterals(byte: number, size: number): number[] {
		return [1 | (3 << 2) | ((size & 15) << 4), (size >>> 4) & 0xff, size >>> 12, byte];
	}

	/** Sequences with all three tables in RLE mode and codes without extra bits: an empty bitstream. */
	function rleSequences(count: number, literalLengthCode: number, offsetCode: number, matchLengthCode: number) {
		const header =
			count < 128
				? [count]
				: count < 0x7f00
					? [0x80 + (count >>> 8), count & 0xff]
					: [0xff, (count - 0x7f00) & 0xff, (count - 0x7f00) >>> 8];
		return [...header, 0x54, literalLengthCode, offsetCode, matchLengthCode, 0x01];
	}

	it('decodes a block of more than 0x7F00 sequences (three-byte count) in RLE table mode', () => {
		// 32768 times: one literal "x", then a 3-byte match at offset 1 (repeat offset 1).
		const data = frame(17, compressedBlock([...rleLiterals(0x78, 32768), ...rleSequences(32768, 1, 0, 0)]));
		const output = decompressZstd(data);
		expect(output.length).toBe(131072);
		expect(output.every((byte) => byte === 0x78)).toBe(true);
	});

	it('rejects sequences that overflow the block, and literals left over that do', () => {
		const tooMany = frame(16, compressedBlock([...rleLiterals(0x78, 32768), ...rleSequences(32768, 1, 0, 0)]));
		expect(zstdErrorOf(() => decompressZstd(tooMany))?.message).toContain('more bytes than a block may hold');
		const leftover = frame(10, compressedBlock([...rleLiterals(0x78, 1024), ...rleSequences(1, 1, 0, 0)]));
		expect(zstdErrorOf(() => decompressZstd(leftover))?.message).toContain('more than 1024 bytes');
	});

	it('rejects a match reaching before the start of the frame', () => {
		// Literal length code 0 with offset code 0 means repeat offset 2, initially 4, with no output yet.
		const data = frame(10, compressedBlock([...rleLiterals(0x78, 0), ...rleSequences(1, 0, 0, 0)]));
		const error = zstdErrorOf(() => decompressZstd(data));
		expect(error?.message).toContain('match offset 4');
		expect(error?.offset).toBe(9 + 4);
	});

	it('decodes a block of literals only, and rejects extra bytes after an empty sequences header', () => {
		const literals = [0 | (3 << 3), 0x61, 0x62, 0x63];
		expect(new TextDecoder().decode(decompressZstd(frame(10, compressedBlock([...literals, 0x00]))))).toBe('abc');
		const error = zstdErrorOf(() => decompressZstd(frame(10, compressedBlock([...literals, 0x00, 0x00]))));
		expect(error?.message).toContain('extra bytes');
	});

	it('rejects treeless literals, repeated tables and reserved mode bits without context', () => {
		const treeless = frame(10, compressedBlock([3 | (1 << 4), 0x10, 0x00, 0x00, 0x00]));
		expect(zstdErrorOf(() => decompressZstd(treeless))?.message).toContain('treeless literals');
		const repeated = frame(10, compressedBlock([...rleLiterals(0x78, 1), 1, 0xfc, 0x01]));
		expect(zstdErrorOf(() => decompressZstd(repeated))?.message).toContain('never defined');
		const reserved = frame(10, compressedBlock([...rleLiterals(0x78, 1), 1, 0x55, 1, 0, 0, 0x01]));
		expect(zstdErrorOf(() => decompressZstd(reserved))?.message).toContain('reserved bits');
	});

	it('rejects four Huffman streams for fewer than six literals', () => {
		// Compressed literals, 4 streams, 5 literals, 12 bytes: tree (symbols 0 and 1, one bit each),
		// jump table, four one-byte streams.
		const header = 2 | (1 << 2) | (5 << 4) | (12 << 14);
		const content = [header & 0xff, (header >>> 8) & 0xff, header >>> 16, 128, 0x10, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 0x00];
		const error = zstdErrorOf(() => decompressZstd(frame(10, compressedBlock(content))));
		expect(error?.message).toContain('too few for four streams');
	});

	it('reports errors inside a later block at that block', () => {
		const first = new Uint8Array([0x18, 0x00, 0x00, 0x61, 0x62, 0x63]); // raw block "abc", not last
		const broken = compressedBlock([3 | (1 << 4), 0x10, 0x00, 0x00, 0x00]);
		const error = zstdErrorOf(() => decompressZstd(frame(10, first, broken)));
		expect(error).toBeInstanceOf(ZstdError);
		expect(error?.offset).toBe(6 + first.length + 3);
	});
});
