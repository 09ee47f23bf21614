// Round trips through the reference `zstd` CLI: whatever it compresses, the decoder must restore exactly,
// however the compressed bytes are split into chunks.
import { ZSTD_MAGIC, ZstdDecoder, ZstdError, decompressZstd } from '../../../../nodes/Nexthink/results/zstd';
import {
	concat,
	csvExport,
	decodeInChunks,
	equalBytes,
	mixedData,
	randomBytes,
	removeTestDirectory,
	seededRandom,
	zstdCompress,
	zstdErrorOf,
} from '../../../helpers/zstdFixtures';
import { DATA_WORK_TIMEOUT_MS } from '../../../helpers/timeouts';

jest.setTimeout(120_000);
afterAll(removeTestDirectory);

const random = seededRandom(8878);
const CSV = csvExport(random, 2500);
const MIXED = mixedData(random, 150_000);
const RANDOM = randomBytes(random, 100_000);
const ZEROS = new Uint8Array(1_000_000);
const PATTERN = new TextEncoder().encode('device.name,'.repeat(40_000));
/** 512 KiB of noise, 3.5 MB of CSV, then the same noise again: a repeat only `--long` can reach. */
const NOISE = randomBytes(random, 512 * 1024);
const LONG_DISTANCE = concat([NOISE, csvExport(random, 20_000), NOISE]);

/**
 * Runs of short periods (1 to 40 bytes, repeated 1 to 80 bytes long) between a few literals: matches
 * of every length up to and past 32 bytes at offsets from 1 up, the cases sequence execution copies
 * with fixed-size steps, through its general copy, or byte by byte.
 */
function shortPeriods(length: number): Uint8Array {
	const out = new Uint8Array(length);
	let position = 0;
	while (position < length) {
		const period = 1 + Math.floor(random() * 40);
		const run = Math.min(length - position, period + Math.floor(random() * 80));
		for (let i = 0; i < run; i++) out[position + i] = i < period ? 97 + Math.floor(random() * 26) : out[position + i - period];
		position += run;
	}
	return out;
}

/** Bytes evenly spread over a small alphabet: the CLI then stores Huffman weights directly, not FSE-coded. */
function uniform(alphabet: number, length: number): Uint8Array {
	return randomBytes(random, length).map((byte) => byte % alphabet);
}

/** Pieces of 1 byte are only tried on inputs up to this size, to keep the suite fast. */
const BYTE_BY_BYTE_LIMIT = 300_000;
const CHUNK_SIZES = [1, 7, 64 * 1024, Infinity];

function skippableFrame(magicLowNibble: number, payload: Uint8Array): Uint8Array {
	const header = new Uint8Array(8);
	const view = new DataView(header.buffer);
	view.setUint32(0, 0x184d2a50 + magicLowNibble, true);
	view.setUint32(4, payload.length, true);
	return concat([header, payload]);
}

function expectRoundTrip(original: Uint8Array, compressed: Uint8Array): void {
	for (const chunkSize of CHUNK_SIZES) {
		if (chunkSize === 1 && compressed.length > BYTE_BY_BYTE_LIMIT) continue;
		const decoded = decodeInChunks(compressed, chunkSize);
		expect({ chunkSize, length: decoded.length }).toEqual({ chunkSize, length: original.length });
		expect(equalBytes(decoded, original)).toBe(true);
	}
	expect(equalBytes(decompressZstd(compressed), original)).toBe(true);
}

describe('output of the zstd CLI', () => {
	const cases: Array<[string, Uint8Array, string[], boolean?]> = [
		['CSV export, level 1', CSV, ['-1']],
		['CSV export, level 3', CSV, ['-3']],
		['CSV export, level 9', CSV, ['-9']],
		['CSV export, level 19', CSV, ['-19']],
		['CSV export, --ultra -22', CSV.subarray(0, 150_000), ['--ultra', '-22']],
		['CSV export, --fast=5', CSV, ['--fast=5']],
		['CSV export, --no-check', CSV, ['-3', '--no-check']],
		['CSV export, --content-size', CSV, ['-3', '--content-size']],
		['CSV export, --no-content-size', CSV, ['-3', '--no-content-size']],
		['CSV export from stdin (size unknown to the compressor)', CSV, ['-3'], false],
		['CSV export, level 19 from stdin', CSV, ['-19'], false],
		['mixed data, level 3', MIXED, ['-3']],
		['mixed data, level 19', MIXED, ['-19']],
		['mixed data, 1 KiB window (1 KiB blocks, the ring wraps constantly)', MIXED, ['-3', '--zstd=wlog=10']],
		['mixed data, level 19 in a 4 KiB window', MIXED, ['-19', '--zstd=wlog=12'], false],
		['CSV export, 128 KiB window from stdin', CSV, ['-9', '--zstd=wlog=17'], false],
		// Two compression jobs end blocks at odd offsets: the ring's laps start at every offset modulo 8.
		['noise then CSV, jobs of 524,289 bytes, 1 KiB window', LONG_DISTANCE.subarray(0, 1_300_000), ['-3', '-T2', '-B524289', '--zstd=wlog=10']],
		['noise then CSV, jobs of 524,291 bytes, level 12, 4 KiB window', LONG_DISTANCE.subarray(0, 1_300_000), ['-12', '-T2', '-B524291', '--zstd=wlog=12']],
		['noise then CSV, jobs of 600,007 bytes, 2 KiB window, --no-check', LONG_DISTANCE.subarray(0, 1_300_000), ['-3', '-T2', '-B600007', '--zstd=wlog=11', '--no-check']],
		['uniform 7-bit data (directly stored Huffman weights)', uniform(128, 50_000), ['-3']],
		['uniform 4-bit data, level 19', uniform(16, 50_000), ['-19']],
		['random data (raw blocks)', RANDOM, ['-3']],
		['random data, level 19', RANDOM, ['-19']],
		['a megabyte of zeros (RLE blocks)', ZEROS, ['-3']],
		['a megabyte of zeros from stdin', ZEROS, ['-19'], false],
		['a repeated short pattern', PATTERN, ['-3']],
		['runs of short periods, level 1', shortPeriods(200_000), ['-1']],
		['runs of short periods, level 19', shortPeriods(200_000), ['-19']],
		['one byte', new Uint8Array([0x41]), ['-3']],
		['one byte from stdin', new Uint8Array([0x41]), ['-3'], false],
		['two bytes, level 19', new Uint8Array([0x0a, 0x0d]), ['-19']],
		['a short line', new TextEncoder().encode('device.name\r\nLT-1\r\n'), ['-3']],
		['an empty file', new Uint8Array(0), ['-3']],
		['empty stdin', new Uint8Array(0), ['-3'], false],
	];

	it.each(cases)('decodes %s', (_name, original, args, fromFile = true) => {
		expectRoundTrip(original, zstdCompress(original, args, fromFile));
	}, DATA_WORK_TIMEOUT_MS);

	it('decodes --long=27 data whose repeats lie beyond the normal window', () => {
		const fitted = zstdCompress(LONG_DISTANCE, ['-3', '--long=27']);
		const plain = zstdCompress(LONG_DISTANCE, ['-3']);
		// Only long-distance matching finds the repeated noise, so the frame really uses far offsets.
		expect(fitted.length).toBeLessThan(plain.length - 400_000);
		expectRoundTrip(LONG_DISTANCE, fitted);
	}, DATA_WORK_TIMEOUT_MS);

	it('decodes a --long=27 stream that declares the full 128 MiB window, with the default limit', () => {
		const compressed = zstdCompress(LONG_DISTANCE, ['-3', '--long=27'], false);
		// Window_Descriptor byte right after the frame header descriptor: exponent 17, so 2^27.
		expect(compressed[5] >>> 3).toBe(17);
		expectRoundTrip(LONG_DISTANCE, compressed);
	}, DATA_WORK_TIMEOUT_MS);

	it('decodes offsets beyond 32 MiB, whose extra bits take more than one read', () => {
		const far = concat([NOISE, new Uint8Array(33 * 1024 * 1024), NOISE]);
		const compressed = zstdCompress(far, ['-1', '--long=27'], false);
		expect(compressed.length).toBeLessThan(NOISE.length + 100_000);
		for (const chunkSize of [64 * 1024, Infinity]) {
			expect(equalBytes(decodeInChunks(compressed, chunkSize), far)).toBe(true);
		}
	}, DATA_WORK_TIMEOUT_MS);

	it('decodes concatenated frames as one stream', () => {
		const parts = [CSV.subarray(0, 100_000), MIXED, new Uint8Array(0), RANDOM.subarray(0, 5000)];
		const compressed = concat([
			zstdCompress(parts[0], ['-3']),
			zstdCompress(parts[1], ['-19', '--no-check'], false),
			zstdCompress(parts[2], ['-3']),
			zstdCompress(parts[3], ['-1', '--no-content-size']),
		]);
		expectRoundTrip(concat(parts), compressed);
	}, DATA_WORK_TIMEOUT_MS);

	it('skips skippable frames before, between and after frames', () => {
		const compressed = concat([
			skippableFrame(0, new TextEncoder().encode('metadata')),
			zstdCompress(CSV.subarray(0, 50_000), ['-3']),
			skippableFrame(0xf, new Uint8Array(0)),
			skippableFrame(7, randomBytes(random, 70_000)),
			zstdCompress(MIXED, ['-9']),
			skippableFrame(3, new Uint8Array([ZSTD_MAGIC[0], ZSTD_MAGIC[1], ZSTD_MAGIC[2], ZSTD_MAGIC[3]])),
		]);
		expectRoundTrip(concat([CSV.subarray(0, 50_000), MIXED]), compressed);
	});

	it('decodes zero bytes of input to zero bytes, and a lone skippable frame to nothing', () => {
		expect(decodeInChunks(new Uint8Array(0), Infinity)).toHaveLength(0);
		expect(decompressZstd(skippableFrame(1, randomBytes(random, 100)))).toHaveLength(0);
	});
});

describe('randomized round trips', () => {
	it('restores 30 seeded random inputs compressed with random settings and split at random', () => {
		const rng = seededRandom(20240611);
		const pick = <T>(values: readonly T[]): T => values[Math.floor(rng() * values.length)];
		for (let round = 0; round < 30; round++) {
			const length = Math.floor(rng() ** 2 * 300_000);
			const kind = pick(['mixed', 'csv', 'random', 'runs'] as const);
			const original =
				kind === 'mixed'
					? mixedData(rng, length)
					: kind === 'csv'
						? csvExport(rng, Math.floor(length / 150)).subarray(0, length)
						: kind === 'random'
							? randomBytes(rng, length)
							: new Uint8Array(length).fill(Math.floor(rng() * 256));
			const args = [pick(['-1', '-3', '-6', '-12', '-19', '--fast=3'])];
			if (rng() < 0.3) args.push('--no-check');
			if (rng() < 0.3) args.push('--no-content-size');
			if (rng() < 0.3) args.push(`--zstd=wlog=${10 + Math.floor(rng() * 10)}`);
			const compressed = zstdCompress(original, args, rng() < 0.5);
			const chunkSize = pick([1 + Math.floor(rng() * 16), 1 + Math.floor(rng() * 5000), 65536]);
			const decoded = decodeInChunks(compressed, chunkSize);
			expect({ round, kind, args, chunkSize, length: decoded.length }).toEqual({
				round,
				kind,
				args,
				chunkSize,
				length: original.length,
			});
			expect(equalBytes(decoded, original)).toBe(true);
		}
	}, DATA_WORK_TIMEOUT_MS);
});

describe('streaming contract', () => {
	it('hands out output as it goes, in chunks no later push overwrites', () => {
		// A 16 KiB window (so 16 KiB blocks) over 400 KB of output: the decoder's ring is reused many times.
		const compressed = zstdCompress(CSV, ['-3', '--zstd=wlog=14'], false);
		const decoder = new ZstdDecoder();
		const chunks: Uint8Array[] = [];
		let pushesWithOutput = 0;
		for (let offset = 0; offset < compressed.length; offset += 1024) {
			const produced = decoder.push(compressed.subarray(offset, offset + 1024));
			if (produced.length > 0) pushesWithOutput++;
			chunks.push(...produced);
		}
		chunks.push(...decoder.end());
		expect(pushesWithOutput).toBeGreaterThan(10);
		expect(equalBytes(concat(chunks), CSV)).toBe(true);
	});

	it('may be fed empty chunks', () => {
		const compressed = zstdCompress(CSV.subarray(0, 1000), ['-3']);
		const decoder = new ZstdDecoder();
		const chunks = [...decoder.push(new Uint8Array(0)), ...decoder.push(compressed), ...decoder.push(new Uint8Array(0))];
		chunks.push(...decoder.end());
		expect(equalBytes(concat(chunks), CSV.subarray(0, 1000))).toBe(true);
	});

	it('refuses use after end, and keeps failing after an error', () => {
		const decoder = new ZstdDecoder();
		decoder.end();
		expect(() => decoder.push(new Uint8Array([1]))).toThrow('already ended');

		const failed = new ZstdDecoder();
		expect(() => failed.push(new Uint8Array([1, 2, 3, 4]))).toThrow(ZstdError);
		expect(() => failed.push(zstdCompress(CSV.subarray(0, 100), ['-3']))).toThrow(ZstdError);
		expect(() => failed.end()).toThrow(ZstdError);
	});

	it('exports the frame magic number', () => {
		expect([...ZSTD_MAGIC]).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
		const compressed = zstdCompress(CSV.subarray(0, 10), ['-3']);
		expect([...compressed.subarray(0, 4)]).toEqual([...ZSTD_MAGIC]);
	});

	it('validates maxWindowSize', () => {
		expect(() => new ZstdDecoder({ maxWindowSize: 0 })).toThrow(RangeError);
		expect(() => new ZstdDecoder({ maxWindowSize: 1.5 })).toThrow(RangeError);
		expect(() => new ZstdDecoder({ maxWindowSize: 2 ** 32 })).toThrow(RangeError);
	});
});

describe('window size limit', () => {
	it('rejects a frame whose window exceeds maxWindowSize, naming both sizes', () => {
		const compressed = zstdCompress(CSV, ['-3', '--long=27'], false);
		const error = zstdErrorOf(() => decodeInChunks(compressed, 65536, { maxWindowSize: 2 ** 26 }));
		expect(error).toBeInstanceOf(ZstdError);
		expect(error?.offset).toBe(4);
		expect(error?.message).toContain(String(2 ** 27));
		expect(error?.message).toContain(String(2 ** 26));
	});

	it('accepts a frame exactly at the limit', () => {
		const compressed = zstdCompress(CSV, ['-3', '--zstd=wlog=17'], false);
		expect(equalBytes(decodeInChunks(compressed, 65536, { maxWindowSize: 2 ** 17 }), CSV)).toBe(true);
	});
});
