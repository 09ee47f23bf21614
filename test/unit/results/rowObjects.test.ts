import { ColumnValues, createRowBuilder, detachedCopy, MAX_SHARED_VALUES, ROWS_BEFORE_SHARING, uniqueColumnNames } from '../../../nodes/Nexthink/results/readCsvRows';

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

	it.each([false, true])('builds the same rows before and after it starts sharing values (convert types: %s)', (convertTypes) => {
		const build = createRowBuilder(['site', 'name', 'memory', 'note'], convertTypes);
		// Values that repeat, values that never do, long and padded ones; one expectation over all rows.
		const wrong: number[] = [];
		for (let row = 0; row < 2 * ROWS_BEFORE_SHARING + 10; row++) {
			const fields = [`Site ${row % 7} headquarters`, `LT-${String(row).padStart(7, '0')}-${'x'.repeat(row % 40)}`, String(8 * (row % 3)), row % 2 === 0 ? ' padded note ' : ''];
			const expected = convertTypes
				? { site: fields[0], name: fields[1], memory: 8 * (row % 3), note: row % 2 === 0 ? ' padded note ' : null }
				: { site: fields[0], name: fields[1], memory: fields[2], note: fields[3] };
			if (JSON.stringify(build(fields)) !== JSON.stringify(expected)) wrong.push(row);
		}
		expect(wrong).toEqual([]);
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

describe('detachedCopy', () => {
	it('returns the same text for every slice: short, at the view threshold, long, padded, surrogate pairs', () => {
		const text = 'device.name,2026-11-09T10:47:22.000Z,東京オフィス 😀,  Zürich HQ  ,\tx\n, padded on both ends ,x';
		const changed: string[] = [];
		for (let start = 0; start <= text.length; start++) {
			for (let end = start; end <= text.length; end++) {
				const slice = text.slice(start, end);
				if (detachedCopy(slice) !== slice) changed.push(slice);
			}
		}
		expect(changed).toEqual([]);
	});
});

describe('ColumnValues', () => {
	it('keeps every value as it was, shared or not', () => {
		const values = new ColumnValues(2);
		// One expectation over all rows: an expect() per value costs seconds.
		const changed: string[] = [];
		for (let row = 0; row < 3 * MAX_SHARED_VALUES; row++) {
			const repeated = ['Windows 11 Pro 23H2', 'macOS Sonoma 14.6', ' padded value '][row % 3];
			const unique = `LT-${String(row).padStart(7, '0')}-${'x'.repeat(row % 120)}`;
			if (values.keep(0, repeated) !== repeated) changed.push(repeated);
			if (values.keep(1, unique) !== unique) changed.push(unique);
		}
		expect(changed).toEqual([]);
	});

	it('keeps sharing a column with few distinct values and stops for a column with more than the limit', () => {
		const values = new ColumnValues(3);
		for (let row = 0; row <= MAX_SHARED_VALUES; row++) {
			values.keep(0, `site-${row % 10}`);
			values.keep(1, `device-${row}`);
			values.keep(2, `model-${row % MAX_SHARED_VALUES}`);
		}
		expect(values.isSharing(0)).toBe(true);
		expect(values.isSharing(1)).toBe(false);
		expect(values.isSharing(2)).toBe(true);
		values.keep(2, 'one more distinct model');
		expect(values.isSharing(2)).toBe(false);
	});
});
