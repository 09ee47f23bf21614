/**
 * The values of the row objects against an independent reading of the same file: sharing repeated
 * values per column (`ColumnValues` in readCsvRows.ts) and copying them out of the decoded text must
 * never change one. Random files whose columns repeat a few values, never repeat, or cross the
 * sharing limit, with values around the lengths where the copying and sharing rules change (V8's
 * 13-character view threshold, the 100-character sharing limit), quoted and non-ASCII values, read
 * through the whole pipeline in random chunks.
 */
import { MAX_SHARED_VALUES, readCsvRows } from '../../../nodes/Nexthink/results/readCsvRows';
import { convertCsvValue } from '../../../nodes/Nexthink/results/valueTyping';
import { chunked } from '../../helpers/chunkedSource';
import { DATA_WORK_TIMEOUT_MS } from '../../helpers/timeouts';
import { seededRandom } from '../../helpers/zstdFixtures';

const { readCsv } = require('../../helpers/csvReference') as { readCsv: (text: string) => { records: string[][]; error?: unknown } };

/** Values that repeat: empty, short, at the view threshold, just above it, long, over the sharing limit, quoted, non-ASCII. */
const REPEATED = [
	'',
	'x',
	'true',
	'42',
	'0.50',
	'Zürich HQ',
	'東京オフィス',
	'LT-ZRH-00001',
	'LT-ZRH-000001',
	'LT-ZRH-0000001',
	'Windows 11 Pro 23H2',
	'"Latitude 7440, 14"""',
	'"Line one\nline two"',
	'a'.repeat(100),
	'b'.repeat(101),
	`"${'São Paulo, '.repeat(12)}"`,
];

function field(text: string): string {
	return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A file of `rows` rows: a repeated column, a unique column, a column crossing the sharing limit, a random mix. */
function randomFile(random: () => number, rows: number): string {
	const pick = () => REPEATED[Math.floor(random() * REPEATED.length)];
	const lines = ['repeated,unique,crossing,mixed'];
	for (let row = 0; row < rows; row++) {
		// Every fifth row has a wide unique value too: lines with several wide fields, some wide throughout.
		const unique = field(`${row % 5 === 0 ? 'オ' : 'ü'.repeat(row % 3)}device-${row}-${'y'.repeat(row % 110)}`);
		const crossing = `model-${row % (MAX_SHARED_VALUES + 500)}`;
		const mixed = random() < 0.5 ? pick() : field(`v${Math.floor(random() * 50_000)}`);
		lines.push(row % 7 === 0 ? ['東', unique, '京', 'オ'].join(',') : [pick(), unique, crossing, mixed].join(','));
	}
	return lines.join(random() < 0.5 ? '\n' : '\r\n');
}

describe('row values against an independent reading', () => {
	it(
		'are the very values of the file, shared or copied, as strings and with Convert Types',
		async () => {
			const random = seededRandom(20261128);
			for (const rows of [1, 50, 2 * MAX_SHARED_VALUES]) {
				const text = randomFile(random, rows);
				const [header, ...records] = readCsv(text).records;
				const bytes = new TextEncoder().encode(text);
				for (const convertTypes of [false, true]) {
					const chunkSize = 1 + Math.floor(random() * 5000);
					const result = await readCsvRows(chunked(bytes, chunkSize), { compression: 'NONE', convertTypes });
					expect(result.header).toEqual(header);
					expect(result.rows.length).toBe(records.length);
					// One expectation for all values: an expect() per value costs seconds.
					const differing: unknown[] = [];
					records.forEach((record, row) => {
						header.forEach((column, index) => {
							const expected = convertTypes ? convertCsvValue(record[index]) : record[index];
							if (result.rows[row][column] !== expected) differing.push({ row, column, expected, actual: result.rows[row][column] });
						});
					});
					expect(differing.slice(0, 5)).toEqual([]);
				}
			}
		},
		DATA_WORK_TIMEOUT_MS,
	);
});
