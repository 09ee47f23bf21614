/**
 * Query ID as a resource locator: the editor's "From List" (the Query Catalogue, through n8n-core's
 * own LoadOptionsContext) and runs through n8n-core's engine, where a locator value, a plain
 * string (as workflows written by hand and the Nexthink Trigger give it) and a $fromAI()
 * placeholder in the ID mode all run the same query with the same checks.
 */
import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { loadOptionsContext, N8N_CORE_VERSION, nexthinkCredentials, runNode } from '../../helpers/harness';
import { runAsAgentTool } from '../../helpers/agentTool';
import { FAST_WAIT, localServerHooks } from '../../helpers/localServer';

const { startNexthinkServer } = require('../../server');

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
	server.addQuery({ id: '#two_rows', header: ['device.name'], rows: [['PC-1'], ['PC-2']] });
});
localServerHooks(() => server);

const CATALOGUE = {
	query: [
		{ queryId: 'devices_by_os', description: 'Devices whose operating system matches os', parameters: 'os: operating system name' },
		{ queryId: '#two_rows', description: 'Two devices, for tests' },
		{ queryId: '#crash_count' },
		// being typed: left out of the list rather than failing it
		{ queryId: '' },
		{ queryId: 'Not An Id', description: 'bad' },
	],
};

function list(parameters: Record<string, unknown>, filter?: string) {
	const node = new NexthinkExport();
	const ctx = loadOptionsContext({ nodeType: node, parameters: parameters as never, credentials: { nexthinkApi: nexthinkCredentials(server) }, path: 'parameters.queryId' });
	return node.methods.listSearch.searchQueryCatalogue.call(ctx, filter);
}

describe(`Query ID "From List" on n8n-core ${N8N_CORE_VERSION}`, () => {
	const parameters = { operation: 'executeQuery', queryId: { __rl: true, mode: 'list', value: '' }, queryCatalogue: CATALOGUE };

	it('lists the catalogue\'s queries in its order, with what each answers, and sends no request', async () => {
		expect((await list(parameters)).results).toEqual([
			{ name: '#devices_by_os — Devices whose operating system matches os', value: '#devices_by_os' },
			{ name: '#two_rows — Two devices, for tests', value: '#two_rows' },
			{ name: '#crash_count', value: '#crash_count' },
		]);
		expect(server.requests).toEqual([]);
	});

	it('filters by the search text, in the ID or the description, without case', async () => {
		expect((await list(parameters, 'OPERATING')).results.map((entry) => entry.value)).toEqual(['#devices_by_os']);
		expect((await list(parameters, 'crash')).results.map((entry) => entry.value)).toEqual(['#crash_count']);
		expect((await list(parameters, 'nothing like it')).results).toEqual([]);
	});

	it('an empty catalogue gives an empty list; the mode\'s hint says where the list comes from', async () => {
		expect(await list({ ...parameters, queryCatalogue: {} })).toEqual({ results: [] });
		expect(await list({ operation: 'executeQuery' })).toEqual({ results: [] });
		const locator = new NexthinkExport().description.properties.find((p) => p.name === 'queryId' && p.type === 'resourceLocator');
		expect(locator?.modes?.find((mode) => mode.name === 'list')?.hint).toBe(
			'The queries of the Query Catalogue below; the list is empty until it has some. Any other query: By ID.',
		);
	});
});

describe(`Query ID as a locator or a plain string runs the same on n8n-core ${N8N_CORE_VERSION}`, () => {
	function run(operation: string, queryId: unknown, extra: Record<string, unknown> = {}) {
		return runNode({
			nodeType: new NexthinkExport(),
			parameters: { operation, queryId, advancedOptions: FAST_WAIT, ...extra } as never,
			credentials: { nexthinkApi: nexthinkCredentials(server) },
		});
	}
	// export IDs are random: compared by place, not value
	const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
	const sent = () =>
		server.requests.filter((r: any) => r.path.startsWith('/api/')).map((r: any) => [r.method, r.path.replace(UUID, '<id>'), r.body.replace(UUID, '<id>')]);

	for (const operation of ['executeQuery', 'export', 'startExport']) {
		it(`${operation}: { mode: 'list', value: '#two_rows' }, { mode: 'id', value: 'two_rows' } and '#two_rows' give the same items and requests`, async () => {
			const outcomes = [];
			for (const queryId of [{ __rl: true, mode: 'list', value: '#two_rows' }, { __rl: true, mode: 'id', value: 'two_rows' }, '#two_rows']) {
				server.clearRequests();
				const { items, error } = await run(operation, queryId);
				expect(error).toBeUndefined();
				outcomes.push({ json: items.map((item) => ({ ...item.json, exportId: item.json.exportId === undefined ? undefined : 'id' })), sent: sent() });
			}
			expect(outcomes[0].json.length).toBeGreaterThan(0);
			expect(outcomes[1]).toEqual(outcomes[0]);
			expect(outcomes[2]).toEqual(outcomes[0]);
		});
	}

	it('a bad ID gets the same message in either form, before any request', async () => {
		const typed = await run('executeQuery', 'All Devices');
		const located = await run('executeQuery', { __rl: true, mode: 'id', value: 'All Devices' });
		expect(typed.error.message).toMatch(/: The query ID "All Devices" has characters a query ID cannot have/);
		expect(located.error.message).toBe(typed.error.message);
		expect(server.requests).toEqual([]);
	});

	it('the catalogue check reads the locator\'s value', async () => {
		const { error } = await run('executeQuery', { __rl: true, mode: 'id', value: '#crash_count' }, { queryCatalogue: { query: [{ queryId: '#two_rows' }] } });
		expect(error.message).toMatch(/: The query ID "#crash_count" is not in this node's Query Catalogue: nothing was sent/);
		expect(server.requests).toEqual([]);
	});

	it('a $fromAI() placeholder in the ID mode is filled by the agent', async () => {
		const result = await runAsAgentTool({
			nodeType: new NexthinkExport(),
			parameters: { operation: 'executeQuery', queryId: { __rl: true, mode: 'id', value: "={{ $fromAI('queryId', 'ID of a stored query', 'string') }}" } } as never,
			credentials: { nexthinkApi: nexthinkCredentials(server) },
			toolArguments: { queryId: 'two_rows' },
		});
		expect(result.tool.parameters.queryId.description).toBe('ID of a stored query');
		expect(result.answer).toContain('PC-2');
		expect(sent()).toEqual([['POST', '/api/v2/nql/execute', JSON.stringify({ queryId: '#two_rows', parameters: {} })]]);
	});
});

describe(`the subtitle shows the query ID in either form on n8n-workflow ${N8N_CORE_VERSION}`, () => {
	const n8nWorkflow = require('n8n-workflow');
	it.each([
		[{ __rl: true, mode: 'list', value: '#two_rows' }, 'executeQuery: #two_rows'],
		['#two_rows', 'executeQuery: #two_rows'],
		[{ __rl: true, mode: 'id', value: '' }, 'executeQuery'],
		[undefined, 'executeQuery'],
	])('%j → %s', (queryId, subtitle) => {
		const type = new NexthinkExport();
		const nodeTypes = { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) };
		const node = { id: 'n1', name: 'Node', type: 'test.export', typeVersion: 1, position: [0, 0], parameters: { operation: 'executeQuery', ...(queryId === undefined ? {} : { queryId }) } };
		const workflow = new n8nWorkflow.Workflow({ nodes: [node], connections: {}, active: false, nodeTypes, settings: {} });
		// what the editor does with a node type's subtitle (n8n's NodeHelpers / useNodeHelpers getNodeSubtitle)
		expect(workflow.expression.getSimpleParameterValue(node, type.description.subtitle, 'internal', {})).toBe(subtitle);
	});
});
