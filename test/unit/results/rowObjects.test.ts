import { createRowBuilder, uniqueColumnNames } from '../../../nodes/Nexthink/results/rowObjects';

describe('uniqueColumnNames', () => {
	it('keeps distinct names exactly, dots included', () => {
		expect(uniqueColumnNames(['device.name', 'device.uid', 'Device.Name'])).toEqual(['device.name', 'device.uid', 'Device.Name']);
	});

	it('suffixes repeated names with the first free _2, _3, ...', () => {
		expect(uniqueColumnNames(['a', 'b', 'a', 'a'])).toEqual(['a', 'b', 'a_2', 'a_3']);
	});

	it('never reuses a name that the header already has', () => {
		expect(uniqueColumnNames(['a', 'a', 'a_2'])).toEqual(['a', 'a_3', 'a_2']);
	});

	it('names empty header cells by position', () => {
		expect(uniqueColumnNames(['a', '', 'b', ''])).toEqual(['a', 'column_2', 'b', 'column_4']);
		expect(uniqueColumnNames(['column_2', ''])).toEqual(['column_2', 'column_2_2']);
	});
});

describe('createRowBuilder', () => {
	it('builds objects keyed by the header, in column order, with the values as strings', () => {
		const build = createRowBuilder(['device.name', 'count', 'flag', 'empty'], false);
		const row = build(['PC-1', '007', 'true', '']);
		expect(row).toEqual({ 'device.name': 'PC-1', count: '007', flag: 'true', empty: '' });
		expect(Object.keys(row)).toEqual(['device.name', 'count', 'flag', 'empty']);
	});

	it('converts values when asked', () => {
		const build = createRowBuilder(['a', 'b', 'c', 'd', 'e'], true);
		expect(build(['12', '1.50', 'false', '', 'x'])).toEqual({ a: 12, b: '1.50', c: false, d: null, e: 'x' });
	});

	it('gives every row its own object', () => {
		const build = createRowBuilder(['a'], false);
		const first = build(['1']);
		const second = build(['2']);
		expect(first).toEqual({ a: '1' });
		expect(second).toEqual({ a: '2' });
	});

	it('keeps a column named __proto__ as an ordinary key without touching the prototype', () => {
		const build = createRowBuilder(['__proto__', 'constructor', 'toString'], false);
		const row = build(['x', 'y', 'z']);
		expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
		expect(Object.keys(row)).toEqual(['__proto__', 'constructor', 'toString']);
		expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('x');
		expect(JSON.parse(JSON.stringify(row))).toEqual(JSON.parse('{"__proto__":"x","constructor":"y","toString":"z"}'));
	});
});
