/**
 * API answers mapped back to items (207, 400 with errors, bare 400, 401, 403) and n8n's three
 * "On Error" settings, through the real engine.
 */
import { nexthinkCredentials } from '../../helpers/harness';
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

jest.setTimeout(30_000);

let server: TestServer;

beforeAll(async () => {
	server = await startServer();
	for (const name of ['PC-1', 'PC-2', 'PC-3', 'PC-4']) server.inventory.addDevice({ name });
	server.inventory.addCustomField('device', '#tier');
});

localServerHooks(() => server);

const MIXED = [
	{ name: 'PC-1', tier: 'gold' },
	{ name: 'GHOST-1', tier: 'gold' },
	{ name: 'PC-2', tier: 'gold' },
	{ name: 'GHOST-2', tier: 'gold' },
];

describe('207 partial success', () => {
	it('matches the errors back to the items; the others are applied', async () => {
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT]), { items: MIXED, onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [pairedIndex(item), outcomeOf(item).status])).toEqual([
			[0, 'applied'],
			[1, 'failed'],
			[2, 'applied'],
			[3, 'failed'],
		]);
		expect(outcomeOf(result.items[1]).errors).toEqual([
			{ code: 'OBJECT_NOT_FOUND', message: 'No device found with device/device/name = GHOST-1', source: 'api' },
		]);
		expect(outcomeOf(result.items[3]).identification).toEqual({ name: 'device/device/name', value: 'GHOST-2' });
		expect(result.items[1].json).toMatchObject({ name: 'GHOST-1', tier: 'gold' });
	});
});

describe('400', () => {
	it('with an errors list: every item fails with its own errors', async () => {
		const result = await enrich(
			server,
			deviceFields([{ field: 'customField', customFieldId: '={{ $json.field }}', value: 'x' }]),
			{
				items: [
					{ name: 'GHOST-1', field: 'tier' },
					{ name: 'PC-1', field: 'undefined_field' },
				],
				onError: 'continueRegularOutput',
			},
		);
		expect(result.items.map((item) => (outcomeOf(item).errors as Array<{ code: string }>).map((error) => error.code))).toEqual([
			['OBJECT_NOT_FOUND'],
			['CUSTOM_FIELD_NOT_FOUND'],
		]);
		expect(result.items.every((item) => outcomeOf(item).applied === false)).toBe(true);
	});

	it('with a bare {message, code}: the whole batch fails with that message', async () => {
		server.injectFault({
			method: 'POST',
			path: ENRICHMENT_PATH,
			status: 400,
			body: { message: 'Enrichment is disabled for this instance', code: 'FEATURE_NOT_ENABLED' },
		});
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { options: { batchSize: 2 } }), {
			items: [...MIXED.slice(0, 1), { name: 'PC-3', tier: 'x' }, { name: 'PC-4', tier: 'y' }],
			onError: 'continueRegularOutput',
		});
		expect(result.items.map((item) => outcomeOf(item).status)).toEqual(['failed', 'failed', 'applied']);
		expect(outcomeOf(result.items[0]).errors).toEqual([
			{ code: 'FEATURE_NOT_ENABLED', message: 'Enrichment is disabled for this instance', source: 'api' },
		]);
	});
});

describe('401 and 403', () => {
	it('401 after one token renewal: the run fails with a plain explanation and stops sending', async () => {
		server.injectFault({ method: 'POST', path: ENRICHMENT_PATH, status: 401, times: Infinity });
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { options: { batchSize: 1 } }), {
			items: MIXED.slice(0, 3),
		});
		expect(result.error?.message).toMatch(/HTTP 401/);
		expect(result.error?.description).toMatch(/client ID and secret/);
		// the first batch went out again after a token renewal; later batches were not sent
		const sent = enrichmentRequests(server);
		expect(sent.length).toBeGreaterThanOrEqual(2);
		expect(new Set(sent.map((request) => request.enrichments[0].identification[0].value))).toEqual(new Set(['PC-1']));
		const tokenRequests = server.requests.filter((request: { path: string }) => request.path === '/oauth2/default/v1/token');
		expect(tokenRequests.length).toBeGreaterThanOrEqual(2);
	});

	it('401 under Continue: every item carries the failure, none is lost', async () => {
		server.injectFault({ method: 'POST', path: ENRICHMENT_PATH, status: 401, times: Infinity });
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { options: { batchSize: 1 } }), {
			items: MIXED.slice(0, 3),
			onError: 'continueRegularOutput',
		});
		expect(result.items).toHaveLength(3);
		expect(result.items.map((item) => (outcomeOf(item).errors as Array<{ code: string }>)[0].code)).toEqual(['HTTP_401', 'HTTP_401', 'HTTP_401']);
		expect((outcomeOf(result.items[2]).errors as Array<{ message: string }>)[0].message).toMatch(/^Not sent/);
		expect(new Set(enrichmentRequests(server).map((request) => request.enrichments[0].identification[0].value))).toEqual(new Set(['PC-1']));
	});

	it('403: no permission to trigger enrichment', async () => {
		const nqlOnly = await startServer({ clients: [{ clientId: 'nql-only', clientSecret: 'nql-only-secret', permissions: ['nql'] }] });
		try {
			const result = await enrich(nqlOnly, deviceFields([TIER_FROM_INPUT]), {
				items: MIXED.slice(0, 2),
				credentials: { nexthinkApi: nexthinkCredentials(nqlOnly) },
			});
			expect(result.error?.message).toMatch(/HTTP 403/);
			expect(result.error?.message).toMatch(/No permission to trigger enrichment/);
			expect(result.error?.description).toMatch(/Enrichment API/);
		} finally {
			await nqlOnly.close();
		}
	});
});

describe('On Error settings', () => {
	it('Stop Workflow: runs every batch, then fails with the counts and the first errors', async () => {
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT], { options: { batchSize: 1 } }), { items: MIXED });
		expect(enrichmentRequests(server)).toHaveLength(4);
		expect(result.error?.message).toMatch(/^Item 1 \(device\/device\/name = GHOST-1\): OBJECT_NOT_FOUND/);
		expect(result.error?.description).toContain('2 items applied, 2 items failed.');
		expect(result.error?.description).toContain('Item 1 (device/device/name = GHOST-1): OBJECT_NOT_FOUND');
		expect(result.error?.description).toContain('Item 3 (device/device/name = GHOST-2): OBJECT_NOT_FOUND');
	});

	it('Stop Workflow: an invalid item stops the run before anything is sent', async () => {
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT]), { items: [{ name: 'PC-1', tier: 'x' }, { name: '', tier: 'y' }] });
		expect(result.error?.message).toMatch(/^Item 1 cannot be sent/);
		expect(enrichmentRequests(server)).toEqual([]);
	});

	it('Continue (using error output): failed items go to the error output, paired to their inputs', async () => {
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT]), {
			items: [...MIXED, { name: '', tier: 'invalid' }],
			onError: 'continueErrorOutput',
		});
		expect(result.error).toBeUndefined();
		const [success, failure] = result.outputs;
		expect(success.map((item) => [pairedIndex(item), outcomeOf(item).status])).toEqual([
			[0, 'applied'],
			[2, 'applied'],
		]);
		// on the error output the outcome travels as `error` (n8n's convention) beside the input's JSON
		const errorOf = (item: (typeof failure)[number]) => item.json.error as { status: string; message: string; errors: Array<{ code: string }> };
		expect(failure.map((item) => [pairedIndex(item), errorOf(item).status, errorOf(item).errors[0].code])).toEqual([
			[1, 'failed', 'OBJECT_NOT_FOUND'],
			[3, 'failed', 'OBJECT_NOT_FOUND'],
			[4, 'failed', 'MISSING_IDENTIFICATION'],
		]);
		expect(failure[0].json).toMatchObject({ name: 'GHOST-1', tier: 'gold' });
		expect(errorOf(failure[0]).message).toBe('Item 1 (device/device/name = GHOST-1): OBJECT_NOT_FOUND: No device found with device/device/name = GHOST-1');
		expect(success.length + failure.length).toBe(5);
	});

	it('Continue (regular output): every item comes out in input order with its outcome', async () => {
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT]), {
			items: [...MIXED, { name: '', tier: 'invalid' }],
			onError: 'continueRegularOutput',
		});
		expect(result.outputs).toHaveLength(1);
		expect(result.items.map((item) => [pairedIndex(item), outcomeOf(item).applied])).toEqual([
			[0, true],
			[1, false],
			[2, true],
			[3, false],
			[4, false],
		]);
	});
});
