import { CsvFormatError, CsvParser } from '../../../nodes/Nexthink/results/csv';

/** Splits text into pieces of `size` characters (the last one shorter). */
function split(text: string, size: number): string[] {
	if (!Number.isFinite(size)) return [text];
	const pieces: string[] = [];
	for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
	return pieces;
}

function parse(text: string, chunkSize: number): string[][] {
	const records: string[][] = [];
	const parser = new CsvParser((fields) => {
		records.push([...fields]);
	});
	for (const piece of split(text, chunkSize)) parser.push(piece);
	parser.end();
	return records;
}

function parseError(text: string, chunkSize: number): CsvFormatError {
	try {
		parse(text, chunkSize);
	} catch (error) {
		expect(error).toBeInstanceOf(CsvFormatError);
		return error as CsvFormatError;
	}
	throw new Error('expected a CsvFormatError');
}

const CHUNKINGS: Array<[string, number]> = [
	['whole text', Number.POSITIVE_INFINITY],
	['1-character chunks', 1],
	['7-character chunks', 7],
	['64 KiB chunks', 65536],
];

describe.each(CHUNKINGS)('CsvParser, %s', (_name, size) => {
	it('reads a header and rows with LF line ends', () => {
		expect(parse('device.name,device.uid\nPC-1,u1\nPC-2,u2\n', size)).toEqual([
			['device.name', 'device.uid'],
			['PC-1', 'u1'],
			['PC-2', 'u2'],
		]);
	});

	it('reads CRLF and lone CR line ends, also mixed', () => {
		expect(parse('a,b\r\n1,2\r\n3,4\r\n', size)).toEqual([['a', 'b'], ['1', '2'], ['3', '4']]);
		expect(parse('a,b\r1,2\r3,4\r', size)).toEqual([['a', 'b'], ['1', '2'], ['3', '4']]);
		expect(parse('a,b\n1,2\r\n3,4\r5,6', size)).toEqual([['a', 'b'], ['1', '2'], ['3', '4'], ['5', '6']]);
	});

	it('reads the last line with or without a trailing line break', () => {
		expect(parse('a,b\n1,2', size)).toEqual([['a', 'b'], ['1', '2']]);
		expect(parse('a,b\n1,2\n', size)).toEqual([['a', 'b'], ['1', '2']]);
		expect(parse('a,b\r\n1,2\r\n', size)).toEqual([['a', 'b'], ['1', '2']]);
		expect(parse('a,b\r\n1,2\r', size)).toEqual([['a', 'b'], ['1', '2']]);
	});

	it('reads quoted fields with commas, doubled quotes and embedded line breaks', () => {
		const text = 'name,comment\n"Doe, John","He said ""hi"""\n"multi\nline","cr\ronly"\n"crlf\r\ninside",""\n';
		expect(parse(text, size)).toEqual([
			['name', 'comment'],
			['Doe, John', 'He said "hi"'],
			['multi\nline', 'cr\ronly'],
			['crlf\r\ninside', ''],
		]);
	});

	it('keeps quoted fields that are only quotes, or end in doubled quotes', () => {
		expect(parse('a,b\n"""",""""""\n"x""","""y"\n', size)).toEqual([['a', 'b'], ['"', '""'], ['x"', '"y']]);
	});

	it('reads empty fields, also at the start and end of a record and at the end of the file', () => {
		expect(parse('a,b,c\n,,\n1,,3\n,2,', size)).toEqual([['a', 'b', 'c'], ['', '', ''], ['1', '', '3'], ['', '2', '']]);
	});

	it('gives no records for empty text and only the header for a header-only file', () => {
		expect(parse('', size)).toEqual([]);
		expect(parse('a,b', size)).toEqual([['a', 'b']]);
		expect(parse('a,b\r\n', size)).toEqual([['a', 'b']]);
	});

	it('skips blank lines when there are several columns, and before the header', () => {
		expect(parse('\n\r\na,b\n1,2\n\n3,4\n\n', size)).toEqual([['a', 'b'], ['1', '2'], ['3', '4']]);
		expect(parse('\n\n\r\n', size)).toEqual([]);
	});

	it('reads a blank line as an empty value in a one-column file', () => {
		expect(parse('a\n1\n\n""\n2\n', size)).toEqual([['a'], ['1'], [''], [''], ['2']]);
	});

	it('keeps non-ASCII text and spaces as they are', () => {
		expect(parse('näme, spaced \nZürich 🚀, x \n', size)).toEqual([['näme', ' spaced '], ['Zürich 🚀', ' x ']]);
	});

	it('reports a row with too many or too few fields, with its line', () => {
		const tooMany = parseError('a,b\n1,2\n1,2,3\n', size);
		expect(tooMany.line).toBe(3);
		expect(tooMany.message).toBe('Invalid CSV on line 3: the row has 3 fields but the header has 2');
		const tooFew = parseError('a,b\r\n1,2\r\n3,4\r\n5\r\n', size);
		expect(tooFew.line).toBe(4);
		expect(tooFew.message).toContain('the row has 1 field but the header has 2');
	});

	it('counts line breaks inside quoted fields in line numbers', () => {
		const error = parseError('a,b\n"x\ny\r\nz\rw",1\n2,3,4\n', size);
		expect(error.line).toBe(6);
		const rowStart = parseError('a,b\n1,2\n3,"4\n5",6\n', size);
		expect(rowStart.line).toBe(3);
	});

	it('reports an unterminated quote at the end of the file, on the line where the field starts', () => {
		const error = parseError('a,b\n1,2\n3,"open\nstill open\n', size);
		expect(error.line).toBe(3);
		expect(error.message).toContain('not closed before the end of the file');
		expect(parseError('a\n"', size).line).toBe(2);
		expect(parseError('a\n"x""', size).line).toBe(2);
	});

	it('reports characters after a closing quote, with their line', () => {
		const error = parseError('a,b\n1,2\n"x"y,3\n', size);
		expect(error.line).toBe(3);
		expect(error.message).toContain("unexpected character 'y' after the closing quote");
		expect(parseError('a,b\n"multi\nline" ,3\n', size).line).toBe(3);
		expect(parseError('a\n"x"\t\n', size).message).toContain('U+0009');
	});

	it('reports a quote inside an unquoted field', () => {
		const error = parseError('a,b\n1,ab"c\n', size);
		expect(error.line).toBe(2);
		expect(error.message).toContain('quote appears inside a field');
		expect(parseError('a,b\n1, "x"\n', size).line).toBe(2);
	});
});

describe('CsvParser', () => {
	it('stops when the handler returns false and ignores (does not check) later text', () => {
		const records: string[][] = [];
		const parser = new CsvParser((fields) => {
			records.push([...fields]);
			return records.length < 2;
		});
		parser.push('a,b\n1,2\n3,4\nbroken"row\n');
		expect(parser.stopped).toBe(true);
		parser.push('more,"unterminated');
		parser.end();
		expect(records).toEqual([['a', 'b'], ['1', '2']]);
	});

	it('refuses text after end()', () => {
		const parser = new CsvParser(() => undefined);
		parser.end();
		expect(() => parser.push('a')).toThrow('after end()');
	});

	it('reads a field that spans many chunks whole', () => {
		const long = 'x'.repeat(100_000);
		const quoted = `"${'y,""\n'.repeat(20_000)}"`;
		const text = `a,b\n${long},${quoted}\nend,1\n`;
		const expected = [['a', 'b'], [long, 'y,"\n'.repeat(20_000)], ['end', '1']];
		expect(parse(text, 1)).toEqual(expected);
		expect(parse(text, 4096)).toEqual(expected);
	});

	it('gives the same records for every chunk size on a mixed document', () => {
		const lines = ['id,name,note'];
		for (let index = 0; index < 300; index++) {
			const note = index % 3 === 0 ? `"line ${index}\r\nwith ""quote"", comma"` : index % 3 === 1 ? '' : `plain ${index}`;
			lines.push(`${index},"näme ${index}",${note}`);
		}
		const text = `${lines.join('\r\n')}\r\n`;
		const whole = parse(text, Number.POSITIVE_INFINITY);
		expect(whole).toHaveLength(301);
		expect(whole[1]).toEqual(['0', 'näme 0', 'line 0\r\nwith "quote", comma']);
		for (const size of [1, 2, 3, 5, 7, 13, 64, 1000]) expect(parse(text, size)).toEqual(whole);
	});
});
