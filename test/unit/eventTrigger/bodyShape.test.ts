/** What a body is: NDJSON, an array, an object with one array of records, one object, or nothing; and where a broken one breaks. */
import { BodyShapeError, classifyValue, parseBodyText } from '../../../nodes/Nexthink/eventTrigger/bodyShape';

describe('parseBodyText', () => {
	const rows = [{ 'device.name': 'PC-1', n: 1 }, { 'device.name': 'PC-2', n: 2 }];

	it.each([
		['LF lines', '{"device.name":"PC-1","n":1}\n{"device.name":"PC-2","n":2}'],
		['CRLF lines', '{"device.name":"PC-1","n":1}\r\n{"device.name":"PC-2","n":2}\r\n'],
		['blank lines and a trailing newline', '\n{"device.name":"PC-1","n":1}\n\n   \n{"device.name":"PC-2","n":2}\n\n'],
		['a byte order mark', '\ufeff{"device.name":"PC-1","n":1}\n{"device.name":"PC-2","n":2}'],
	])('reads NDJSON with %s', (_, text) => {
		expect(parseBodyText(text)).toEqual({ shape: 'ndjson', rows });
	});

	it('reads an array, pretty-printed or not', () => {
		expect(parseBodyText(JSON.stringify(rows))).toEqual({ shape: 'array', rows });
		expect(parseBodyText(JSON.stringify(rows, null, 2))).toEqual({ shape: 'array', rows });
	});

	it('reads an object with one array of records, whatever its name, with the other properties apart', () => {
		const body = { exporter: 'daily', sentAt: '2026-11-27', data: rows };
		expect(parseBodyText(JSON.stringify(body, null, 2))).toEqual({ shape: 'records', property: 'data', rows, properties: { exporter: 'daily', sentAt: '2026-11-27' } });
		expect(parseBodyText('{"records":[]}')).toEqual({ shape: 'records', property: 'records', rows: [], properties: {} });
	});

	it('keeps an object with two arrays of objects, or arrays of strings, as one object', () => {
		expect(parseBodyText('{"a":[{"x":1}],"b":[{"y":2}]}').shape).toBe('object');
		expect(parseBodyText('{"monitor":"CPU","tags":["a","b"]}')).toEqual({ shape: 'object', value: { monitor: 'CPU', tags: ['a', 'b'] } });
	});

	it('takes the records property the user names, and never splits when asked not to', () => {
		const body = { a: [{ x: 1 }], b: [{ y: 2 }] };
		expect(parseBodyText(JSON.stringify(body), 'b')).toEqual({ shape: 'records', property: 'b', rows: [{ y: 2 }], properties: { a: [{ x: 1 }] } });
		expect(parseBodyText('{"records":[{"x":1}]}', false)).toEqual({ shape: 'object', value: { records: [{ x: 1 }] } });
		expect(parseBodyText('{"x":1}', 'records')).toEqual({ shape: 'object', value: { x: 1 } });
	});

	it('reads a single-line object followed by nothing as one object (an exporter batch of one row)', () => {
		expect(parseBodyText('{"device.name":"PC-1"}\n')).toEqual({ shape: 'object', value: { 'device.name': 'PC-1' } });
	});

	it('reads an empty body as empty', () => {
		expect(parseBodyText('')).toEqual({ shape: 'empty' });
		expect(parseBodyText(' \r\n ')).toEqual({ shape: 'empty' });
	});

	it('names where a document breaks, without the text', () => {
		const text = '{\n  "monitor": "CPU "high" load",\n  "status": "open"\n}';
		expect(() => parseBodyText(text)).toThrow(BodyShapeError);
		expect(() => parseBodyText(text)).toThrow(/line 2, column \d+/);
		try {
			parseBodyText(text);
		} catch (error) {
			expect((error as Error).message).not.toMatch(/CPU/);
		}
	});

	it('names the NDJSON line that breaks', () => {
		expect(() => parseBodyText('{"a":1}\n{"a":2}\n{"a":\n{"a":4}')).toThrow(/line 3 of the NDJSON body/);
	});

	it('reads a bare number or string as a scalar', () => {
		expect(parseBodyText('42')).toEqual({ shape: 'scalar', value: 42 });
		expect(parseBodyText('null')).toEqual({ shape: 'scalar', value: null });
	});
});

describe('classifyValue', () => {
	it('classifies what n8n parsed already, the same way', () => {
		expect(classifyValue([{ a: 1 }])).toEqual({ shape: 'array', rows: [{ a: 1 }] });
		expect(classifyValue({ records: [{ a: 1 }], id: 7 })).toEqual({ shape: 'records', property: 'records', rows: [{ a: 1 }], properties: { id: 7 } });
		expect(classifyValue(undefined)).toEqual({ shape: 'empty' });
	});
});
