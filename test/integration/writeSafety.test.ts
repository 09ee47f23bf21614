/**
 * What every write of every node holds, over real HTTP on both n8n generations, with the local server
 * recording the exact bytes it received:
 * - a switch that makes a node send nothing (Device Delete's Preview, Enrichment's Validate Only)
 *   is read the one way of shared/parameterValues.ts when an expression gives text or a number:
 *   on sends nothing, off sends, anything else stops the node before any request, naming the value;
 * - a 2xx whose body is an HTML page labelled `application/json` is an unexpected answer that says
 *   the request may have reached Nexthink, never a success, and the request is not sent again;
 * - every header value built from input goes out byte for byte or is refused before any request;
 * - keys such as `__proto__`, `constructor` and `prototype` are sent as given.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { NexthinkEnrichment } from '../../nodes/Nexthink/enrichment/NexthinkEnrichment.node';
import { NexthinkExport } from '../../nodes/Nexthink/export/NexthinkExport.node';
import { nexthinkCredentials, runNode, type RunNodeResult } from '../helpers/harness';
import { localServerHooks } from '../helpers/localServer';
import { TransportProbe } from '../helpers/probeNode';
import { locator, mapperValue, runActions, waitingExecution } from './actions/helpers';

const { startNexthinkServer } = require('../server');

jest.setTimeout(30_000);

const C1 = 'e0000000-0000-4000-8000-000000000001';
const ALICE_SID = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const ALICE = 'alice.martin@example.com';
const DEVICE = { uid: 'd0000000-0000-4000-8000-000000000005', name: 'SRV-FRA-001' };
const LOGIN_PAGE = '<!doctype html><html><head><title>Sign in</title></head><body><form action="/login">Sign in</form></body></html>';

const DELETIONS = '/api/v1/data-management/device/deletions';
const ENRICHMENT = '/api/v1/enrichment/data/fields';
const HANDOFF = '/api/v1/spark/handoff';

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
});

localServerHooks(() => server);

beforeEach(() => {
	server.spark.handoffs.length = 0;
});

const credentials = () => ({ nexthinkApi: nexthinkCredentials(server) });
const posts = (path: string | RegExp) => server.requests.filter((r: any) => r.method === 'POST' && (typeof path === 'string' ? r.path === path : path.test(r.path)));
/** Everything of a run a user could see. */
const visible = (result: RunNodeResult) => JSON.stringify({ items: result.items, message: result.error?.message, description: result.error?.description });


function enrichmentParameters(options: IDataObject = {}): INodeParameters {
	return {
		objectType: 'device',
		identifyBy: 'name',
		identificationValue: 'LAPTOP-ZRH-001',
		mappingMode: 'defineBelow',
		deviceFields: { fieldValues: [{ field: 'customField', customFieldId: '#tier', value: 'gold' }] },
		domain: 'n8n',
		options: options as INodeParameters,
	};
}

const enrich = (options: IDataObject, items: IDataObject[] = [{}], onError: 'stopWorkflow' | 'continueRegularOutput' = 'stopWorkflow') =>
	runNode({ nodeType: new NexthinkEnrichment(), parameters: enrichmentParameters(options) as never, items: items.map((json) => ({ json })) as never, credentials: credentials(), onError });

function deleteParameters(preview: unknown): INodeParameters {
	return { resource: 'device', operation: 'delete', deviceUid: DEVICE.uid, deviceName: DEVICE.name, maxDevicesPerRun: 5, preview: preview as never, options: {} };
}

interface WriteCase {
	title: string;
	path: string | RegExp;
	run: () => Promise<RunNodeResult>;
}

/** Every write operation, run once on one item under "Continue", as a workflow would. */
const WRITES: WriteCase[] = [
	{
		title: 'Remote Action → Run',
		path: '/api/v1/act/execute',
		run: () =>
			runActions(server, { resource: 'remoteAction', operation: 'run', remoteAction: locator('#restart_service'), collectorUids: C1, scriptInputs: mapperValue({ ServiceName: 'Spooler', StartType: 'Manual' }), options: {} }, [{}], {
				onError: 'continueRegularOutput',
			}),
	},
	{
		title: 'Workflow → Run',
		path: '/api/v2/workflows/execute',
		run: () =>
			runActions(
				server,
				{ resource: 'workflow', operation: 'run', workflow: locator('#repair_teams'), workflowApiVersion: 'v2', workflowDevices: 'LAPTOP-ZRH-001', workflowDeviceIdType: 'name', workflowUsers: '', workflowUserIdType: 'sid', options: {} },
				[{}],
				{ onError: 'continueRegularOutput' },
			),
	},
	{
		title: 'Workflow → Resume',
		path: /\/execution\/.+\/trigger$/,
		run: async () => {
			const execution = await waitingExecution(server, C1);
			server.clearRequests();
			return await runActions(
				server,
				{ resource: 'workflow', operation: 'resume', workflowUuid: 'f2000000-0000-4000-8000-000000000004', executionUuid: execution, resumeParameters: { parameter: [{ name: 'approved', value: 'yes' }] }, options: {} },
				[{}],
				{ onError: 'continueRegularOutput' },
			);
		},
	},
	{
		title: 'Campaign → Trigger',
		path: '/api/v1/euf/campaign/trigger',
		run: () => runActions(server, { resource: 'campaign', operation: 'trigger', campaignId: '#it_satisfaction', userSids: ALICE_SID, campaignExpiresInMinutes: 1440, options: {} }, [{}], { onError: 'continueRegularOutput' }),
	},
	{
		title: 'Device → Delete',
		path: DELETIONS,
		run: () => runActions(server, deleteParameters(false), [{}], { onError: 'continueRegularOutput' }),
	},
	{
		title: 'Spark → Hand Off',
		path: HANDOFF,
		run: () => runActions(server, { resource: 'spark', operation: 'handOff', userPrincipalName: ALICE, handOffMessage: 'VPN drops', handOffFiles: '', handOffTimeZone: '', options: {} }, [{}], { onError: 'continueRegularOutput' }),
	},
	{
		title: 'Enrichment',
		path: ENRICHMENT,
		run: () => enrich({}, [{}], 'continueRegularOutput'),
	},
];

const SUCCESS_WORDS = /"status":"(triggered|resumed|scheduled|handedOff|applied|partial)"/;

describe('a gateway page labelled JSON is never a success, on every write', () => {
	it.each(WRITES.map((testCase) => [testCase.title, testCase] as const))('%s', async (_title, testCase) => {
		server.injectFault({ method: 'POST', path: testCase.path, status: 200, contentType: 'application/json', body: LOGIN_PAGE });
		const result = await testCase.run();
		const seen = visible(result);
		expect(seen).toContain("unexpected answer (HTTP 200, application/json)");
		expect(seen).toContain("an HTML page, not the API's JSON; the request may have reached Nexthink");
		expect(seen).not.toMatch(SUCCESS_WORDS);
		expect(posts(testCase.path)).toHaveLength(1);
	});

	it('Spark: an empty 200 and a JSON 200 are still success', async () => {
		for (const body of ['', '{"accepted":true}']) {
			server.clearRequests();
			server.injectFault({ method: 'POST', path: HANDOFF, status: 200, contentType: 'application/json', body });
			const result = await WRITES[5].run();
			expect((result.items[0].json.nexthinkSpark as IDataObject).status).toBe('handedOff');
		}
	});
});

describe('a switch that makes a node send nothing, given by an expression as text or a number', () => {
	const ON = ['true', ' TRUE ', 1, '1', 'yes', 'On'];
	const OFF = ['false', ' False', 0, '0', 'no'];
	const NEITHER: Array<[unknown, string]> = [
		['maybe', '"maybe"'],
		['', '""'],
		[2, 'number 2'],
		['truee', '"truee"'],
	];

	describe('Device → Delete: Preview', () => {
		const deleteWith = (dryRun: unknown) => runActions(server, deleteParameters('={{ $json.dryRun }}'), [{ dryRun } as IDataObject]);

		it.each(ON.map((value) => [JSON.stringify(value), value]))('%s previews and deletes nothing', async (_shown, value) => {
			const result = await deleteWith(value);
			expect(result.error).toBeUndefined();
			expect(posts(DELETIONS)).toHaveLength(0);
			expect(result.items[0].json.nexthinkDeletionPreview).toBeDefined();
		});

		it.each(OFF.map((value) => [JSON.stringify(value), value]))('%s deletes', async (_shown, value) => {
			const result = await deleteWith(value);
			expect(result.error).toBeUndefined();
			expect(posts(DELETIONS)).toHaveLength(1);
		});

		it.each(NEITHER.map(([value, shown]) => [shown, value, shown]))('%s stops the node before any request, naming the value', async (_title, value, shown) => {
			const result = await deleteWith(value);
			expect(result.error?.message).toContain(`"Preview" must be true or false, got ${shown}`);
			expect(result.error?.description).toContain('Nothing was sent to Nexthink');
			expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toHaveLength(0);
		});
	});

	describe('Enrichment: Validate Only', () => {
		const enrichWith = (validate: unknown) => enrich({ validateOnly: '={{ $json.validate }}' }, [{ validate } as IDataObject]);

		it.each(ON.map((value) => [JSON.stringify(value), value]))('%s validates and writes nothing', async (_shown, value) => {
			const result = await enrichWith(value);
			expect(result.error).toBeUndefined();
			expect(posts(ENRICHMENT)).toHaveLength(0);
			expect((result.items[0].json.enrichment as IDataObject).status).toBe('valid');
		});

		it.each(OFF.map((value) => [JSON.stringify(value), value]))('%s writes', async (_shown, value) => {
			const result = await enrichWith(value);
			expect(result.error).toBeUndefined();
			expect(posts(ENRICHMENT)).toHaveLength(1);
		});

		it.each(NEITHER.map(([value, shown]) => [shown, value, shown]))('%s stops the node before any request, naming the value', async (_title, value, shown) => {
			const result = await enrichWith(value);
			expect(result.error?.message).toContain(`"Validate Only" must be true or false, got ${shown}`);
			expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toHaveLength(0);
		});
	});
});

describe('header values go out byte for byte or not at all', () => {
	const handOff = (upn: string, timeZone = '') =>
		runActions(server, { resource: 'spark', operation: 'handOff', userPrincipalName: upn, handOffMessage: 'VPN drops', handOffFiles: '', handOffTimeZone: timeZone, options: {} }, [{}]);

	it('a valid UPN and time zone arrive as the exact bytes given', async () => {
		const result = await handOff(ALICE, 'Europe/Zurich');
		expect(result.error).toBeUndefined();
		const [request] = posts(HANDOFF);
		expect(request.headerBytes['user-principal-name']).toEqual(Buffer.from(ALICE, 'ascii'));
		expect(request.headerBytes.timezone).toEqual(Buffer.from('Europe/Zurich', 'ascii'));
	});

	it.each([
		['a character outside Latin-1', 'alice.martin田@example.com', 'U+7530'],
		['a Latin-1 letter', 'alicé.martin@example.com', 'U+00E9'],
		['a C1 control character', 'alice.martin\u0085@example.com', 'U+0085'],
		['a tab', 'alice\t.martin@example.com', 'U+0009'],
		['DEL', 'alice.martin\u007f@example.com', 'U+007F'],
		['a right-to-left mark', 'alice.martin\u200f@example.com', 'U+200F'],
	])('a UPN with %s is refused before any request, naming the character', async (_what, upn, code) => {
		const result = await handOff(upn);
		expect(result.error?.message).toContain('is not a user principal name');
		expect(result.error?.message).toContain(code);
		expect(posts(HANDOFF)).toHaveLength(0);
		expect(server.spark.handoffs.filter((handoff: any) => handoff.upn === ALICE)).toHaveLength(0);
	});

	it.each([['Europe/Zürich'], ['Europe/Zurich\u0000'], ['Asia/東京'], ['Europe/Zurich\r\nX-Injected: 1']])('a time zone %j is refused before any request', async (timeZone) => {
		const result = await handOff(ALICE, timeZone);
		expect(result.error?.message).toContain('is not an IANA time zone name');
		expect(posts(HANDOFF)).toHaveLength(0);
	});

	it("Export's log tag outside ASCII arrives as its exact UTF-8 bytes; a control character is refused before any request", async () => {
		server.addQuery({ id: '#one_row', header: ['device.name'], rows: [['PC-1']], completeAfterPolls: 0 });
		const exportWith = (logTag: string) =>
			runNode({ nodeType: new NexthinkExport(), parameters: { operation: 'startExport', queryId: 'one_row', options: { logTag } } as never, credentials: credentials() });
		const tag = 'nightly 田 run é €';
		const sent = await exportWith(tag);
		expect(sent.error).toBeUndefined();
		expect(posts('/api/v1/nql/export')[0].headerBytes['x-platform-log-custom-tag']).toEqual(Buffer.from(tag, 'utf8'));
		server.clearRequests();
		for (const bad of ['nightly\u0007run', 'nightly\u0085run', 'nightly\nrun']) {
			const refused = await exportWith(bad);
			expect(refused.error?.message).toContain('control character');
		}
		expect(posts('/api/v1/nql/export')).toHaveLength(0);
	});

	it("Device → Delete's request ID arrives as the exact bytes the outcome names", async () => {
		const result = await runActions(server, deleteParameters(false), [{}]);
		expect(result.error).toBeUndefined();
		const requestId = (result.items[0].json.nexthinkDevice as IDataObject).requestId as string;
		expect(posts(DELETIONS)[0].headerBytes['x-request-id']).toEqual(Buffer.from(requestId, 'ascii'));
	});

	it.each([
		['a character outside Latin-1', 'a田b', 'U+7530'],
		['a line break', 'a\nb', 'U+000A'],
		['a NUL', 'a\u0000b', 'U+0000'],
		['DEL', 'a\u007fb', 'U+007F'],
		['a space at its end', 'ab ', 'a space at its start or end'],
	])('the transport refuses any header value with %s before any request, naming the header', async (_what, value, named) => {
		const result = await runNode({ nodeType: new TransportProbe(), parameters: { method: 'GET', path: '/api/v1/nql/status/x', headers: JSON.stringify({ 'X-Probe': value }) } as never, credentials: credentials() });
		expect(result.error?.message).toContain('Probing was not sent: the X-Probe header');
		expect(result.error?.message).toContain(named);
		expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toHaveLength(0);
	});

	it('the transport sends Latin-1 bytes of a header value unchanged', async () => {
		const value = 'caf\u00e9 \u0080\u00ff';
		const result = await runNode({ nodeType: new TransportProbe(), parameters: { method: 'GET', path: '/api/v1/nql/status/x', acceptStatus: '404', headers: JSON.stringify({ 'X-Probe': value }) } as never, credentials: credentials() });
		expect(result.error).toBeUndefined();
		expect(server.requests.find((r: any) => r.path === '/api/v1/nql/status/x').headerBytes['x-probe']).toEqual(Buffer.from(value, 'latin1'));
	});
});

describe('keys are data: __proto__, constructor and prototype are sent as given', () => {
	const KEYS = ['__proto__', 'constructor', 'prototype'];
	const pairs = (nameKey: 'key' | 'name') => KEYS.map((key, index) => ({ [nameKey]: key, value: `v${index}` }));
	const expected = Object.fromEntries(KEYS.map((key, index) => [key, `v${index}`]));
	/** Own keys and values of a JSON object as received (JSON.parse keeps `__proto__` as an own key). */
	const ownEntries = (value: unknown) => Object.entries(value as object).sort();

	it('Spark metadata', async () => {
		const result = await runActions(server, {
			resource: 'spark',
			operation: 'handOff',
			userPrincipalName: ALICE,
			handOffMessage: 'VPN drops',
			handOffFiles: '',
			handOffTimeZone: '',
			handOffMetadata: { entry: pairs('key') },
			options: {},
		}, [{}]);
		expect(result.error).toBeUndefined();
		expect(ownEntries(JSON.parse(posts(HANDOFF)[0].body).metadata)).toEqual(Object.entries(expected).sort());
	});

	it('Campaign parameters', async () => {
		await runActions(
			server,
			{ resource: 'campaign', operation: 'trigger', campaignId: '#it_satisfaction', userSids: ALICE_SID, campaignExpiresInMinutes: 1440, campaignParameters: { parameter: pairs('name') }, options: {} },
			[{}],
			{ onError: 'continueRegularOutput' },
		);
		expect(ownEntries(JSON.parse(posts('/api/v1/euf/campaign/trigger')[0].body).parameters)).toEqual(Object.entries(expected).sort());
	});

	it('Workflow → Run: Other Parameters', async () => {
		await runActions(
			server,
			{
				resource: 'workflow',
				operation: 'run',
				workflow: locator('#repair_teams'),
				workflowApiVersion: 'v2',
				workflowDevices: 'LAPTOP-ZRH-001',
				workflowDeviceIdType: 'name',
				workflowUsers: '',
				workflowUserIdType: 'sid',
				workflowOtherParameters: { parameter: pairs('name') },
				options: {},
			},
			[{}],
			{ onError: 'continueRegularOutput' },
		);
		expect(ownEntries(JSON.parse(posts('/api/v2/workflows/execute')[0].body).params)).toEqual(Object.entries(expected).sort());
	});

	it('Workflow → Resume: Event Parameters', async () => {
		const execution = await waitingExecution(server, C1);
		server.clearRequests();
		await runActions(
			server,
			{ resource: 'workflow', operation: 'resume', workflowUuid: 'f2000000-0000-4000-8000-000000000004', executionUuid: execution, resumeParameters: { parameter: pairs('name') }, options: {} },
			[{}],
			{ onError: 'continueRegularOutput' },
		);
		expect(ownEntries(JSON.parse(posts(/\/execution\/.+\/trigger$/)[0].body).parameters)).toEqual(Object.entries(expected).sort());
	});

	it('Workflow → Run: a device identifier object with the key constructor is refused, naming it', async () => {
		const result = await runActions(
			server,
			{ resource: 'workflow', operation: 'run', workflow: locator('#repair_teams'), workflowApiVersion: 'v2', workflowDevices: '={{ $json.devices }}', workflowDeviceIdType: 'name', workflowUsers: '', workflowUserIdType: 'sid', options: {} },
			[{ devices: [{ constructor: 'x' }] as never }],
		);
		expect(result.error?.message).toContain('has the key "constructor"');
		expect(posts('/api/v2/workflows/execute')).toHaveLength(0);
	});
});
