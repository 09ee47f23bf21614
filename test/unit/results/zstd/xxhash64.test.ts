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
