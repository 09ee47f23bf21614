import { buildBatches, interpretResponse } from '../../../nodes/Nexthink/enrichment/api';
import { batchItemOutcomes, describeFailure, failedOutcome } from '../../../nodes/Nexthink/enrichment/itemOutcome';

const NAME = 'device/device/name';

const batch = buildBatches(
	[
		{ itemIndex: 0, identification: { name: NAME, value: 'A' }, fields: [{ name: 'device/device/#tier', value: 'bronze' }] },
		{ itemIndex: 1, identification: { name: NAME, value: 'B' }, fields: [{ name: 'device/device/#tier', value: 'silver' }] },
		{ itemIndex: 2, identification: { name: NAME, value: 'A' }, fields: [{ name: 'device/device/#tier', value: 'gold' }] },
	],
	1000,
)[0];

describe('batchItemOutcomes', () => {
	it('gives each item of a merged object its own outcome with the fields sent', () => {
		const results = interpretResponse(batch, 207, {
			errors: [{ identification: [{ name: NAME, value: 'B' }], errors: [{ code: 'NOT_FOUND', message: 'no B' }] }],
		});
		const outcomes = batchItemOutcomes(batch, results, 'device', 'applied');
		expect([...outcomes.keys()].sort()).toEqual([0, 1, 2]);
		expect(outcomes.get(0)).toEqual({
			status: 'applied',
			applied: true,
			objectType: 'device',
			identification: { name: NAME, value: 'A' },
			fields: { 'device/device/#tier': 'gold' },
			errors: [],
			mergedWithItems: [2],
		});
		expect(outcomes.get(2)?.mergedWithItems).toEqual([0]);
		expect(outcomes.get(0)?.fields).not.toBe(outcomes.get(2)?.fields);
		expect(outcomes.get(1)).toMatchObject({ status: 'failed', applied: false, errors: [{ code: 'NOT_FOUND', message: 'no B', source: 'api' }] });
		expect(outcomes.get(1)?.mergedWithItems).toBeUndefined();
	});

	it('under "Validate Only" valid items are marked valid, not applied', () => {
		const results = batch.objects.map(() => ({ applied: false, errors: [], warnings: [] }));
		const outcomes = batchItemOutcomes(batch, results, 'device', 'valid');
		expect([...outcomes.values()].map((outcome) => [outcome.status, outcome.applied])).toEqual([
			['valid', false],
			['valid', false],
			['valid', false],
		]);
	});
});

describe('describeFailure', () => {
	it('describes a failed item by its index, its object when known, and its errors', () => {
		expect(describeFailure(1, failedOutcome('device', null, [{ code: 'MISSING_IDENTIFICATION', message: 'empty', source: 'node' }]))).toBe(
			'Item 1: MISSING_IDENTIFICATION: empty',
		);
		expect(describeFailure(2, failedOutcome('device', { name: NAME, value: 'C' }, [{ code: 'HTTP_503', message: 'down', source: 'api' }]))).toBe(
			`Item 2 (${NAME} = C): HTTP_503: down`,
		);
	});
});
