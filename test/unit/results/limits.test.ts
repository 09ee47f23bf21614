// The bounds on a results file's expansion (nodes/Nexthink/results/limits.ts): decompressed size,
// compression ratio, field, row and column limits, each checked while the file streams. Small limits
// keep every input here tiny.
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';

import { CsvParser } from '../../../nodes/Nexthink/results/csv';
import { decompressChunks, type Compression } from '../../../nodes/Nexthink/results/decompress';
import { DEFAULT_RESULT_LIMITS, MAX_COLUMNS, MB, ResultLimitError, resultLimitsFromOptions, type ResultLimits } from '../../../nodes/Nexthink/results/limits';
import { readCsvRows } from '../../../nodes/Nexthink/results/readCsvRows';
import { ZstdDecoder } from '../../../nodes/Nexthink/results/zstd';
import { chunked, type SourceLog } from '../../helpers/chunkedSource';
import { DATA_WORK_TIMEOUT_MS } from '../../helpers/timeouts';

const NO_LIMITS: ResultLimits = { maxDecompressedBytes: 0, maxCompressionRatio: 0, maxFieldChars: 0, maxRecordChars: 0 };

function zstd(input: Uint8Array): Buffer {
	return execFileSync('zstd', ['-q', '-c', '-3'], { input, maxBuffer: 1 << 28 });
}

async function readError(bytes: Uint8Array, limits: Partial<ResultLimits>, options: { compression?: Compression; chunkSize?: number; ratioFloorBytes?: number; log?: SourceLog } = {}) {
	try {
		await readCsvRows(chunked(bytes, options.chunkSize ?? 1024, options.log), {
			compression: options.compression ?? 'NONE',
			convertTypes: false,
			limits: { ...NO_LIMITS, ...limits },
			ratioFloorBytes: options.ratioFloorBytes,
		});
	} catch (error) {
		return error as ResultLimitError;
	}
	throw new Error('expected the read to fail');
}

function parseAll(text: string, limits: { maxFieldChars?: number; maxRecordChars?: number; maxColumns?: number }, chunk = 7): string[][] {
	const records: string[][] = [];
	const parser = new CsvParser((fields) => {
		records.push([...fields]);
	}, limits);
	for (let start = 0; start < text.length; start += chunk) parser.push(text.slice(start, start + chunk));
	parser.end();
	return records;
}

function parseError(text: string, limits: { maxFieldChars?: number; maxRecordChars?: number; maxColumns?: number }, chunk = 7): ResultLimitError {
	try {
		parseAll(text, limits, chunk);
	} catch (error) {
		return error as ResultLimitError;
	}
	throw new Error('expected the parse to fail');
}

describe('CSV field, row and column limits', () => {
	it('accepts a field and a row exactly at their limits, in any chunking', () => {
		for (const chunk of [1, 3, 7, 100]) {
			expect(parseAll('ab,cd\n"abcd",x\n', { maxFieldChars: 6, maxRecordChars: 8 }, chunk)).toEqual([
				['ab', 'cd'],
				['abcd', 'x'],
			]);
		}
	});

	it('fails on a field longer than the limit, quoted or not, naming the limit and how to raise it', () => {
		for (const text of ['a,b\n1,' + 'x'.repeat(50) + '\n', 'a,b\n1,"' + 'x,'.repeat(25) + '"\n']) {
			const error = parseError(text, { maxFieldChars: 20 });
			expect(error).toBeInstanceOf(ResultLimitError);
			expect(error.limit).toBe('maxFieldChars');
			expect(error.value).toBe(20);
			expect(error.message).toBe(
				'A field starting on line 2 of the results is longer than 20 bytes (the field size limit). If the file is genuine, raise "Max Field Size (MB)" in the node\'s options (0 = no limit).',
			);
		}
	});

	it('fails on a row longer than the limit although each field is short', () => {
		const error = parseError('a,b,c\n' + 'x'.repeat(10) + ',' + 'y'.repeat(10) + ',' + 'z'.repeat(10) + '\n', { maxFieldChars: 15, maxRecordChars: 25 });
		expect(error.limit).toBe('maxRecordChars');
		expect(error.message).toContain('The row starting on line 2 of the results is longer than 25 bytes (the row size limit)');
		expect(error.message).toContain('"Max Row Size (MB)"');
	});

	it('counts a header against the row limit, and counts no row twice', () => {
		expect(parseError('x'.repeat(30) + '\n', { maxRecordChars: 25 }).message).toContain('The header starting on line 1');
		// many rows, each under the limit: the count starts again with every row
		expect(parseAll('a,b\n' + 'xxxx,yyyy\n'.repeat(200), { maxRecordChars: 10 }, 3)).toHaveLength(201);
	});

	it('fails on a record with more fields than any export has columns, before it ends', () => {
		const error = parseError('a,'.repeat(40), { maxColumns: 10 });
		expect(error.limit).toBe('columns');
		expect(error.message).toContain('The header starting on line 1 of the results has more than 10 fields');
		expect(error.message).toContain('This limit is fixed');
		expect(parseError('a'.repeat(11).split('').join(',') + '\n', { maxColumns: 10 }, 1000).limit).toBe('columns');
		expect(MAX_COLUMNS).toBe(10_000);
	});

	it('has generous defaults', () => {
		const field = 'x'.repeat(2 * MB);
		expect(parseAll(`a\n${field}\n`, {}, 64 * 1024)[1][0]).toHaveLength(2 * MB);
		expect(DEFAULT_RESULT_LIMITS).toEqual({ maxDecompressedBytes: 2048 * MB, maxCompressionRatio: 100, maxFieldChars: 16 * MB, maxRecordChars: 64 * MB });
	});
});

describe('decompressed size and compression ratio limits', () => {
	const text = new TextEncoder().encode('a\n' + 'x\n'.repeat(50_000)); // 100 KB that compress about 500 times

	it('fails when the decompressed size passes the limit, for gzip, zstd and plain files', async () => {
		for (const [bytes, compression, phrase] of [
			[gzipSync(text), 'GZIP', 'decompresses to more than 10 KB'],
			[zstd(text), 'ZSTD', 'decompresses to more than 10 KB'],
			[text, 'NONE', 'is larger than 10 KB'],
		] as const) {
			const error = await readError(bytes, { maxDecompressedBytes: 10 * 1024 }, { compression });
			expect(error).toBeInstanceOf(ResultLimitError);
			expect(error.limit).toBe('maxDecompressedBytes');
			expect(error.message).toBe(`The results file ${phrase} (the decompressed size limit). If the file is genuine, raise "Max Decompressed Size (MB)" in the node's options (0 = no limit).`);
		}
	});

	it('fails when the ratio passes the limit beyond the floor, but not below the floor', async () => {
		for (const bytes of [gzipSync(text), zstd(text)]) {
			const error = await readError(bytes, { maxCompressionRatio: 50 }, { ratioFloorBytes: 4096 });
			expect(error.limit).toBe('maxCompressionRatio');
			expect(error.message).toMatch(/^The results file decompresses to more than 50 times its downloaded size \([\d.]+ KB from [\d.]+ (KB|bytes) so far; the compression ratio limit\)\. If the file is genuine, raise "Max Compression Ratio"/);
			const rows = await readCsvRows(chunked(bytes, 1024), { compression: 'NONE', convertTypes: false, limits: { ...NO_LIMITS, maxCompressionRatio: 50 }, ratioFloorBytes: 1024 * 1024 });
			expect(rows.rows).toHaveLength(50_000);
		}
	});

	it('lets a file within every limit through unchanged', async () => {
		const bytes = gzipSync(text);
		const rows = await readCsvRows(chunked(bytes, 1024), {
			compression: 'GZIP',
			convertTypes: false,
			limits: { maxDecompressedBytes: text.length, maxCompressionRatio: 1000, maxFieldChars: 1, maxRecordChars: 1 },
			ratioFloorBytes: 0,
		});
		expect(rows.rows).toHaveLength(50_000);
	});

	it('stops reading the download once a limit is passed', async () => {
		// 64 MB of one field in gzip: about 64 KB, read in 1 KiB chunks. The gzip stream takes up to
		// 16 KiB of input ahead of its output (Node's writable buffer), so about 20 chunks are read.
		const bomb = gzipSync(Buffer.concat([Buffer.from('a\n'), Buffer.alloc(64 * MB, 'x')]));
		const log: SourceLog = { pulled: 0, closed: false };
		const error = await readError(bomb, { maxDecompressedBytes: 64 * 1024 }, { compression: 'GZIP', chunkSize: 1024, log });
		expect(error.limit).toBe('maxDecompressedBytes');
		expect(log.closed).toBe(true);
		expect(log.pulled).toBeLessThan(bomb.length / 1024 / 2);
	}, DATA_WORK_TIMEOUT_MS); // compresses 64 MB, which takes seconds on a busy machine

	it('applies no bound when no limits are given to decompressChunks', async () => {
		let length = 0;
		for await (const chunk of decompressChunks(chunked(gzipSync(text), 1024), 'GZIP')) length += chunk.length;
		expect(length).toBe(text.length);
	});
});

describe('ZstdDecoder.pushInPortions', () => {
	it('hands a small input that decodes to a lot over in bounded portions', () => {
		// 8 MB of one byte: zstd writes it as a few hundred bytes of RLE blocks
		const original = Buffer.alloc(8 * MB, 0x61);
		const compressed = zstd(original);
		expect(compressed.length).toBeLessThan(2048);
		const decoder = new ZstdDecoder();
		const portions: number[] = [];
		for (const out of decoder.pushInPortions(compressed, 256 * 1024)) portions.push(out.reduce((total, chunk) => total + chunk.length, 0));
		decoder.end();
		expect(portions.reduce((a, b) => a + b, 0)).toBe(original.length);
		expect(portions.length).toBeGreaterThan(8);
		// a portion is the budget plus at most one block (128 KiB)
		expect(Math.max(...portions)).toBeLessThanOrEqual(256 * 1024 + 128 * 1024);
	}, DATA_WORK_TIMEOUT_MS); // compresses and decodes 8 MB
});

describe('resultLimitsFromOptions', () => {
	it('reads MB, keeps defaults for absent options, and 0 as no limit', () => {
		expect(resultLimitsFromOptions({})).toEqual(DEFAULT_RESULT_LIMITS);
		expect(resultLimitsFromOptions({ maxDecompressedMB: 1, maxCompressionRatio: 2.5, maxFieldMB: 0.001, maxRowMB: 0 })).toEqual({
			maxDecompressedBytes: MB,
			maxCompressionRatio: 2.5,
			maxFieldChars: 1048,
			maxRecordChars: 0,
		});
	});

	it('rejects negative and non-numeric values, naming the option', () => {
		expect(() => resultLimitsFromOptions({ maxFieldMB: -1 })).toThrow('Max Field Size (MB) must be a number, 0 (no limit) or more.');
		expect(() => resultLimitsFromOptions({ maxCompressionRatio: 'lots' })).toThrow('Max Compression Ratio must be');
		expect(() => resultLimitsFromOptions({ maxDecompressedMB: Number.POSITIVE_INFINITY })).toThrow('Max Decompressed Size (MB) must be');
	});
});
