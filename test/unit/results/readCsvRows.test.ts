import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';

import { CsvFormatError } from '../../../nodes/Nexthink/results/csv';
import { DecompressionError, type Compression } from '../../../nodes/Nexthink/results/decompress';
import { readCsvRows, type ReadCsvRowsOptions } from '../../../nodes/Nexthink/results/readCsvRows';
import { Utf8DecodeError } from '../../../nodes/Nexthink/results/utf8';
import { chunked, type SourceLog } from '../../helpers/chunkedSource';
import { DATA_WORK_TIMEOUT_MS } from '../../helpers/timeouts';

function zstdCli(input: Uint8Array): Buffer {
	return execFileSync('zstd', ['-q', '-c'], { input, maxBuffer: 1 << 28 });
}

const COMPRESSORS: Record<Compression, (data: Buffer) => Buffer> = {
	NONE: (data) => data,
	GZIP: (data) => gzipSync(data),
	ZSTD: zstdCli,
};

function read(file: Uint8Array, size: number, options: Partial<ReadCsvRowsOptions> = {}) {
	return readCsvRows(chunked(file, size), { compression: 'NONE', convertTypes: false, ...options });
}

async function readError(file: Uint8Array, size: number, options: Partial<ReadCsvRowsOptions> = {}): Promise<Error> {
	try {
		await read(file, size, options);
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected readCsvRows to fail');
}

// A BOM, CRLF line ends, quoted fields with commas, doubled quotes and line breaks, multi-byte
// characters (two-, three- and four-byte UTF-8) that 1- and 7-byte chunks split, no final line break.
const SAMPLE = Buffer.from(
	'\uFEFFdevice.name,device.uid,device.hardware.memory,virtual,note\r\n' +
		'PC-Zürich,0b3a-1,17179869184,false,"Doe, John"\r\n' +
		'PC-東京,0b3a-2,007,true,"said ""hi""\r\nsecond line"\r\n' +
		'PC-🚀,0b3a-3,1.50,,',
);
const SAMPLE_HEADER = ['device.name', 'device.uid', 'device.hardware.memory', 'virtual', 'note'];
const SAMPLE_ROWS = [
	{ 'device.name': 'PC-Zürich', 'device.uid': '0b3a-1', 'device.hardware.memory': '17179869184', virtual: 'false', note: 'Doe, John' },
	{ 'device.name': 'PC-東京', 'device.uid': '0b3a-2', 'device.hardware.memory': '007', virtual: 'true', note: 'said "hi"\r\nsecond line' },
	{ 'device.name': 'PC-🚀', 'device.uid': '0b3a-3', 'device.hardware.memory': '1.50', virtual: '', note: '' },
];

const SIZES = [Number.MAX_SAFE_INTEGER, 1, 7, 65536];

describe.each(['NONE', 'GZIP', 'ZSTD'] as const)('readCsvRows, %s file', (compression) => {
	const compress = COMPRESSORS[compression];

	it.each(SIZES)('reads the sample fed in chunks of %d bytes', async (size) => {
		const result = await read(compress(SAMPLE), size, { compression });
		expect(result).toEqual({
			header: SAMPLE_HEADER,
			rows: SAMPLE_ROWS,
			moreRowsAvailable: false,
			compression,
			bytesRead: compress(SAMPLE).length,
		});
	});

	it.each(SIZES)('converts types when asked (chunks of %d bytes)', async (size) => {
		const { rows } = await read(compress(SAMPLE), size, { compression, convertTypes: true });
		expect(rows).toEqual([
			{ 'device.name': 'PC-Zürich', 'device.uid': '0b3a-1', 'device.hardware.memory': 17179869184, virtual: false, note: 'Doe, John' },
			{ 'device.name': 'PC-東京', 'device.uid': '0b3a-2', 'device.hardware.memory': '007', virtual: true, note: 'said "hi"\r\nsecond line' },
			{ 'device.name': 'PC-🚀', 'device.uid': '0b3a-3', 'device.hardware.memory': '1.50', virtual: null, note: null },
		]);
	});

	it('reads an empty file as no columns and no rows', async () => {
		for (const size of SIZES) {
			const file = compression === 'NONE' ? Buffer.alloc(0) : compress(Buffer.alloc(0));
			expect(await read(file, size, { compression })).toEqual({
				header: [],
				rows: [],
				moreRowsAvailable: false,
				compression,
				bytesRead: file.length,
			});
		}
	});

	it('reads a header-only file as columns without rows', async () => {
		for (const text of ['a,b', 'a,b\n', '\uFEFFa,b\r\n']) {
			for (const size of SIZES) {
				const result = await read(compress(Buffer.from(text)), size, { compression });
				expect(result.header).toEqual(['a', 'b']);
				expect(result.rows).toEqual([]);
				expect(result.moreRowsAvailable).toBe(false);
			}
		}
	});

	it.each(SIZES)('reports a ragged row with its line (chunks of %d bytes)', async (size) => {
		const error = await readError(compress(Buffer.from('a,b\n1,2\n"x\ny",2\n3\n4,5\n')), size, { compression });
		expect(error).toBeInstanceOf(CsvFormatError);
		expect((error as CsvFormatError).line).toBe(5);
		expect(error.message).toBe('Invalid CSV on line 5: the row has 1 field but the header has 2');
	});

	it.each(SIZES)('reports an unterminated quote (chunks of %d bytes)', async (size) => {
		const error = await readError(compress(Buffer.from('a,b\n1,"2\n')), size, { compression });
		expect(error).toBeInstanceOf(CsvFormatError);
		expect((error as CsvFormatError).line).toBe(2);
	});

	it.each(SIZES)('reports invalid UTF-8 (chunks of %d bytes)', async (size) => {
		const invalid = Buffer.concat([Buffer.from('a,b\n1,'), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]);
		expect(await readError(compress(invalid), size, { compression })).toBeInstanceOf(Utf8DecodeError);
		const cutCharacter = Buffer.concat([Buffer.from('a,b\n1,'), Buffer.from('€').subarray(0, 2)]);
		const error = await readError(compress(cutCharacter), size, { compression });
		expect(error).toBeInstanceOf(Utf8DecodeError);
		expect(error.message).toContain('ends in the middle of a character');
	});

	it('stops after maxRows and says that more rows exist, without reading the whole file', async () => {
		const file = compress(roundTripCsv(200_000));
		const log: SourceLog = { pulled: 0, closed: false };
		const result = await readCsvRows(chunked(file, 4096, log), { compression, convertTypes: true, maxRows: 10 });
		expect(result.rows.map((row) => row.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(result.moreRowsAvailable).toBe(true);
		expect(log.closed).toBe(true);
		expect(log.pulled).toBeLessThan(file.length / 4096 / 2);
		expect(result.bytesRead).toBe(log.pulled === 0 ? 0 : Math.min(file.length, log.pulled * 4096));
	}, DATA_WORK_TIMEOUT_MS);
});

describe('readCsvRows', () => {
	it('keeps every row when maxRows is at least the row count, and says nothing more exists', async () => {
		const file = Buffer.from('a\n1\n2\n3\n');
		for (const maxRows of [3, 4, 1000]) {
			const result = await read(file, 1, { maxRows });
			expect(result.rows).toEqual([{ a: '1' }, { a: '2' }, { a: '3' }]);
			expect(result.moreRowsAvailable).toBe(false);
		}
	});

	it('with maxValues stops before the row that would pass rows times columns', async () => {
		const file = Buffer.from('a,b,c\n1,2,3\n4,5,6\n7,8,9\n');
		expect(await read(file, 5, { maxValues: 9 })).toMatchObject({ rows: [{ a: '1' }, { a: '4' }, { a: '7' }], moreRowsAvailable: false });
		expect(await read(file, 5, { maxValues: 8 })).toMatchObject({ rows: [{ a: '1' }, { a: '4' }], moreRowsAvailable: true });
		expect(await read(file, 5, { maxValues: 2 })).toMatchObject({ rows: [], moreRowsAvailable: true });
	});

	it('with maxRows 0 reads only the header and whether rows exist', async () => {
		expect(await read(Buffer.from('a,b\n1,2\n'), 7, { maxRows: 0 })).toMatchObject({ header: ['a', 'b'], rows: [], moreRowsAvailable: true });
		expect(await read(Buffer.from('a,b\n'), 7, { maxRows: 0 })).toMatchObject({ header: ['a', 'b'], rows: [], moreRowsAvailable: false });
	});

	it('does not check the file after the row limit', async () => {
		const result = await read(Buffer.from('a,b\n1,2\n3,4\n5\n"unterminated'), 3, { maxRows: 1 });
		expect(result.rows).toEqual([{ a: '1', b: '2' }]);
		expect(result.moreRowsAvailable).toBe(true);
	});

	it('rejects a maxRows that is not a non-negative integer', async () => {
		for (const maxRows of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
			await expect(read(Buffer.from('a\n1\n'), 7, { maxRows })).rejects.toThrow(RangeError);
		}
	});

	it('makes repeated and empty header names unique instead of losing columns', async () => {
		const result = await read(Buffer.from('name,name,,value\nx,y,z,1\n'), 7);
		expect(result.header).toEqual(['name', 'name_2', 'column_3', 'value']);
		expect(result.rows).toEqual([{ name: 'x', name_2: 'y', column_3: 'z', value: '1' }]);
	});

	it('reports the compression the file really has', async () => {
		const result = await read(gzipSync(SAMPLE), 7, { compression: 'NONE' });
		expect(result.compression).toBe('GZIP');
		expect(result.rows).toEqual(SAMPLE_ROWS);
		expect((await read(SAMPLE, 7, { compression: 'ZSTD' })).compression).toBe('NONE');
	});

	it('fails on a truncated compressed file instead of returning part of the rows', async () => {
		const file = gzipSync(roundTripCsv(20_000));
		const error = await readError(file.subarray(0, Math.floor(file.length * 0.8)), 65536, { compression: 'GZIP' });
		expect(error).toBeInstanceOf(DecompressionError);
		const zstd = zstdCli(roundTripCsv(20_000));
		expect(await readError(zstd.subarray(0, zstd.length - 3), 65536, { compression: 'ZSTD' })).toBeInstanceOf(DecompressionError);
	});

	it.each(['NONE', 'GZIP', 'ZSTD'] as const)('reads 200,000 rows complete and in order (%s, 64 KiB chunks)', async (compression) => {
		const rowCount = 200_000;
		const file = COMPRESSORS[compression](roundTripCsv(rowCount));
		const result = await read(file, 65536, { compression, convertTypes: true });
		expect(result.header).toEqual(['id', 'device.name', 'note', 'ratio']);
		expect(result.rows).toHaveLength(rowCount);
		expect(result.moreRowsAvailable).toBe(false);
		expect(result.bytesRead).toBe(file.length);
		let mismatches = 0;
		for (let index = 0; index < rowCount; index++) {
			const row = result.rows[index];
			const expected = expectedRoundTripRow(index);
			if (row.id !== expected.id || row['device.name'] !== expected['device.name'] || row.note !== expected.note || row.ratio !== expected.ratio) {
				mismatches++;
			}
		}
		expect(mismatches).toBe(0);
		expect(result.rows[rowCount - 1]).toEqual(expectedRoundTripRow(rowCount - 1));
	}, DATA_WORK_TIMEOUT_MS);
});

function roundTripCsv(rowCount: number): Buffer {
	const lines = ['id,device.name,note,ratio'];
	for (let index = 0; index < rowCount; index++) {
		const note = index % 5 === 0 ? `"multi\nline ""${index}"", é"` : index % 5 === 1 ? '' : `n${index}`;
		lines.push(`${index},PC-${index.toString(36)},${note},${index % 7 === 0 ? '0.5' : index / 4}`);
	}
	return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

function expectedRoundTripRow(index: number): Record<string, string | number | null> {
	const note = index % 5 === 0 ? `multi\nline "${index}", é` : index % 5 === 1 ? null : `n${index}`;
	return { id: index, 'device.name': `PC-${index.toString(36)}`, note, ratio: index % 7 === 0 ? 0.5 : index / 4 };
}
