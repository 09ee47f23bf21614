/**
 * Batching through the real engine and HTTP: batch boundaries, duplicates in a batch, and retries
 * that neither lose nor double items.
 */
import { localServerHooks } from '../../helpers/localServer';
import {
	deviceFields,
	enrich,
	ENRICHMENT_PATH,
	enrichmentRequests,
	outcomeOf,
	pairedIndex,
	startServer,
	TIER_FROM_INPUT,
	type TestServer,
} from './helpers';
import { DATA_WORK_TIMEOUT_MS, REAL_WAITS_TIMEOUT_MS } from '../../helpers/timeouts';

const DEVICE_COUNT = 10_001;
jest.setTimeout(30_000);

let server: TestServer;

beforeAll(async () => {
	server = await startServer();
	for (let i = 0; i < DEVICE_COUNT; i++) server.inventory.addDevice({ name: `PC-${i}` });
	server.inventory.addCustomField('device', '#tier');
});

localServerHooks(() => server);

const devices = (count: number, tier: string) => Array.from({ length: count }, (_, i) => ({ name: `PC-${i}`, tier: `${tier}-${i}` }));
const tierOf = (name: string) => [...server.inventory.devices.values()].find((device: { name: string }) => device.name === name).fields['device/device/#tier'];

describe('batch boundaries', () => {
	it.each([
		[1, undefined, [1]],
		[999, undefined, [999]],
		[1000, undefined, [1000]],
		[1001, undefined, [1000, 1]],
		[2500, 1000, [1000, 1000, 500]],
		[10_000, 10_000, [10_000]],
		[10_001, 10_000, [10_000, 1]],
	])('%i items, batch size %p → requests of %j', async (count, batchSize, sizes) => {
		const tier = `b${count}`;
		// auto-mapping evaluates one expression per item instead of two, which halves the run time
		const result = await enrich(
			server,
			{
				objectType: 'device',
				identifyBy: 'name',
				identificationValue: '={{ $json.name }}',
				mappingMode: 'autoMapInputData',
				options: batchSize ? { batchSize } : {},
			},
			{ items: devices(count, tier).map(({ name, tier: value }) => ({ name, '#tier': value })) },
		);
		expect(result.error).toBeUndefined();
		const requests = enrichmentRequests(server);
		expect(requests.map((request) => request.enrichments.length)).toEqual(sizes);
		// every item sent once, in order
		expect(requests.flatMap((request) => request.enrichments.map((enrichment) => enrichment.identification[0].value))).toEqual(
			devices(count, tier).map((device) => device.name),
		);
		expect(result.items).toHaveLength(count);
		expect(result.items.every((item, index) => pairedIndex(item) === index && outcomeOf(item).applied === true)).toBe(true);
		expect(tierOf(`PC-${count - 1}`)).toBe(`${tier}-${count - 1}`);
	}, DATA_WORK_TIMEOUT_MS);

	it('refuses a batch size above 10,000 before sending', async () => {
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { options: { batchSize: 10_001 } }), { items: devices(1, 'x') });
		expect(result.error?.message).toMatch(/Batch Size must be a whole number from 1 to 10000, got number 10001/);
		expect(enrichmentRequests(server)).toEqual([]);
	});
});

describe('items naming the same object', () => {
	it('are merged in order within a batch and each keeps its own outcome', async () => {
		const result = await enrich(
			server,
			deviceFields([TIER_FROM_INPUT, { field: 'configuration_tag', value: '={{ $json.tag }}' }]),
			{
				items: [
					{ name: 'PC-1', tier: 'first', tag: 'a' },
					{ name: 'PC-2', tier: 'other', tag: 'b' },
					{ name: 'PC-1', tier: 'second', tag: null },
				],
			},
		);
		expect(result.error).toBeUndefined();
		const [request] = enrichmentRequests(server);
		expect(request.enrichments).toEqual([
			{
				identification: [{ name: 'device/device/name', value: 'PC-1' }],
				fields: [
					{ name: 'device/device/#tier', value: 'second' },
					{ name: 'device/device/configuration_tag', value: 'a' },
				],
			},
			{
				identification: [{ name: 'device/device/name', value: 'PC-2' }],
				fields: [
					{ name: 'device/device/#tier', value: 'other' },
					{ name: 'device/device/configuration_tag', value: 'b' },
				],
			},
		]);
		expect(result.items.map((item) => [pairedIndex(item), outcomeOf(item).applied, outcomeOf(item).mergedWithItems])).toEqual([
			[0, true, [2]],
			[1, true, undefined],
			[2, true, [0]],
		]);
		expect(tierOf('PC-1')).toBe('second');
	});

	it('in different batches are sent in order, so the later value wins', async () => {
		await enrich(server, deviceFields([TIER_FROM_INPUT], { options: { batchSize: 1 } }), {
			items: [
				{ name: 'PC-3', tier: 'early' },
				{ name: 'PC-3', tier: 'late' },
			],
		});
		expect(enrichmentRequests(server)).toHaveLength(2);
		expect(tierOf('PC-3')).toBe('late');
	});

	it('a failing duplicate fails every item merged into it', async () => {
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT]), {
			items: [
				{ name: 'NO-SUCH-PC', tier: 'a' },
				{ name: 'PC-4', tier: 'b' },
				{ name: 'NO-SUCH-PC', tier: 'c' },
			],
			onError: 'continueRegularOutput',
		});
		expect(result.items.map((item) => outcomeOf(item).status)).toEqual(['failed', 'applied', 'failed']);
		expect(outcomeOf(result.items[2]).errors).toEqual([expect.objectContaining({ code: 'OBJECT_NOT_FOUND', source: 'api' })]);
	});
});

describe('retries', () => {
	it.each([
		[429, { 'retry-after': '0' }],
		[503, { 'retry-after': '0' }],
		[500, { 'retry-after': '0' }],
	])('a %i is retried without losing or doubling items', async (status, headers) => {
		const fault = server.injectFault({ method: 'POST', path: ENRICHMENT_PATH, status, headers, times: 2 });
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { options: { batchSize: 2 } }), {
			items: devices(5, `r${status}`),
		});
		expect(result.error).toBeUndefined();
		expect(fault.hits).toBe(2);
		const requests = enrichmentRequests(server);
		// 3 batches + 2 refused attempts; the retried batch is identical to the refused one
		expect(requests).toHaveLength(5);
		expect(requests[0]).toEqual(requests[2]);
		expect(requests.slice(-3).map((request) => request.enrichments.length)).toEqual([2, 2, 1]);
		expect(result.items).toHaveLength(5);
		expect(result.items.every((item) => outcomeOf(item).applied === true)).toBe(true);
		expect(tierOf('PC-4')).toBe(`r${status}-4`);
	});

	it('a dropped connection is retried', async () => {
		server.injectFault({ method: 'POST', path: ENRICHMENT_PATH, drop: true, times: 1 });
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT]), { items: devices(3, 'drop') });
		expect(result.error).toBeUndefined();
		expect(result.items.every((item) => outcomeOf(item).applied === true)).toBe(true);
		expect(tierOf('PC-2')).toBe('drop-2');
	}, REAL_WAITS_TIMEOUT_MS);

	it('when retries run out the batch fails per item and later batches still go out', async () => {
		server.injectFault({ method: 'POST', path: ENRICHMENT_PATH, status: 503, headers: { 'retry-after': '0' }, times: 5 });
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { options: { batchSize: 2 } }), {
			items: devices(3, 'exhausted'),
			onError: 'continueRegularOutput',
		});
		expect(result.items.map((item) => outcomeOf(item).status)).toEqual(['failed', 'failed', 'applied']);
		expect(outcomeOf(result.items[0]).errors).toEqual([expect.objectContaining({ code: 'HTTP_503', source: 'api' })]);
		expect(enrichmentRequests(server)).toHaveLength(6);
	}, REAL_WAITS_TIMEOUT_MS);
});
