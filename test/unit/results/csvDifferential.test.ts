/**
 * The optimised `CsvParser` against the character-by-character reading of the same dialect in
 * test/helpers/csvReference.js, on random documents fed in random chunks: the parser's fast paths
 * (cached delimiter positions, runs of unquoted fields, carried fields) must give the same records
 * and the same errors, on the same lines.
 */
import { CsvFormatError, CsvParser } from '../../../nodes/Nexthink/results/csv';
import { seededRandom } from '../../helpers/zstdFixtures';

type Problem = 'ragged' | 'unclosed' | 'after quote' | 'quote inside';

/** What a reading gives: the records (the header first) up to the first error, and that error. */
interface Reading {
	records: string[][];
	error?: { problem: Problem; line: number };
}

const { readCsv } = require('../../helpers/csvReference') as { readCsv: (text: string) => Reading };

const PROBLEMS: Array<[RegExp, Problem]> = [
	[/has \d+ fields? but the header has/, 'ragged'],
	[/is not closed before the end/, 'unclosed'],
	[/after the closing quote/, 'after quote'],
	[/a quote appears inside a field/, 'quote inside'],
];

function parserRead(text: string, chunkSizes: () => number): Reading {
	const records: string[][] = [];
	const parser = new CsvParser((fields) => {
		records.push([...fields]);
	});
	try {
		for (let index = 0; index < text.length; ) {
			const size = chunkSizes();
			parser.push(text.slice(index, index + size));
			index += size;
		}
		parser.end();
		return { records };
	} catch (error) {
		if (!(error instanceof CsvFormatError)) throw error;
		const problem = PROBLEMS.find(([pattern]) => pattern.test(error.message))?.[1];
		if (problem === undefined) throw error; // a kind of error the reference does not know
		return { records, error: { problem, line: error.line } };
	}
}

/** Pieces CSV is made of, weighted towards the characters that steer the parser. */
const PARTS = ['a', 'bc', 'déf', '東京', ' ', ',', ',', ',', '\n', '\r\n', '\r', '"', '""', '"x,y"', '"l1\nl2"', '"q""q"', '""""'];

function randomDocument(random: () => number): string {
	const length = Math.floor(random() * 60);
	let text = '';
	for (let index = 0; index < length; index++) text += PARTS[Math.floor(random() * PARTS.length)];
	return text;
}

/** A valid document: `width` columns of random unquoted or quoted values, random line ends. */
function randomValidDocument(random: () => number): string {
	const width = 1 + Math.floor(random() * 4);
	const lineEnds = ['\n', '\r\n', '\r'];
	const values = ['', 'x', 'value', 'São', '東京', '"a,b"', '"say ""hi"""', '"two\r\nlines"', '""', '"\r"'];
	let text = '';
	const rows = 1 + Math.floor(random() * 8);
	for (let row = 0; row < rows; row++) {
		const fields = Array.from({ length: width }, () => values[Math.floor(random() * values.length)]);
		text += fields.join(',');
		if (row < rows - 1 || random() < 0.5) text += lineEnds[Math.floor(random() * lineEnds.length)];
	}
	return text;
}

function randomChunkSizes(random: () => number): () => number {
	const style = random();
	if (style < 0.2) return () => 1;
	if (style < 0.4) return () => Number.POSITIVE_INFINITY;
	return () => 1 + Math.floor(random() * 12);
}

describe('CsvParser against a character-by-character reading', () => {
	it('agrees on records and errors for random documents in random chunks', () => {
		const random = seededRandom(20261123);
		let errors = 0;
		for (let round = 0; round < 4000; round++) {
			const text = round % 2 === 0 ? randomDocument(random) : randomValidDocument(random);
			const expected = readCsv(text);
			if (expected.error !== undefined) errors++;
			const actual = parserRead(text, randomChunkSizes(random));
			if (JSON.stringify(actual) !== JSON.stringify(expected)) {
				// Show the failing document itself, which the records alone would not reproduce.
				expect({ text, actual }).toEqual({ text, actual: expected });
			}
		}
		// Both kinds of document occur: the comparison covers errors as well as records.
		expect(errors).toBeGreaterThan(500);
		expect(errors).toBeLessThan(3500);
	});
});
