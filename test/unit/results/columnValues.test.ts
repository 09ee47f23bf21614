import { ColumnValues, MAX_SHARED_VALUES, detachedCopy } from '../../../nodes/Nexthink/results/columnValues';

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
