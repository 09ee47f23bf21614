import { buildBatches, MAX_BATCH_SIZE, requestBody } from '../../../nodes/Nexthink/enrichment/api';
import type { PreparedItem } from '../../../nodes/Nexthink/enrichment/itemPreparation';

function item(itemIndex: number, name: string, fields: Array<[string, string | number]>): PreparedItem {
	return {
		itemIndex,
		identification: { name: 'device/device/name', value: name },
		fields: fields.map(([fieldName, value]) => ({ name: fieldName, value })),
	};
}

const distinct = (count: number) => Array.from({ length: count }, (_, i) => item(i, `PC-${i}`, [['device/device/#tier', `t${i}`]]));

describe('buildBatches: batch boundaries', () => {
	it.each([
		[1, 1000, [1]],
		[999, 1000, [999]],
		[1000, 1000, [1000]],
		[1001, 1000, [1000, 1]],
		[10_000, 10_000, [10_000]],
		[10_001, 10_000, [10_000, 1]],
		[7, 3, [3, 3, 1]],
		[0, 1000, []],
	])('%i items in batches of %i → %j objects', (count, size, expected) => {
		const batches = buildBatches(distinct(count), size);
		expect(batches.map((batch) => batch.objects.length)).toEqual(expected);
		// every item lands in exactly one batch, in input order
		const order = batches.flatMap((batch) => batch.objects.flatMap((object) => object.itemIndexes));
		expect(order).toEqual(Array.from({ length: count }, (_, i) => i));
	});

	it.each([0, -1, 1.5, MAX_BATCH_SIZE + 1, Number.NaN])('refuses batch size %p', (size) => {
		expect(() => buildBatches(distinct(2), size)).toThrow(RangeError);
	});
});

describe('buildBatches: items naming the same object', () => {
	it('merges them in order, later values winning, and links every item to the object', () => {
		const [batch] = buildBatches(
			[
				item(0, 'PC-1', [
					['device/device/#tier', 'bronze'],
					['device/device/#owner', 'ann'],
				]),
				item(1, 'PC-2', [['device/device/#tier', 'silver']]),
				item(2, 'PC-1', [
					['device/device/#tier', 'gold'],
					['device/device/virtualization/type', 2],
				]),
			],
			1000,
		);
		expect(batch.objects).toEqual([
			{
				identification: { name: 'device/device/name', value: 'PC-1' },
				fields: [
					{ name: 'device/device/#tier', value: 'gold' },
					{ name: 'device/device/#owner', value: 'ann' },
					{ name: 'device/device/virtualization/type', value: 2 },
				],
				itemIndexes: [0, 2],
			},
			{
				identification: { name: 'device/device/name', value: 'PC-2' },
				fields: [{ name: 'device/device/#tier', value: 'silver' }],
				itemIndexes: [1],
			},
		]);
	});

	it('merges a field repeated within one item (the later entry wins)', () => {
		const [batch] = buildBatches([item(0, 'PC-1', [['device/device/#tier', 'a'], ['device/device/#tier', 'b']])], 10);
		expect(batch.objects[0].fields).toEqual([{ name: 'device/device/#tier', value: 'b' }]);
	});

	it('does not merge across batches: each batch sends the object once, in order', () => {
		const batches = buildBatches([item(0, 'PC-1', [['f', 'a']]), item(1, 'PC-1', [['f', 'b']])], 1);
		expect(batches.map((batch) => batch.objects[0].fields[0].value)).toEqual(['a', 'b']);
	});

	it('does not merge objects that differ only by identification kind or value case', () => {
		const byUid = { itemIndex: 1, identification: { name: 'device/device/uid', value: 'PC-1' }, fields: [{ name: 'f', value: 'x' }] };
		const [batch] = buildBatches([item(0, 'PC-1', [['f', 'a']]), byUid, item(2, 'pc-1', [['f', 'c']])], 10);
		expect(batch.objects).toHaveLength(3);
	});

	it('leaves the prepared items untouched', () => {
		const items = [item(0, 'PC-1', [['f', 'a']]), item(1, 'PC-1', [['f', 'b']])];
		const before = JSON.stringify(items);
		buildBatches(items, 10);
		expect(JSON.stringify(items)).toBe(before);
	});
});

describe('requestBody', () => {
	it('has the API shape: one identification per enrichment, the fields, and the domain', () => {
		const [batch] = buildBatches([item(0, 'PC-1', [['device/device/#tier', 'gold']])], 10);
		expect(requestBody(batch, 'cmdb-sync')).toEqual({
			enrichments: [
				{
					identification: [{ name: 'device/device/name', value: 'PC-1' }],
					fields: [{ name: 'device/device/#tier', value: 'gold' }],
				},
			],
			domain: 'cmdb-sync',
		});
	});
});
