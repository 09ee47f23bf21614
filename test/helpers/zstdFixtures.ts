// Inputs for the Zstandard decoder tests: seeded data generators, compression through the reference
// `zstd` CLI, and chunked decoding.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { ZstdDecoder, ZstdError } from '../../nodes/Nexthink/results/zstd';
import type { ZstdDecoderOptions } from '../../nodes/Nexthink/results/zstd';

/** Deterministic PRNG (mulberry32) returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function randomBytes(random: () => number, length: number): Uint8Array {
	const bytes = new Uint8Array(length);
	for (let i = 0; i < length; i++) bytes[i] = Math.floor(random() * 256);
	return bytes;
}

/** A CSV like the API's exports: NQL column names, ids, enums, dates, numbers and quoted fields. */
export function csvExport(random: () => number, rows: number): Uint8Array {
	const pick = (values: readonly string[]) => values[Math.floor(random() * values.length)];
	const hex = (digits: number) => {
		let text = '';
		for (let i = 0; i < digits; i++) text += Math.floor(random() * 16).toString(16);
		return text;
	};
	const lines = [
		'device.name,device.uid,device.entity,device.operating_system.name,device.hardware.model,' +
			'device.last_seen,device.hardware.memory,device.crashes,device.user.name',
	];
	for (let row = 0; row < rows; row++) {
		lines.push(
			[
				`LT-${100000 + Math.floor(random() * 900000)}`,
				`${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`,
				pick(['Lausanne', 'Boston', '"Zurich, HQ"', 'Lisbon']),
				pick(['Windows 11 Enterprise 23H2', 'Windows 10 Pro 22H2', 'macOS Sonoma 14.5']),
				pick(['"Dell Inc., Latitude 7440"', '"Lenovo, ThinkPad T14 ""Gen 4"""', 'MacBook Pro']),
				`2024-06-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}T10:00:00.000Z`,
				pick(['8589934592', '17179869184', '34359738368']),
				String(Math.floor(random() * random() * 9)),
				`"user${Math.floor(random() * 5000)}@example.com"`,
			].join(','),
		);
	}
	return new TextEncoder().encode(lines.join('\r\n') + '\r\n');
}

/** Text with structure at every scale: words, repeated lines, runs of one byte and noise. */
export function mixedData(random: () => number, length: number): Uint8Array {
	const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', ',', '\n', '"quoted, text"', '12345'];
	const out = new Uint8Array(length);
	let position = 0;
	while (position < length) {
		const kind = random();
		const size = Math.min(length - position, 1 + Math.floor(random() * 300));
		if (kind < 0.4) {
			for (let i = 0; i < size; ) {
				const word = words[Math.floor(random() * words.length)];
				for (let j = 0; j < word.length && i < size; j++, i++) out[position + i] = word.charCodeAt(j);
			}
		} else if (kind < 0.6 && position > 0) {
			// Copy an earlier stretch, near or far.
			const from = Math.floor(random() * position);
			for (let i = 0; i < size; i++) out[position + i] = out[from + (i % (position - from))];
		} else if (kind < 0.8) {
			out.fill(Math.floor(random() * 256), position, position + size);
		} else {
			out.set(randomBytes(random, size), position);
		}
		position += size;
	}
	return out;
}

let directory: string | undefined;

/** A temp dir for this test file's CLI inputs and outputs, removed by `removeTestDirectory`. */
export function testDirectory(): string {
	directory ??= fs.mkdtempSync(path.join(os.tmpdir(), 'zstd-test-'));
	return directory;
}

export function removeTestDirectory(): void {
	if (directory !== undefined) fs.rmSync(directory, { recursive: true, force: true });
	directory = undefined;
}

let fileCounter = 0;

/**
 * Compresses `data` with the zstd CLI. `fromFile` compresses a file (the CLI then knows the size: content
 * size in the header, window fitted to the data); otherwise it reads stdin (no size known).
 */
export function zstdCompress(data: Uint8Array, args: readonly string[], fromFile = true): Uint8Array {
	if (!fromFile) {
		return new Uint8Array(execFileSync('zstd', ['-q', '-c', ...args], { input: data, maxBuffer: 1 << 30 }));
	}
	const input = path.join(testDirectory(), `input-${fileCounter++}`);
	fs.writeFileSync(input, data);
	const output = `${input}.zst`;
	execFileSync('zstd', ['-q', '-f', ...args, input, '-o', output]);
	const compressed = new Uint8Array(fs.readFileSync(output));
	fs.rmSync(input);
	fs.rmSync(output);
	return compressed;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
	const result = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
	let position = 0;
	for (const part of parts) {
		result.set(part, position);
		position += part.length;
	}
	return result;
}

/**
 * Decodes `data` pushed in pieces of `chunkSize` bytes (Infinity: in one piece) from one reused buffer
 * that is scribbled over after every push, so a decoder that kept a reference to it would go wrong.
 * Returns the concatenated output, collected only at the end (so chunks must not be overwritten later).
 */
export function decodeInChunks(data: Uint8Array, chunkSize: number, options?: ZstdDecoderOptions): Uint8Array {
	const decoder = new ZstdDecoder(options);
	const outputs: Uint8Array[] = [];
	const size = Math.min(chunkSize, Math.max(data.length, 1));
	const reused = new Uint8Array(size);
	for (let offset = 0; offset < data.length; offset += size) {
		const piece = reused.subarray(0, Math.min(size, data.length - offset));
		piece.set(data.subarray(offset, offset + piece.length));
		outputs.push(...decoder.push(piece));
		piece.fill(0xa5);
	}
	outputs.push(...decoder.end());
	return concat(outputs);
}

/** Runs `decode` and returns the ZstdError it throws, or undefined if it succeeds; other errors propagate. */
export function zstdErrorOf(decode: () => unknown): ZstdError | undefined {
	try {
		decode();
	} catch (error) {
		if (error instanceof ZstdError) return error;
		throw error;
	}
	return undefined;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
	return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}
