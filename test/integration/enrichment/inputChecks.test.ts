/**
 * The Enrichment node's input checks over real HTTP: run settings (domain, options) that an
 * expression makes differ between items, a domain that is not text, and identification values that
 * are NaN or Infinity, and custom field IDs that are not text, are refused before anything is sent.
 */
import { N8N_CORE_VERSION } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { deviceFields, enrich, enrichmentRequests, outcomeOf, startServer, TIER_FROM_INPUT, type TestServer } from './helpers';

let server: TestServer;

beforeAll(async () => {
	server = await startServer();
	server.inventory.addDevice({ name: 'PC-001' });
	server.inventory.addDevice({ name: 'PC-002' });
});
localServerHooks(() => server);

describe(`Enrichment input checks on n8n-core ${N8N_CORE_VERSION}`, () => {
	describe('Domain and options are the same for every item, or refused', () => {
		it('one domain from an expression is sent once for all items', async () => {
			const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { domain: '={{ $json.source }}' }), {
				items: [
					{ name: 'PC-001', tier: 'a', source: 'cmdb' },
					{ name: 'PC-002', tier: 'b', source: 'cmdb' },
				],
			});
			expect(result.error).toBeUndefined();
			expect(enrichmentRequests(server).map((request) => request.domain)).toEqual(['cmdb']);
		});

		it.each(['stopWorkflow', 'continueRegularOutput'] as const)('items with different domains are refused, nothing sent (%s)', async (onError) => {
			const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { domain: '={{ $json.source }}' }), {
				items: [
					{ name: 'PC-001', tier: 'a', source: 'cmdb' },
					{ name: 'PC-002', tier: 'b', source: 'hr' },
				],
				onError,
			});
			const message = result.error?.message ?? String(result.items[0]?.json.error);
			expect(message).toMatch(/"Domain" must be the same for every item: item 0 has "cmdb", item 1 has "hr"/);
			expect(enrichmentRequests(server)).toEqual([]);
		});

		it('a batch size that differs between items is refused before sending', async () => {
			const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { options: { batchSize: '={{ $json.size }}' } }), {
				items: [
					{ name: 'PC-001', tier: 'a', size: 1 },
					{ name: 'PC-002', tier: 'b', size: 2 },
				],
			});
			expect(result.error?.message).toMatch(/"Batch Size" must be the same for every item: item 0 has 1, item 1 has 2/);
			expect(enrichmentRequests(server)).toEqual([]);
		});

		it.each([
			[{ region: 'eu' }, /domain must be text, got an object/],
			[['a', 'b'], /domain must be text, got a list/],
		])('a domain that is not text (%j) is refused, never sent as "[object Object]"', async (domain, message) => {
			const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { domain: '={{ $json.domain }}' }), {
				items: [{ name: 'PC-001', tier: 'a', domain }],
			});
			expect(result.error?.message).toMatch(message);
			expect(enrichmentRequests(server)).toEqual([]);
		});
	});

	it.each([NaN, Infinity, -Infinity])('an identification value %s fails its own item before sending; the others are sent', async (value) => {
		const result = await enrich(
			server,
			deviceFields([TIER_FROM_INPUT], { identifyBy: 'name', identificationValue: '={{ $json.id }}' }),
			{ items: [{ id: 'PC-001', tier: 'a' }, { id: value, tier: 'b' }], onError: 'continueRegularOutput' },
		);
		expect(result.items.map((item) => outcomeOf(item).status)).toEqual(['applied', 'failed']);
		expect(outcomeOf(result.items[1]).errors).toEqual([
			expect.objectContaining({ code: 'INVALID_IDENTIFICATION', source: 'node', message: expect.stringMatching(/identifies nothing/) }),
		]);
		const [request] = enrichmentRequests(server);
		expect(request.enrichments.map((enrichment) => enrichment.identification[0].value)).toEqual(['PC-001']);
	});

	it.each([
		[{ id: 'tier' }, 'an object'],
		[['tier'], 'a list'],
		[42, 'number 42'],
	])('a custom field ID from an expression given as %j fails its item, named by its kind; the others are sent', async (id, shown) => {
		const result = await enrich(server, deviceFields([{ field: 'customField', customFieldId: '={{ $json.field }}', value: '={{ $json.tier }}' }]), {
			items: [
				{ name: 'PC-001', tier: 'a', field: 'tier' },
				{ name: 'PC-002', tier: 'b', field: id },
			],
			onError: 'continueRegularOutput',
		});
		expect(result.items.map((item) => outcomeOf(item).status)).toEqual(['applied', 'failed']);
		const [error] = outcomeOf(result.items[1]).errors as Array<{ message: string }>;
		expect(error.message).toContain(`The custom field ID must be text, got ${shown}:`);
		expect(error.message).not.toContain('[object Object]');
		const [request] = enrichmentRequests(server);
		expect(request.enrichments.map((enrichment) => enrichment.identification[0].value)).toEqual(['PC-001']);
		expect(request.enrichments[0].fields).toEqual([{ name: 'device/device/#tier', value: 'a' }]);
	});
});
