import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';

import {
	decompressChunks,
	detectCompression,
	DecompressionError,
	type Compression,
	type Counted,
} from '../../../nodes/Nexthink/results/decompress';
import { chunked, type SourceLog } from '../../helpers/chunkedSource';

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
	const parts: Uint8Array[] = [];
	for await (const chunk of chunks) parts.push(chunk);
	return Buffer.concat(parts);
}

async function decompress(bytes: Uint8Array, declared: Compression, size = 65536): Promise<{ data: Buffer; detected?: Compression }> {
	const counted: Counted = { compressed: 0, decompressed: 0 };
	const data = await collect(decompressChunks(chunked(bytes, size), declared, { counted }));
	return { data, detected: counted.compression };
}

async function decompressError(bytes: Uint8Array, declared: Compression, size = 65536): Promise<Error> {
	try {
		await decompress(bytes, declared, size);
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected decompression to fail');
}

function zstdCli(input: Uint8Array, ...args: string[]): Buffer {
	return execFileSync('zstd', ['-q', '-c', ...args], { input, maxBuffer: 1 << 28 });
}

function gzipCli(input: Uint8Array): Buffer {
	return execFileSync('gzip', ['-c', '-n'], { input, maxBuffer: 1 << 28 });
}

function csvText(rows: number): Buffer {
	const lines = ['device.name,device.uid,note'];
	for (let index = 0; index < rows; index++) lines.push(`PC-${index},${index * 7919},"x ""${index}"", ü"`);
	return Buffer.from(`${lines.join('\n')}\n`);
}

interface Fixtures {
	csv: Buffer;
	gzip: Array<[string, Buffer]>;
	zstd: Array<[string, Buffer]>;
}

function fixtures(csv: Buffer): Fixtures {
	return {
		csv,
		gzip: [
			['node zlib', gzipSync(csv)],
			['gzip CLI', gzipCli(csv)],
		],
		zstd: [
			['zstd CLI level 3', zstdCli(csv)],
			['zstd CLI level 19 with checksum', zstdCli(csv, '-19', '--check')],
		],
	};
}

const LARGE = fixtures(csvText(1500));
const { csv: CSV, gzip: GZIP_FIXTURES, zstd: ZSTD_FIXTURES } = LARGE;
// Tiny chunks put a boundary at every position of a file, which a file of a few rows already
// shows; feeding the large one byte by byte is thousands of awaits per declared compression, and
// would take seconds on a busy machine for nothing more.
const SMALL = fixtures(csvText(60));
const SIZES: Array<[number, Fixtures]> = [
	[1, SMALL],
	[7, SMALL],
	[65536, LARGE],
];

describe('detectCompression', () => {
	it.each([
		[[0x1f, 0x8b, 0x08], 'GZIP'],
		[[0x1f, 0x8b], 'GZIP'],
		[[0x28, 0xb5, 0x2f, 0xfd, 0x04], 'ZSTD'],
		[[0x50, 0x2a, 0x4d, 0x18], 'ZSTD'],
		[[0x5f, 0x2a, 0x4d, 0x18, 0x00], 'ZSTD'],
		[[...Buffer.from('device.name\n')], 'NONE'],
		[[0xef, 0xbb, 0xbf, 0x61], 'NONE'],
		[[0x1f, 0x8c], 'NONE'],
		[[0x28, 0xb5, 0x2f, 0xfe], 'NONE'],
		[[0x28, 0x61], 'NONE'],
		[[0x60, 0x2a, 0x4d, 0x18], 'NONE'],
	])('%j is %s', (bytes, expected) => {
		expect(detectCompression(Uint8Array.from(bytes))).toBe(expected);
	});

	it.each([[[]], [[0x1f]], [[0x28]], [[0x28, 0xb5]], [[0x28, 0xb5, 0x2f]], [[0x52, 0x2a, 0x4d]]])(
		'%j is undecided',
		(bytes) => {
			expect(detectCompression(Uint8Array.from(bytes))).toBeUndefined();
		},
	);
});

describe('decompressChunks', () => {
	describe.each(SIZES)('in %d-byte chunks', (size, { csv, gzip, zstd }) => {
		it.each(gzip)('gunzips a file made by %s, whatever was declared', async (_maker, file) => {
			for (const declared of ['GZIP', 'NONE', 'ZSTD'] as const) {
				const { data, detected } = await decompress(file, declared, size);
				expect(detected).toBe('GZIP');
				expect(data.equals(csv)).toBe(true);
			}
		});

		it.each(zstd)('decodes a file made by %s, whatever was declared', async (_maker, file) => {
			for (const declared of ['ZSTD', 'NONE', 'GZIP'] as const) {
				const { data, detected } = await decompress(file, declared, size);
				expect(detected).toBe('ZSTD');
				expect(data.equals(csv)).toBe(true);
			}
		});

		it('passes plain text through, also when compression was declared', async () => {
			for (const declared of ['NONE', 'GZIP', 'ZSTD'] as const) {
				const { data, detected } = await decompress(csv, declared, size);
				expect(detected).toBe('NONE');
				expect(data.equals(csv)).toBe(true);
			}
		});

		it('fails on truncated gzip data instead of returning part of it', async () => {
			const file = gzip[0][1];
			for (const cut of [10, 100, file.length - 4]) {
				const error = await decompressError(file.subarray(0, cut), 'GZIP', size);
				expect(error).toBeInstanceOf(DecompressionError);
				expect(error.message).toBe('Could not decompress the results file as gzip: the compressed data ends too early (truncated download?)');
			}
		});

		it('fails on truncated Zstandard data', async () => {
			const file = zstd[0][1];
			for (const cut of [6, 100, file.length - 1]) {
				const error = await decompressError(file.subarray(0, cut), 'ZSTD', size);
				expect(error).toBeInstanceOf(DecompressionError);
				expect(error.message).toMatch(/^Could not decompress the results file as Zstandard: .*ends inside/);
				expect((error as DecompressionError).compression).toBe('ZSTD');
			}
		});
	});

	it('fails on corrupt gzip data: a damaged body, a wrong checksum, garbage after the end', async () => {
		const file = GZIP_FIXTURES[0][1];
		const damaged = Buffer.from(file);
		damaged[Math.floor(file.length / 2)] ^= 0x55;
		const badChecksum = Buffer.from(file);
		badChecksum[file.length - 6] ^= 0xff;
		for (const bytes of [damaged, badChecksum, Buffer.concat([file, Buffer.from('garbage')])]) {
			const error = await decompressError(bytes, 'GZIP');
			expect(error).toBeInstanceOf(DecompressionError);
			expect(error.message).toMatch(/^Could not decompress the results file as gzip: /);
		}
	});

	it('fails on corrupt Zstandard data', async () => {
		const file = zstdCli(CSV, '--check');
		const damaged = Buffer.from(file);
		for (let index = 20; index < damaged.length; index += 97) damaged[index] ^= 0x5a;
		const error = await decompressError(damaged, 'ZSTD');
		expect(error).toBeInstanceOf(DecompressionError);
		expect(error.message).toMatch(/^Could not decompress the results file as Zstandard: /);
	});

	it('reads Zstandard files of several frames and skippable frames', async () => {
		const skippable = Buffer.concat([Buffer.from([0x53, 0x2a, 0x4d, 0x18, 3, 0, 0, 0]), Buffer.from('abc')]);
		const zstd = Buffer.concat([skippable, zstdCli(CSV.subarray(0, 1000)), zstdCli(CSV.subarray(1000))]);
		const { data, detected } = await decompress(zstd, 'NONE', 7);
		expect(detected).toBe('ZSTD');
		expect(data.equals(CSV)).toBe(true);
	});

	// The runtime's DecompressionStream decides: Node 20 reads every member of a gzip file, Node 22
	// and later (n8n 2.x runs on 24) refuse what follows the first one. Either way nothing is lost
	// silently. Nexthink writes one member per file.
	const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
	it(`${NODE_MAJOR >= 22 ? 'refuses' : 'reads'} gzip files of several members on Node.js ${NODE_MAJOR}`, async () => {
		const gzipped = Buffer.concat([gzipSync(CSV.subarray(0, 1000)), gzipSync(CSV.subarray(1000))]);
		if (NODE_MAJOR < 22) {
			expect((await decompress(gzipped, 'GZIP', 7)).data.equals(CSV)).toBe(true);
			return;
		}
		const error = await decompressError(gzipped, 'GZIP', 7);
		expect(error).toBeInstanceOf(DecompressionError);
		expect(error.message).toBe(
			'Could not decompress the results file as gzip: there are bytes after the end of the gzip data (another gzip member or other data), which the gzip decoder of Node.js 22 and later does not read',
		);
	});

	it('decodes incompressible data', async () => {
		const noise = randomBytes(300_000);
		expect((await decompress(gzipSync(noise), 'GZIP', 4096)).data.equals(noise)).toBe(true);
		expect((await decompress(zstdCli(noise), 'ZSTD', 4096)).data.equals(noise)).toBe(true);
	});

	it('gives nothing for an empty plain file', async () => {
		expect(await decompress(new Uint8Array(0), 'NONE')).toEqual({ data: Buffer.alloc(0), detected: 'NONE' });
	});

	it('fails when a file declared compressed is empty or stops inside the magic number', async () => {
		const empty = await decompressError(new Uint8Array(0), 'GZIP');
		expect(empty).toBeInstanceOf(DecompressionError);
		expect(empty.message).toBe('Could not decompress the results file as gzip: the file is empty (truncated download?)');
		const cut = await decompressError(Uint8Array.from([0x28, 0xb5]), 'ZSTD', 1);
		expect(cut.message).toBe('Could not decompress the results file as Zstandard: the file ends after 2 bytes (truncated download?)');
	});

	it('reads a short plain file that starts like a magic number as plain text', async () => {
		expect((await decompress(Buffer.from('('), 'NONE')).data.toString()).toBe('(');
	});

	it('skips empty chunks from the source', async () => {
		async function* source(): AsyncGenerator<Uint8Array> {
			yield new Uint8Array(0);
			yield GZIP_FIXTURES[0][1].subarray(0, 1);
			yield new Uint8Array(0);
			yield GZIP_FIXTURES[0][1].subarray(1);
		}
		expect((await collect(decompressChunks(source(), 'GZIP'))).equals(CSV)).toBe(true);
	});

	it.each([
		['plain', CSV],
		['gzip', GZIP_FIXTURES[0][1]],
		['Zstandard', ZSTD_FIXTURES[0][1]],
	])('passes an error of the source through unchanged (%s)', async (_name, file) => {
		const broken = new Error('socket hang up');
		async function* source(): AsyncGenerator<Uint8Array> {
			yield file.subarray(0, 200);
			throw broken;
		}
		await expect(collect(decompressChunks(source(), 'NONE'))).rejects.toBe(broken);
	});

	it.each([
		['plain', CSV],
		['gzip', gzipSync(csvText(200_000))],
		['Zstandard', zstdCli(csvText(200_000))],
	])('stops reading and closes the source when the consumer stops early (%s)', async (_name, file) => {
		const log: SourceLog = { pulled: 0, closed: false };
		const chunkCount = Math.ceil(file.length / 1024);
		for await (const chunk of decompressChunks(chunked(file, 1024, log), 'NONE')) {
			expect(chunk.length).toBeGreaterThan(0);
			break;
		}
		expect(log.closed).toBe(true);
		expect(log.pulled).toBeLessThan(chunkCount);
	});

	it('does not read the source far ahead of a slow reader (gzip)', async () => {
		// about 360 chunks: a reader that ran ahead would pull them all during the pause (Node 20's
		// DecompressionStream takes about 20 before its first output, Node 24's about 70)
		const file = gzipSync(csvText(40_000));
		const log: SourceLog = { pulled: 0, closed: false };
		const chunks = decompressChunks(chunked(file, 1024, log), 'GZIP');
		await chunks.next();
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(log.pulled).toBeLessThan(150);
		await chunks.return();
		expect(log.closed).toBe(true);
	});
});
