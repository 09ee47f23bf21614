/**
 * How rows become the Export node's items (resultItems.ts): each row object is its item's `json`
 * itself, never a copy (a copy per row held a second million objects at the peak of a large export),
 * with the metadata placed as Include Metadata says and every item paired with the input item.
 */
import type { IDataObject } from 'n8n-workflow';

import { resultItems } from '../../../nodes/Nexthink/export/resultItems';

const METADATA = { exportId: 'e-1', rowCount: 2 };

function rows(): IDataObject[] {
	return [
		{ 'device.name': 'LT-1', nexthinkExport: 'a column of that name', 'device.uid': 'u-1' },
		{ 'device.name': 'LT-2', nexthinkExport: null, 'device.uid': 'u-2' },
	];
}

describe('resultItems', () => {
	it('makes each row object its item\'s json, unchanged, paired with the input item', () => {
		const input = rows();
		const pairedItem = { item: 3 };
		const items = resultItems({ rows: input, metadata: METADATA, metadataKey: 'nexthinkExport', mode: 'none', pairedItem });
		expect(items.map((item) => item.json)).toEqual(rows());
		expect(items.map((item) => item.json === input[items.indexOf(item)])).toEqual([true, true]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 3 }, { item: 3 }]);
	});

	it('adds the metadata to each row "On Each Row", over a column of the same name, in the column\'s place', () => {
		const input = rows();
		const items = resultItems({ rows: input, metadata: METADATA, metadataKey: 'nexthinkExport', mode: 'eachRow', pairedItem: { item: 0 } });
		expect(items.map((item) => item.json)).toEqual([
			{ 'device.name': 'LT-1', nexthinkExport: METADATA, 'device.uid': 'u-1' },
			{ 'device.name': 'LT-2', nexthinkExport: METADATA, 'device.uid': 'u-2' },
		]);
		expect(Object.keys(items[0].json)).toEqual(['device.name', 'nexthinkExport', 'device.uid']);
		const added = resultItems({ rows: [{ a: 1 }], metadata: METADATA, metadataKey: 'nexthinkQuery', mode: 'eachRow', pairedItem: { item: 0 } });
		expect(Object.keys(added[0].json)).toEqual(['a', 'nexthinkQuery']);
	});

	it('puts the metadata in an item of its own, a copy, "As a Separate Last Item"', () => {
		const items = resultItems({ rows: rows(), metadata: METADATA, metadataKey: 'nexthinkExport', mode: 'separateItem', pairedItem: { item: 0 } });
		expect(items.map((item) => item.json)).toEqual([...rows(), METADATA]);
		expect(items[2].json).not.toBe(METADATA);
	});
});
