/**
 * Every operation of the three nodes as an AI agent's (or MCP client's) tool, through n8n-core's own
 * tool machinery on both generations, against the local server: the description the model gets is
 * the operation's own (shared/toolDescriptions.ts), a read answers, and an operation that changes
 * something sends nothing and says so unless "Allow Writes When Used as a Tool" is on, then sends
 * exactly one request.
 */
import type { INodeParameters, INodeType } from 'n8n-workflow';

import { NexthinkActions } from '../../nodes/Nexthink/actions/NexthinkActions.node';
import { NexthinkEnrichment } from '../../nodes/Nexthink/enrichment/NexthinkEnrichment.node';
import { NexthinkExport } from '../../nodes/Nexthink/export/NexthinkExport.node';
import { ACTIONS_TOOL_DESCRIPTIONS, ENRICHMENT_TOOL_DESCRIPTION, EXPORT_TOOL_DESCRIPTIONS } from '../../nodes/Nexthink/shared/toolDescriptions';
import { WRITES_OFF_NOTE } from '../../nodes/Nexthink/shared/toolMode';
import { runAsAgentTool, type AgentToolAnswer } from '../helpers/agentTool';
import { nexthinkCredentials, runNode } from '../helpers/harness';
import { FAST_WAIT, localServerHooks } from '../helpers/localServer';
import { locator, mapperValue, waitingExecution } from './actions/helpers';

const { startNexthinkServer } = require('../server');

jest.setTimeout(30_000);

const C1 = 'e0000000-0000-4000-8000-000000000001';
const ALICE_SID = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const APPROVAL_UUID = 'f2000000-0000-4000-8000-000000000004';
const UNKNOWN_EXECUTION = '90000000-0000-4000-8000-000000000009';

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
	server.addQuery({
		id: '#devices_3',
		header: ['device.name', 'device.os'],
		rows: () => [
			['PC-1', 'Windows 11'],
			['PC-2', 'Windows 10'],
			['PC-3', 'macOS 15'],
		],
		completeAfterPolls: 0,
	});
});

localServerHooks(() => server);

const credentials = () => ({ nexthinkApi: nexthinkCredentials(server) });
const fromAI = (key: string, description: string) => `={{ $fromAI('${key}', '${description}', 'string') }}`;
const posts = (path: string | RegExp) => server.requests.filter((r: any) => r.method === 'POST' && (typeof path === 'string' ? r.path === path : path.test(r.path)));

/** The items the model got, parsed from the answer text. */
function answerItems(result: AgentToolAnswer): any[] {
	if (result.answer === undefined) throw new Error(`The tool failed: ${result.error}`);
	return JSON.parse(result.answer);
}

/** An export started outside the agent, for the operations that take an export ID. */
async function startedExportId(): Promise<string> {
	const started = await runNode({ nodeType: new NexthinkExport(), parameters: { operation: 'startExport', queryId: 'devices_3' } as never, credentials: credentials() });
	return started.items[0].json.exportId as string;
}


interface ToolCase {
	title: string;
	nodeType: () => INodeType;
	description: string;
	parameters: INodeParameters;
	/** What the model sends; a function when it needs something made first. */
	toolArguments: () => Promise<Record<string, unknown>> | Record<string, unknown>;
	/** What the model must find in the answer. */
	answers: (items: any[]) => void;
}

interface WriteCase extends ToolCase {
	/** The options collection that holds "Allow Writes When Used as a Tool". */
	optionsKey: string;
	/** The requests that change something in Nexthink. */
	writes: () => unknown[];
}

const readCases: ToolCase[] = [
	{
		title: 'Export: Execute Query',
		nodeType: () => new NexthinkExport(),
		description: EXPORT_TOOL_DESCRIPTIONS.executeQuery,
		parameters: { operation: 'executeQuery', queryId: fromAI('queryId', 'ID of a stored NQL query'), options: {} },
		toolArguments: () => ({ queryId: 'devices_3' }),
		answers: (items) => expect(items.map((row) => row['device.name'])).toEqual(['PC-1', 'PC-2', 'PC-3']),
	},
	{
		title: 'Export: Export',
		nodeType: () => new NexthinkExport(),
		description: EXPORT_TOOL_DESCRIPTIONS.export,
		parameters: { operation: 'export', queryId: fromAI('queryId', 'ID of a stored NQL query'), advancedOptions: FAST_WAIT },
		toolArguments: () => ({ queryId: 'devices_3' }),
		answers: (items) => expect(items).toEqual([
			{ 'device.name': 'PC-1', 'device.os': 'Windows 11' },
			{ 'device.name': 'PC-2', 'device.os': 'Windows 10' },
			{ 'device.name': 'PC-3', 'device.os': 'macOS 15' },
		]),
	},
	{
		title: 'Export: Start Export',
		nodeType: () => new NexthinkExport(),
		description: EXPORT_TOOL_DESCRIPTIONS.startExport,
		parameters: { operation: 'startExport', queryId: fromAI('queryId', 'ID of a stored NQL query') },
		toolArguments: () => ({ queryId: 'devices_3' }),
		answers: (items) => expect(items[0]).toMatchObject({ exportId: expect.any(String), queryId: '#devices_3' }),
	},
	{
		title: 'Export: Get Status',
		nodeType: () => new NexthinkExport(),
		description: EXPORT_TOOL_DESCRIPTIONS.getStatus,
		parameters: { operation: 'getStatus', exportId: fromAI('exportId', 'Export ID') },
		toolArguments: async () => ({ exportId: await startedExportId() }),
		answers: (items) => expect(items[0]).toMatchObject({ status: 'COMPLETED' }),
	},
	{
		title: 'Export: Download Results',
		nodeType: () => new NexthinkExport(),
		description: EXPORT_TOOL_DESCRIPTIONS.downloadResults,
		parameters: { operation: 'downloadResults', exportId: fromAI('exportId', 'Export ID'), options: {} },
		toolArguments: async () => ({ exportId: await startedExportId() }),
		answers: (items) => expect(items.map((row) => row['device.name'])).toEqual(['PC-1', 'PC-2', 'PC-3']),
	},
	{
		title: 'Actions: Remote Action Get',
		nodeType: () => new NexthinkActions(),
		description: ACTIONS_TOOL_DESCRIPTIONS.remoteAction.get,
		parameters: { resource: 'remoteAction', operation: 'get', remoteAction: { __rl: true, mode: 'id', value: fromAI('id', 'NQL ID') } },
		toolArguments: () => ({ id: '#restart_service' }),
		answers: (items) => expect(items[0]).toMatchObject({ id: '#restart_service' }),
	},
	{
		title: 'Actions: Remote Action Get Many',
		nodeType: () => new NexthinkActions(),
		description: ACTIONS_TOOL_DESCRIPTIONS.remoteAction.getMany,
		parameters: { resource: 'remoteAction', operation: 'getMany', returnAll: true },
		toolArguments: () => ({}),
		answers: (items) => expect(items.map((item) => item.id)).toContain('#restart_service'),
	},
	{
		title: 'Actions: Workflow Get',
		nodeType: () => new NexthinkActions(),
		description: ACTIONS_TOOL_DESCRIPTIONS.workflow.get,
		parameters: { resource: 'workflow', operation: 'get', workflow: { __rl: true, mode: 'id', value: fromAI('id', 'NQL ID') } },
		toolArguments: () => ({ id: '#repair_teams' }),
		answers: (items) => expect(items[0]).toMatchObject({ id: '#repair_teams' }),
	},
	{
		title: 'Actions: Workflow Get Many',
		nodeType: () => new NexthinkActions(),
		description: ACTIONS_TOOL_DESCRIPTIONS.workflow.getMany,
		parameters: { resource: 'workflow', operation: 'getMany', returnAll: true },
		toolArguments: () => ({}),
		answers: (items) => expect(items.map((item) => item.id)).toContain('#repair_teams'),
	},
];

const writeCases: WriteCase[] = [
	{
		title: 'Enrichment',
		nodeType: () => new NexthinkEnrichment(),
		description: ENRICHMENT_TOOL_DESCRIPTION,
		parameters: {
			objectType: 'device',
			identifyBy: 'name',
			identificationValue: fromAI('deviceName', 'Device name'),
			mappingMode: 'defineBelow',
			deviceFields: { fieldValues: [{ field: 'customField', customFieldId: '#tier', value: 'gold' }] },
			domain: 'n8n',
			options: {},
		},
		optionsKey: 'options',
		toolArguments: () => ({ deviceName: 'LAPTOP-ZRH-001' }),
		writes: () => posts('/api/v1/enrichment/data/fields'),
		answers: (items) => expect(items[0].enrichment.status).toBe('applied'),
	},
	{
		title: 'Actions: Remote Action Run',
		nodeType: () => new NexthinkActions(),
		description: ACTIONS_TOOL_DESCRIPTIONS.remoteAction.run,
		parameters: {
			resource: 'remoteAction',
			operation: 'run',
			remoteAction: locator('#restart_service'),
			collectorUids: fromAI('collectorUid', 'Collector UID'),
			scriptInputs: mapperValue({ ServiceName: 'Spooler', StartType: 'Manual' }),
			options: {},
		},
		optionsKey: 'options',
		toolArguments: () => ({ collectorUid: C1 }),
		writes: () => posts('/api/v1/act/execute'),
		answers: (items) => expect(items[0].nexthinkRemoteAction).toMatchObject({ status: 'triggered', requestId: expect.any(String) }),
	},
	{
		title: 'Actions: Workflow Run',
		nodeType: () => new NexthinkActions(),
		description: ACTIONS_TOOL_DESCRIPTIONS.workflow.run,
		parameters: {
			resource: 'workflow',
			operation: 'run',
			workflow: locator('#repair_teams'),
			workflowApiVersion: 'v2',
			workflowDevices: fromAI('device', 'Device name'),
			workflowDeviceIdType: 'name',
			workflowUsers: '',
			workflowUserIdType: 'sid',
			options: {},
		},
		optionsKey: 'options',
		toolArguments: () => ({ device: 'LAPTOP-ZRH-001' }),
		writes: () => posts('/api/v2/workflows/execute'),
		answers: (items) => expect(items[0].nexthinkWorkflow).toMatchObject({ status: 'triggered', executionIds: [expect.any(String)] }),
	},
	{
		title: 'Actions: Workflow Resume',
		nodeType: () => new NexthinkActions(),
		description: ACTIONS_TOOL_DESCRIPTIONS.workflow.resume,
		parameters: {
			resource: 'workflow',
			operation: 'resume',
			workflowUuid: APPROVAL_UUID,
			executionUuid: fromAI('execution', 'Execution UUID'),
			resumeParameters: { parameter: [{ name: 'approved', value: 'yes' }] },
			options: {},
		},
		optionsKey: 'options',
		// writes off: nothing is sent, so any UUID does; writes on: a waiting execution
		toolArguments: async () => ({ execution: writesOn ? await waitingExecution(server, C1) : UNKNOWN_EXECUTION }),
		writes: () => posts(/\/execution\/.+\/trigger$/),
		answers: (items) => expect(items[0].nexthinkWorkflowResume).toMatchObject({ status: 'resumed' }),
	},
	{
		title: 'Actions: Campaign Trigger',
		nodeType: () => new NexthinkActions(),
		description: ACTIONS_TOOL_DESCRIPTIONS.campaign.trigger,
		parameters: { resource: 'campaign', operation: 'trigger', campaignId: '#it_satisfaction', userSids: fromAI('sid', 'User SID'), campaignExpiresInMinutes: 1440, options: {} },
		optionsKey: 'options',
		toolArguments: () => ({ sid: ALICE_SID }),
		writes: () => posts('/api/v1/euf/campaign/trigger'),
		answers: (items) => expect(items[0].nexthinkCampaign).toMatchObject({ status: 'triggered' }),
	},
	{
		title: 'Actions: Device Delete',
		nodeType: () => new NexthinkActions(),
		description: ACTIONS_TOOL_DESCRIPTIONS.device.delete,
		parameters: {
			resource: 'device',
			operation: 'delete',
			deviceUid: fromAI('uid', 'Device UID'),
			deviceName: fromAI('name', 'Device name'),
			maxDevicesPerRun: 5,
			preview: false,
			options: {},
		},
		optionsKey: 'options',
		toolArguments: () => ({ uid: 'd0000000-0000-4000-8000-000000000005', name: 'SRV-FRA-001' }),
		writes: () => posts('/api/v1/data-management/device/deletions'),
		answers: (items) => expect(items[0].nexthinkDevice).toMatchObject({ status: 'scheduled' }),
	},
	{
		title: 'Actions: Spark Hand Off',
		nodeType: () => new NexthinkActions(),
		description: ACTIONS_TOOL_DESCRIPTIONS.spark.handOff,
		parameters: {
			resource: 'spark',
			operation: 'handOff',
			userPrincipalName: fromAI('upn', 'UPN'),
			handOffMessage: fromAI('message', 'The request'),
			options: {},
		},
		optionsKey: 'options',
		toolArguments: () => ({ upn: 'alice.martin@example.com', message: 'VPN drops' }),
		writes: () => posts('/api/v1/spark/handoff'),
		answers: (items) => expect(items[0].nexthinkSpark).toMatchObject({ status: 'handedOff' }),
	},
];

/** Whether the write case being run has writes on (for arguments that depend on it). */
let writesOn = false;

async function runCase(testCase: ToolCase, parameters: INodeParameters): Promise<AgentToolAnswer> {
	const toolArguments = await testCase.toolArguments();
	server.clearRequests();
	return await runAsAgentTool({ nodeType: testCase.nodeType(), parameters, toolArguments, credentials: credentials() });
}

describe('every read operation as a tool: its own description, and an answer', () => {
	it.each(readCases.map((testCase) => [testCase.title, testCase] as const))('%s', async (_title, testCase) => {
		const result = await runCase(testCase, testCase.parameters);
		expect(result.tool.description).toBe(testCase.description);
		testCase.answers(answerItems(result));
	});
});

describe('every write operation as a tool: its own description; nothing sent and a note unless writes are allowed, then one request', () => {
	it.each(writeCases.map((testCase) => [testCase.title, testCase] as const))('%s', async (_title, testCase) => {
		writesOn = false;
		const refused = await runCase(testCase, testCase.parameters);
		expect(refused.tool.description).toBe(testCase.description);
		expect(testCase.writes()).toHaveLength(0);
		expect(refused.answer).toBeDefined();
		// Enrichment words it "written" (its own note), the Actions operations share one
		expect(refused.answer).toContain('Allow Writes When Used as a Tool');
		expect(refused.answer).toMatch(/Nothing was (sent to|written to) Nexthink/);
		if (testCase.nodeType() instanceof NexthinkActions) expect(JSON.stringify(answerItems(refused))).toContain(JSON.stringify(WRITES_OFF_NOTE));
		// Delete answers its preview; every other write reports that it sent nothing
		if (testCase.title !== 'Actions: Device Delete') expect(answerItems(refused).at(-1).nexthinkToolWrites).toMatchObject({ requestsSent: 0 });

		// a value that is not clearly on or off (an expression's text) stops the tool before any request, naming it
		const options = (testCase.parameters[testCase.optionsKey] ?? {}) as object;
		const unclear = await runCase(testCase, { ...testCase.parameters, [testCase.optionsKey]: { ...options, allowWritesAsTool: 'perhaps' } });
		expect(testCase.writes()).toHaveLength(0);
		expect(String(unclear.error ?? unclear.answer)).toMatch(/Allow Writes When Used as a Tool\\?" must be true or false, got \\?"perhaps/);

		writesOn = true;
		const written = await runCase(testCase, { ...testCase.parameters, [testCase.optionsKey]: { ...options, allowWritesAsTool: true } });
		expect(written.error).toBeUndefined();
		expect(testCase.writes()).toHaveLength(1);
		testCase.answers(answerItems(written));
		expect(written.answer).not.toContain('Allow Writes When Used as a Tool');
		// the last item reports the request sent, with the request IDs the outcome has (shared/toolMode.ts)
		const report = answerItems(written).at(-1).nexthinkToolWrites;
		expect(report).toMatchObject({ requestsSent: 1, requests: [{ ok: true, items: [0] }] });
		expect(report.summary).toMatch(/^1 request sent to Nexthink by this tool call: /);
		for (const requestId of report.requests[0].requestIds) expect(JSON.stringify(answerItems(written)[0])).toContain(requestId);
	});
});
