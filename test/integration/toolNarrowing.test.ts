/**
 * What narrows a tool and what it reports, through n8n-core's own tool machinery on both
 * generations, against the local server: the query catalogue (an ID or a parameter outside it is
 * refused before any request, with the list), the output shapes (Simplified, Raw, Selected Fields,
 * applied before the size bound), "at least" at Nexthink's row limit, the allow-lists of the write
 * tools (refused before any request; an allowed one sent once) and the report of every request a
 * write tool sent, with its request ID.
 */
import type { INodeParameters, INodeType } from 'n8n-workflow';

import { NexthinkActions } from '../../nodes/Nexthink/actions/NexthinkActions.node';
import { NexthinkExport } from '../../nodes/Nexthink/export/NexthinkExport.node';
import { runAsAgentTool, type AgentToolAnswer } from '../helpers/agentTool';
import { nexthinkCredentials } from '../helpers/harness';
import { FAST_WAIT, localServerHooks } from '../helpers/localServer';
import { locator, mapperValue } from './actions/helpers';

const { startNexthinkServer } = require('../server');

jest.setTimeout(30_000);

const C1 = 'e0000000-0000-4000-8000-000000000001';
const ALICE_SID = 'S-1-5-21-1004336348-1177238915-682003330-1001';

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer({ executeRowLimit: 1000 });
	server.addQuery({
		id: '#devices_by_os',
		header: ['device.name', 'device.os', 'device.entity', 'device.note'],
		parameters: ['os'],
		rows: (p: any) => [
			['PC-1', p.os, 'Zurich', null],
			['PC-2', p.os, '', 'n'.repeat(1000)],
			['PC-3', p.os, 'Lisbon', null],
		],
		completeAfterPolls: 0,
	});
	server.addQuery({ id: '#many_devices', header: ['device.name'], rows: () => Array.from({ length: 1500 }, (_, i) => [`PC-${i}`]) });
});

localServerHooks(() => server);

const credentials = () => ({ nexthinkApi: nexthinkCredentials(server) });
const fromAI = (key: string, description: string) => `={{ $fromAI('${key}', '${description}', 'string') }}`;
/** Every request but the token's: what reached Nexthink's APIs. */
const apiRequests = () => server.requests.filter((r: any) => !r.path.startsWith('/oauth2/')).map((r: any) => `${r.method} ${r.path}`);

const CATALOGUE = {
	query: [
		{ queryId: 'devices_by_os', description: 'Devices whose operating system is os', parameters: 'os: the operating system name, e.g. Windows 11', columns: 'device.name, device.entity' },
		{ queryId: '#many_devices', description: 'Every device (large)', parameters: '', columns: '' },
	],
};

function executeQuery(options: INodeParameters = {}, extra: INodeParameters = {}): INodeParameters {
	return {
		operation: 'executeQuery',
		queryId: fromAI('queryId', 'A query ID of the catalogue'),
		parametersInput: 'json',
		queryParametersJson: fromAI('parameters', 'The query parameters as a JSON object'),
		queryCatalogue: CATALOGUE,
		options,
		...extra,
	};
}

async function run(parameters: INodeParameters, toolArguments: Record<string, unknown>, nodeType: INodeType = new NexthinkExport()): Promise<AgentToolAnswer> {
	server.clearRequests();
	return await runAsAgentTool({ nodeType, parameters, toolArguments, credentials: credentials() });
}

function items(result: AgentToolAnswer): any[] {
	if (result.answer === undefined) throw new Error(`The tool failed: ${result.error}`);
	return JSON.parse(result.answer);
}

describe('the query catalogue', () => {
	it('runs a query of the catalogue, with Simplified giving the catalogue\'s columns', async () => {
		const result = await run(executeQuery(), { queryId: 'devices_by_os', parameters: '{"os": "Windows 11"}' });
		expect(items(result)).toEqual([
			{ 'device.name': 'PC-1', 'device.entity': 'Zurich' },
			{ 'device.name': 'PC-2', 'device.entity': '' },
			{ 'device.name': 'PC-3', 'device.entity': 'Lisbon' },
		]);
		expect(apiRequests()).toEqual(['POST /api/v2/nql/execute']);
	});

	it.each([
		['an ID outside it', { queryId: '#all_devices', parameters: '{}' }, 'The query ID "#all_devices" is not in this node\'s Query Catalogue: nothing was sent. The queries it may run: #devices_by_os: Devices whose operating system is os. Parameters: os (the operating system name, e.g. Windows 11). #many_devices: Every device (large). Parameters: none.'],
		['"?", which the tool description offers to learn the queries', { queryId: '?', parameters: '{}' }, 'The query ID "?" is not in this node\'s Query Catalogue: nothing was sent. The queries it may run: #devices_by_os'],
		['a parameter the query does not take', { queryId: '#many_devices', parameters: '{"os": "x"}' }, '#many_devices: it takes no parameter os; nothing was sent.'],
		['a missing parameter', { queryId: '#devices_by_os', parameters: '{}' }, '#devices_by_os: it needs os; nothing was sent.'],
	])('refuses %s before any request, saying what may run', async (_title, toolArguments, message) => {
		const result = await run(executeQuery(), toolArguments);
		expect(result.answer).toBeUndefined();
		expect(result.error).toContain(message);
		expect(server.requests).toEqual([]);
	});

	it('holds for Export and Start Export too', async () => {
		const exported = await run({ ...executeQuery(), operation: 'export', advancedOptions: FAST_WAIT }, { queryId: '#devices_by_os', parameters: '{"os": "macOS"}' });
		expect(items(exported).map((row) => row['device.name'])).toEqual(['PC-1', 'PC-2', 'PC-3']);
		expect(Object.keys(items(exported)[0])).toEqual(['device.name', 'device.entity']);
		const refused = await run({ ...executeQuery(), operation: 'startExport' }, { queryId: '#all_devices', parameters: '{}' });
		expect(refused.error).toContain('is not in this node\'s Query Catalogue: nothing was sent');
		expect(server.requests).toEqual([]);
	});

	it('refuses a catalogue that is wrong before any request, outside a tool too', async () => {
		const result = await run(executeQuery({}, { queryCatalogue: { query: [{ queryId: 'Bad Id' }] } }), { queryId: 'x', parameters: '{}' });
		expect(result.error).toContain('Query Catalogue, query 1: "#Bad Id" is not a query ID');
		expect(server.requests).toEqual([]);
	});
});

describe('Output When Used as a Tool', () => {
	const byOs = { queryId: '#devices_by_os', parameters: '{"os": "Windows 11"}' };

	it('Raw gives every column as Nexthink gave it', async () => {
		const rows = items(await run(executeQuery({ outputAsTool: 'raw' }), byOs));
		expect(rows[0]).toEqual({ 'device.name': 'PC-1', 'device.os': 'Windows 11', 'device.entity': 'Zurich', 'device.note': null });
	});

	it('Selected Fields gives the columns named, in that order (a model may name them through $fromAI)', async () => {
		const rows = items(await run(executeQuery({ outputAsTool: 'selected', fieldsAsTool: fromAI('fields', 'Columns to return') }), { ...byOs, fields: 'device.os, device.name' }));
		expect(rows).toEqual([1, 2, 3].map((n) => ({ 'device.os': 'Windows 11', 'device.name': `PC-${n}` })));
	});

	it('Selected Fields naming a column the query does not have fails, naming its columns', async () => {
		const result = await run(executeQuery({ outputAsTool: 'selected', fieldsAsTool: 'device.nam' }), byOs);
		expect(result.error).toContain('"device.nam" is not a column of the query #devices_by_os (named in "Fields When Used as a Tool"). Its columns: device.name, device.os, device.entity, device.note.');
	});

	it('Simplified without catalogue columns leaves out empty values', async () => {
		const rows = items(await run(executeQuery({}, { queryCatalogue: {} }), byOs));
		expect(rows[1]).toEqual({ 'device.name': 'PC-2', 'device.os': 'Windows 11', 'device.note': 'n'.repeat(1000) });
		expect(rows[0]).toEqual({ 'device.name': 'PC-1', 'device.os': 'Windows 11', 'device.entity': 'Zurich' });
	});

	it('is applied before the size bound: narrower rows let more of them fit', async () => {
		const options = { maxOutputKBAsTool: 1 };
		const raw = items(await run(executeQuery({ ...options, outputAsTool: 'raw' }), byOs));
		const selected = items(await run(executeQuery({ ...options, outputAsTool: 'selected', fieldsAsTool: 'device.name' }), byOs));
		expect(raw[0].nexthinkToolNote).toContain('its output is limited to 1 KB of JSON');
		expect(raw.length - 1).toBeLessThan(3);
		expect(selected).toEqual([1, 2, 3].map((n) => ({ 'device.name': `PC-${n}` })));
	});

	it('leaves a run outside a tool as it was: every column', async () => {
		const { runNode } = await import('../helpers/harness');
		const result = await runNode({
			nodeType: new NexthinkExport(),
			parameters: { operation: 'executeQuery', queryId: '#devices_by_os', parametersInput: 'json', queryParametersJson: '{"os": "x"}', queryCatalogue: CATALOGUE, options: { outputAsTool: 'selected', fieldsAsTool: 'device.name' } } as never,
			credentials: credentials(),
		});
		expect(Object.keys(result.items[0].json)).toEqual(['device.name', 'device.os', 'device.entity', 'device.note']);
	});
});

describe('the note at Nexthink\'s row limit of a direct query', () => {
	it('says "at least" 1,000 rows: Nexthink may have left rows out without saying', async () => {
		const rows = items(await run(executeQuery(), { queryId: '#many_devices', parameters: '{}' }));
		expect(rows[0].nexthinkToolNote).toMatch(/^Incomplete result: only 50 of at least 1,000 rows of the query #many_devices are shown/);
		expect(rows[0]).toMatchObject({ rowsShown: 50, rowsLeftOut: 950, moreRowsNotCounted: true });
		expect(rows).toHaveLength(51);
	});
});

describe('allow-lists of the write tools, and the report of what a write tool sent', () => {
	const runRemoteAction = (options: INodeParameters): INodeParameters => ({
		resource: 'remoteAction',
		operation: 'run',
		remoteAction: locator(fromAI('remoteAction', 'NQL ID of the remote action')),
		collectorUids: fromAI('collectorUid', 'Collector UID'),
		scriptInputs: mapperValue({}),
		options,
	});
	const executes = () => server.requests.filter((r: any) => r.method === 'POST' && r.path === '/api/v1/act/execute');

	it('runs an allowed remote action once and reports it with its request ID', async () => {
		const result = await run(runRemoteAction({ allowWritesAsTool: true, allowedIdsAsTool: '#clear_teams_cache, #restart_service' }), { remoteAction: 'clear_teams_cache', collectorUid: C1 }, new NexthinkActions());
		const answer = items(result);
		expect(executes()).toHaveLength(1);
		const requestId = answer[0].nexthinkRemoteAction.requestId;
		expect(requestId).toEqual(expect.any(String));
		expect(answer.at(-1)).toEqual({
			nexthinkToolWrites: {
				summary: `1 request sent to Nexthink by this tool call: #clear_teams_cache, request ID ${requestId}.`,
				requestsSent: 1,
				requests: [{ target: '#clear_teams_cache', requestIds: [requestId], items: [0], ok: true }],
			},
		});
	});

	it('refuses one that is not allowed before any request, even with writes allowed, naming the allowed ones', async () => {
		const result = await run(runRemoteAction({ allowWritesAsTool: true, allowedIdsAsTool: '#clear_teams_cache' }), { remoteAction: '#restart_service', collectorUid: C1 }, new NexthinkActions());
		expect(result.error).toContain('The remote action #restart_service is not one this tool may run: nothing was sent. It may run #clear_teams_cache ("Allowed Remote Actions When Used as a Tool"');
		expect(server.requests).toEqual([]);
	});

	it('reports that nothing was sent when writes are off', async () => {
		const answer = items(await run(runRemoteAction({ allowedIdsAsTool: '#clear_teams_cache' }), { remoteAction: '#clear_teams_cache', collectorUid: C1 }, new NexthinkActions()));
		expect(answer[0].nexthinkRemoteAction.status).toBe('validated');
		expect(answer.at(-1).nexthinkToolWrites).toEqual({ summary: 'Nothing was sent to Nexthink by this tool call.', requestsSent: 0, requests: [] });
		expect(executes()).toHaveLength(0);
	});

	it('refuses a workflow and a campaign outside their lists before any request', async () => {
		const workflow = await run(
			{ resource: 'workflow', operation: 'run', workflow: locator(fromAI('workflow', 'Workflow NQL ID')), workflowApiVersion: 'v2', workflowDevices: 'LAPTOP-ZRH-001', workflowDeviceIdType: 'name', options: { allowWritesAsTool: true, allowedIdsAsTool: 'repair_teams' } },
			{ workflow: '#wipe_device' },
			new NexthinkActions(),
		);
		expect(workflow.error).toContain('The workflow #wipe_device is not one this tool may run: nothing was sent. It may run #repair_teams');
		expect(server.requests).toEqual([]);
		const campaign = await run(
			{ resource: 'campaign', operation: 'trigger', campaignId: fromAI('campaign', 'Campaign NQL ID'), userSids: ALICE_SID, campaignExpiresInMinutes: 60, options: { allowWritesAsTool: true, allowedIdsAsTool: '#it_satisfaction' } },
			{ campaign: '#other_survey' },
			new NexthinkActions(),
		);
		expect(campaign.error).toContain('The campaign #other_survey is not one this tool may run: nothing was sent. It may run #it_satisfaction');
		expect(server.requests).toEqual([]);
	});

	it('Device → Delete as a tool takes one device per call: n8n hands a tool one input item, and a list is not a device UID', async () => {
		const result = await run(
			{ resource: 'device', operation: 'delete', deviceUid: fromAI('uid', 'Device UID'), deviceName: fromAI('name', 'Device name'), maxDevicesPerRun: 5, options: { allowWritesAsTool: true } },
			{ uid: 'd0000000-0000-4000-8000-000000000005, d0000000-0000-4000-8000-000000000006', name: 'SRV-FRA-001' },
			new NexthinkActions(),
		);
		expect(result.error).toContain('is not a UUID');
		expect(server.requests).toEqual([]);
	});

	it('checks a list in every run, outside a tool too, before any request', async () => {
		const { runNode } = await import('../helpers/harness');
		const result = await runNode({
			nodeType: new NexthinkActions(),
			parameters: { resource: 'campaign', operation: 'trigger', campaignId: '#it_satisfaction', userSids: ALICE_SID, campaignExpiresInMinutes: 60, options: { allowedIdsAsTool: '#a #b' } } as never,
			credentials: credentials(),
		});
		expect(result.error?.message).toContain('"Allowed Campaigns When Used as a Tool" has "#a #b", which is not an NQL ID');
		expect(server.requests).toEqual([]);
	});

	it('has no effect outside a tool', async () => {
		const { runNode } = await import('../helpers/harness');
		const result = await runNode({
			nodeType: new NexthinkActions(),
			parameters: { resource: 'campaign', operation: 'trigger', campaignId: '#it_satisfaction', userSids: ALICE_SID, campaignExpiresInMinutes: 60, options: { allowedIdsAsTool: '#another' } } as never,
			credentials: credentials(),
		});
		expect(result.items[0].json.nexthinkCampaign).toMatchObject({ status: 'triggered' });
		expect(result.items).toHaveLength(1);
	});
});
