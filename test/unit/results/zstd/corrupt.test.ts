// Bad input must end in a ZstdError that says what is wrong and where, never in a hang, a crash of
// another kind, or silently wrong output where the format can tell.
import { ZstdError, decompressZstd } from '../../../../nodes/Nexthink/results/zstd';
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

const random = seededRandom(4242);
const CSV = csvExport(random, 10);
const MIXED = mixedData(random, 1500);

function flipBit(data: Uint8Array, bit: number): Uint8Array {
	const copy = data.slice();
	copy[bit >>> 3] ^= 1 << (bit & 7);
	return copy;
}

/** Decodes, returning the output or the ZstdError; any other exception fails the test. */
function attempt(data: Uint8Array, chunkSize = Infinity): Uint8Array | ZstdError {
	let output: Uint8Array | undefined;
	const error = zstdErrorOf(() => {
		output = decodeInChunks(data, chunkSize);
	});
	return error ?? (output as Uint8Array);
}

describe('flipped bits', () => {
	const checksummed: Array<[string, Uint8Array, Uint8Array]> = [
		['a CSV frame, level 3', CSV, zstdCompress(CSV, ['-3', '--check'])],
		['a CSV frame, level 19 without content size', CSV, zstdCompress(CSV, ['-19', '--check', '--no-content-size'])],
		['a mixed-data frame, level 9 from stdin', MIXED, zstdCompress(MIXED, ['-9', '--check'], false)],
	];

	// With a content checksum, a flip either fails or hit a field that does not change the content (the
	// unused header bit, a larger window): the output can never differ from the original undetected.
	it.each(checksummed)('in %s fail or leave the output intact', (_name, original, compressed) => {
		let failures = 0;
		for (let bit = 0; bit < compressed.length * 8; bit++) {
			const result = attempt(flipBit(compressed, bit));
			if (result instanceof ZstdError) {
				failures++;
				expect(result.offset).toBeGreaterThanOrEqual(0);
				expect(result.offset).toBeLessThanOrEqual(compressed.length);
			} else if (!equalBytes(result, original)) {
				throw new Error(`flipping bit ${bit} changed the output without an error`);
			}
		}
		expect(failures).toBeGreaterThan(compressed.length * 8 * 0.95);
	}, DATA_WORK_TIMEOUT_MS);

	it('in the content checksum are reported as a checksum mismatch at its offset', () => {
		const compressed = zstdCompress(CSV, ['-3', '--check']);
		const error = attempt(flipBit(compressed, (compressed.length - 2) * 8));
		expect(error).toBeInstanceOf(ZstdError);
		expect((error as ZstdError).offset).toBe(compressed.length - 4);
		expect((error as ZstdError).message).toContain('checksum mismatch');
	});

	it('in frames without a checksum decode to something or fail with a ZstdError, fed whole or in pieces', () => {
		const compressed = zstdCompress(MIXED, ['-19', '--no-check']);
		let failures = 0;
		for (let bit = 0; bit < compressed.length * 8; bit++) {
			const corrupt = flipBit(compressed, bit);
			const whole = attempt(corrupt);
			const pieces = attempt(corrupt, 7);
			// Chunking never changes the outcome.
			if (whole instanceof ZstdError) {
				failures++;
				expect(pieces).toBeInstanceOf(ZstdError);
				expect((pieces as ZstdError).message).toBe(whole.message);
			} else {
				expect(equalBytes(pieces as Uint8Array, whole)).toBe(true);
			}
		}
		expect(failures).toBeGreaterThan(0);
	}, DATA_WORK_TIMEOUT_MS);
});

describe('truncation', () => {
	const frames: Array<[string, Uint8Array]> = [
		['a checksummed frame', zstdCompress(CSV, ['-3', '--check'])],
		['a frame without checksum or content size', zstdCompress(MIXED, ['-19', '--no-check', '--no-content-size'])],
		['a raw-block frame', zstdCompress(randomBytes(random, 500), ['-3'])],
	];

	it.each(frames)('of %s at every position fails at the end of the input', (_name, compressed) => {
		for (let length = 1; length < compressed.length; length++) {
			const prefix = compressed.subarray(0, length);
			for (const chunkSize of [Infinity, 1]) {
				const result = attempt(prefix, chunkSize);
				expect(result).toBeInstanceOf(ZstdError);
				const error = result as ZstdError;
				expect(error.message).toContain('ends inside');
				expect(error.offset).toBe(length);
			}
		}
	}, DATA_WORK_TIMEOUT_MS);

	it('after a complete frame, of a second frame, points past the first', () => {
		const first = zstdCompress(CSV, ['-3']);
		const second = zstdCompress(MIXED, ['-3']);
		const error = zstdErrorOf(() => decompressZstd(concat([first, second.subarray(0, 20)])));
		expect(error?.offset).toBe(first.length + 20);
	});
});

describe('garbage', () => {
	it('is not taken for a frame', () => {
		const rng = seededRandom(7);
		for (let round = 0; round < 200; round++) {
			const garbage = randomBytes(rng, 4 + Math.floor(rng() * 2000));
			const error = zstdErrorOf(() => decompressZstd(garbage));
			expect(error?.offset).toBe(0);
			expect(error?.message).toContain('expected a Zstandard frame magic number');
		}
		expect(zstdErrorOf(() => decompressZstd(new TextEncoder().encode('device.name,device.uid\r\n')))?.offset).toBe(0);
	});

	it('after a valid magic number fails with a ZstdError, whole or in pieces', () => {
		const rng = seededRandom(8);
		for (let round = 0; round < 300; round++) {
			const data = concat([new Uint8Array([0x28, 0xb5, 0x2f, 0xfd]), randomBytes(rng, 1 + Math.floor(rng() * 3000))]);
			expect(attempt(data)).toBeInstanceOf(ZstdError);
			expect(attempt(data, 7)).toBeInstanceOf(ZstdError);
		}
	}, DATA_WORK_TIMEOUT_MS);

	it('after a complete frame is reported at the offset where it starts', () => {
		const frame = zstdCompress(CSV, ['-3']);
		const error = zstdErrorOf(() => decompressZstd(concat([frame, new TextEncoder().encode('trailing text')])));
		expect(error?.offset).toBe(frame.length);
	});
});

describe('unsupported or invalid frame headers', () => {
	const magic = [0x28, 0xb5, 0x2f, 0xfd];

	it('rejects a frame that needs a dictionary, naming it', () => {
		// Descriptor 0x21: single segment, 1-byte dictionary id; dictionary 42; content size 1; one raw byte.
		const frame = new Uint8Array([...magic, 0x21, 42, 1, 0x09, 0x00, 0x00, 0x41]);
		const error = zstdErrorOf(() => decompressZstd(frame));
		expect(error?.offset).toBe(4);
		expect(error?.message).toContain('dictionary 42');
	});

	it('accepts a dictionary id of 0, which means none', () => {
		const frame = new Uint8Array([...magic, 0x21, 0, 1, 0x09, 0x00, 0x00, 0x41]);
		expect([...decompressZstd(frame)]).toEqual([0x41]);
	});

	it('rejects the reserved descriptor bit', () => {
		const frame = new Uint8Array([...magic, 0x28, 1, 0x09, 0x00, 0x00, 0x41]);
		expect(zstdErrorOf(() => decompressZstd(frame))?.message).toContain('reserved bit');
	});

	it('rejects an enormous window before allocating anything', () => {
		// Window descriptor 0xff: 2^41 + 7 * 2^38 bytes.
		const frame = new Uint8Array([...magic, 0x00, 0xff, 0x01, 0x00, 0x00]);
		const error = zstdErrorOf(() => decompressZstd(frame));
		expect(error?.offset).toBe(4);
		expect(error?.message).toContain(`window of ${2 ** 41 + 7 * 2 ** 38} bytes`);
	});

	it('rejects the reserved block type and oversized blocks at the block header', () => {
		const reserved = new Uint8Array([...magic, 0x00, 0x00, 0x07, 0x00, 0x00]);
		expect(zstdErrorOf(() => decompressZstd(reserved))).toMatchObject({ offset: 6 });
		expect(zstdErrorOf(() => decompressZstd(reserved))?.message).toContain('reserved');
		// 1 KiB window, raw block of 2 KiB.
		const oversized = new Uint8Array([...magic, 0x00, 0x00, 0x01, 0x40, 0x00]);
		expect(zstdErrorOf(() => decompressZstd(oversized))?.message).toContain('exceeds the frame');
	});

	it('rejects output that disagrees with the declared content size', () => {
		const compressed = zstdCompress(CSV, ['-3', '--no-check', '--zstd=wlog=10']);
		// Descriptor 0x40: a 2-byte content size (stored minus 256) after the window byte.
		expect(compressed[4]).toBe(0x40);
		const declared = compressed[6] + compressed[7] * 256 + 256;
		expect(declared).toBe(CSV.length);
		const declaring = (size: number) => {
			const tampered = compressed.slice();
			tampered[6] = (size - 256) & 0xff;
			tampered[7] = (size - 256) >>> 8;
			return zstdErrorOf(() => decompressZstd(tampered));
		};
		expect(declaring(CSV.length - 300)?.message).toContain(`more than its declared ${CSV.length - 300} bytes`);
		expect(declaring(CSV.length + 300)?.message).toContain(`${CSV.length} bytes but declares ${CSV.length + 300}`);
		expect(declaring(CSV.length + 300)?.offset).toBe(0);
	});
});
