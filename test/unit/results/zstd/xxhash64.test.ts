// XXH64 against published vectors and against the checksums the zstd CLI stores (the low 32 bits of
// XXH64 of the content), fed in arbitrary pieces.
import { execFileSync } from 'node:child_process';

import { Xxhash64 } from '../../../../nodes/Nexthink/results/zstd/xxhash64';
import { randomBytes, seededRandom } from '../../../helpers/zstdFixtures';
import { DATA_WORK_TIMEOUT_MS } from '../../../helpers/timeouts';

function hex(digest: { high: number; low: number }): string {
	return digest.high.toString(16).padStart(8, '0') + digest.low.toString(16).padStart(8, '0');
}

function hashInPieces(data: Uint8Array, random: () => number): { high: number; low: number } {
	const hash = new Xxhash64();
	let position = 0;
	while (position < data.length) {
		const end = Math.min(data.length, position + 1 + Math.floor(random() * 100));
		hash.update(data, position, end);
		position = end;
	}
	return hash.digest();
}

const MASK = (1n << 64n) - 1n;
const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;
const rotl = (value: bigint, bits: bigint) => ((value << bits) | (value >> (64n - bits))) & MASK;
const round = (acc: bigint, input: bigint) => (rotl((acc + input * P2) & MASK, 31n) * P1) & MASK;

/** Reference XXH64 (seed 0) on BigInt, written from the specification, for the differential test. */
function referenceXxhash64(data: Uint8Array): bigint {
	const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
	const word = (at: number) => view.getBigUint64(at, true);
	let position = 0;
	let hash: bigint;
	if (data.length >= 32) {
		const lanes = [(P1 + P2) & MASK, P2, 0n, (0n - P1) & MASK];
		for (; position + 32 <= data.length; position += 32) {
			for (let lane = 0; lane < 4; lane++) lanes[lane] = round(lanes[lane], word(position + 8 * lane));
		}
		hash = (rotl(lanes[0], 1n) + rotl(lanes[1], 7n) + rotl(lanes[2], 12n) + rotl(lanes[3], 18n)) & MASK;
		for (const lane of lanes) hash = ((hash ^ round(0n, lane)) * P1 + P4) & MASK;
	} else {
		hash = P5;
	}
	hash = (hash + BigInt(data.length)) & MASK;
	for (; position + 8 <= data.length; position += 8)
		hash = (rotl(hash ^ round(0n, word(position)), 27n) * P1 + P4) & MASK;
	if (position + 4 <= data.length) {
		hash = (rotl(hash ^ ((BigInt(view.getUint32(position, true)) * P1) & MASK), 23n) * P2 + P3) & MASK;
		position += 4;
	}
	for (; position < data.length; position++)
		hash = (rotl(hash ^ ((BigInt(data[position]) * P5) & MASK), 11n) * P1) & MASK;
	hash = ((hash ^ (hash >> 33n)) * P2) & MASK;
	hash = ((hash ^ (hash >> 29n)) * P3) & MASK;
	return hash ^ (hash >> 32n);
}

/** The checksum field the CLI writes at the end of a single frame. */
function zstdChecksum(data: Uint8Array): number {
	const frame = execFileSync('zstd', ['-q', '-c', '--check', '-1'], { input: data });
	return frame.readUInt32LE(frame.length - 4);
}

describe('Xxhash64', () => {
	it.each([
		['', 'ef46db3751d8e999'],
		['a', 'd24ec4f1a98c6e5b'],
		['abc', '44bc2cf5ad770999'],
	])('hashes %j to the published value %s', (text, expected) => {
		const hash = new Xxhash64();
		const bytes = new TextEncoder().encode(text);
		hash.update(bytes, 0, bytes.length);
		expect(hex(hash.digest())).toBe(expected);
	});

	it('matches the checksums of the zstd CLI for every length around the 32-byte stripe, fed in pieces', () => {
		const random = seededRandom(64);
		const lengths = [...Array.from({ length: 70 }, (_, i) => i), 100, 1000, 4095, 65_537, 1_000_003];
		for (const length of lengths) {
			const data = randomBytes(random, length);
			expect({ length, low: hashInPieces(data, random).low }).toEqual({ length, low: zstdChecksum(data) });
		}
	}, DATA_WORK_TIMEOUT_MS);

	it('matches the CLI for inputs longer than its 64 KiB scratch buffer, in one piece or across its boundary', () => {
		const random = seededRandom(66);
		const data = randomBytes(random, 300_007);
		const whole = new Xxhash64();
		whole.update(data, 0, data.length);
		const split = new Xxhash64();
		for (const [start, end] of [[0, 65_535], [65_535, 65_537], [65_537, 200_000], [200_000, data.length]]) split.update(data, start, end);
		const expected = zstdChecksum(data);
		expect(whole.digest().low).toBe(expected);
		expect(split.digest().low).toBe(expected);
	}, DATA_WORK_TIMEOUT_MS);

	it('equals a BigInt reference on every bit of the digest, for random lengths, contents and chunkings', () => {
		const random = seededRandom(67);
		// Bytes with many high bits set and long runs of 0xff or 0x00 reach the carries of the 64-bit sums.
		const byteSources = [
			() => Math.floor(random() * 256),
			() => (random() < 0.5 ? 0xff : Math.floor(random() * 256)),
			() => (random() < 0.9 ? 0 : 0xff),
		];
		for (let trial = 0; trial < 400; trial++) {
			const length = trial < 100 ? trial : Math.floor(random() ** 3 * 20_000);
			const nextByte = byteSources[trial % byteSources.length];
			const padded = new Uint8Array(length + 7);
			for (let i = 0; i < padded.length; i++) padded[i] = nextByte();
			const start = trial % 7;
			const hash = new Xxhash64();
			let position = start;
			while (position < start + length) {
				const piece = random() < 0.3 ? Math.floor(random() * 40) : Math.floor(random() * 5000);
				const end = Math.min(start + length, position + piece);
				hash.update(padded, position, end);
				position = end;
			}
			const expected = referenceXxhash64(padded.subarray(start, start + length)).toString(16).padStart(16, '0');
			expect({ trial, length, digest: hex(hash.digest()) }).toEqual({ trial, length, digest: expected });
		}
	}, DATA_WORK_TIMEOUT_MS);

	it('equals the reference whether stripes are read in place (8-aligned) or through the scratch copy, switching between them', () => {
		const random = seededRandom(68);
		const data = randomBytes(random, 200_003);
		const expected = referenceXxhash64(data).toString(16).padStart(16, '0');
		// The same bytes at every alignment, in buffers whose lengths are no multiple of 8.
		const copies = Array.from({ length: 8 }, (_, shift) => {
			const buffer = new Uint8Array(data.length + shift + 5);
			buffer.set(data, shift);
			return { buffer, shift };
		});
		for (let trial = 0; trial < 60; trial++) {
			// Trials 0-7 keep to one copy (alignment `trial`), the others switch copies between pieces.
			const hash = new Xxhash64();
			let position = 0;
			while (position < data.length) {
				const piece = random() < 0.3 ? Math.floor(random() * 70) : Math.floor(random() * 30_000);
				const end = Math.min(data.length, position + piece);
				const { buffer, shift } = copies[trial < 8 ? trial : Math.floor(random() * 8)];
				hash.update(buffer, shift + position, shift + end);
				position = end;
			}
			expect({ trial, digest: hex(hash.digest()) }).toEqual({ trial, digest: expected });
		}
		// A view whose byteOffset is not 0, aligned and not.
		for (const offset of [8, 13]) {
			const view = new Uint8Array(new ArrayBuffer(data.length + 45), offset, data.length + 40 - offset);
			view.set(data, 40 - offset);
			const hash = new Xxhash64();
			hash.update(view, 40 - offset, 40 - offset + data.length);
			expect(hex(hash.digest())).toBe(expected);
		}
	}, DATA_WORK_TIMEOUT_MS);

	it('hashes a range of a larger array, and starts over after reset', () => {
		const random = seededRandom(65);
		const data = randomBytes(random, 5000);
		const whole = new Xxhash64();
		whole.update(data, 1000, 4000);
		const copy = new Xxhash64();
		copy.update(data.slice(1000, 4000), 0, 3000);
		expect(hex(whole.digest())).toBe(hex(copy.digest()));

		whole.reset();
		whole.update(data, 0, 0);
		expect(hex(whole.digest())).toBe('ef46db3751d8e999');
	});
});
