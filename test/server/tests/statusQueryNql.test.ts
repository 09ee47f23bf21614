/**
 * The status queries of Wait for Results on the local server: the NQL the README tells users to
 * create is exactly the text the server accepts as a query's definition (and the demo estate
 * uses), and that text alone decides the query's columns; NQL the server does not understand is
 * refused, naming what is wrong.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export {};

const { startNexthinkServer } = require('..');
const { STATUS_QUERY_NQL } = require('../actions');
const { fetchToken, apiRequest } = require('../client');

const C1 = 'e0000000-0000-4000-8000-000000000001';
const ALICE = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const TABLES = ['remote_action.executions', 'workflow.executions', 'campaign.responses'];

/** The NQL block after `<!-- status-query-nql: <table> -->` in README.md. */
function readmeNql(table: string): string | undefined {
	const readme = fs.readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');
	const match = new RegExp(`<!-- status-query-nql: ${table.replace('.', '\\.')} -->\\n\`\`\`\\n([^\\n]+)\\n\`\`\``).exec(readme);
	return match?.[1];
}

describe('README status query NQL', () => {
	it.each(TABLES)('%s: the README gives exactly the text the server accepts', (table) => {
		expect(readmeNql(table)).toBe(STATUS_QUERY_NQL[table]);
	});
});

describe('status queries defined by their NQL', () => {
	let server: any;
	let token: string;

	beforeAll(async () => {
		server = await startNexthinkServer({ demo: true, actionCompleteAfterPolls: 0 });
		token = await fetchToken(server);
	});

	afterAll(async () => {
		await server.close();
	});

	const post = async (apiPath: string, json: unknown) => {
		const response = await apiRequest(server, token, 'POST', apiPath, { json });
		return { status: response.status, body: await response.json() };
	};

	it('returns exactly the listed columns, in order, for the request ID given', async () => {
		server.addActionStatusQuery({ id: '#readme_ra_status', nql: STATUS_QUERY_NQL['remote_action.executions'] });
		const { body: run } = await post('/api/v1/act/execute', { remoteActionId: '#clear_teams_cache', devices: [C1] });
		const { status, body } = await post('/api/v2/nql/execute', { queryId: '#readme_ra_status', parameters: { request_id: run.requestId } });
		expect(status).toBe(200);
		expect(body.data).toHaveLength(1);
		expect(Object.keys(body.data[0])).toEqual(['request_id', 'device.name', 'device.collector.uid', 'status', 'status_details', 'outputs', 'time']);
		expect(body.data[0]).toMatchObject({ request_id: run.requestId, 'device.collector.uid': C1, status: 'success' });
		expect(body.executedQuery).toBe(STATUS_QUERY_NQL['remote_action.executions'].replace('$request_id', JSON.stringify(run.requestId)));
	});

	it('the demo estate\'s status queries are the README\'s NQL', async () => {
		const { body: campaign } = await post('/api/v1/euf/campaign/trigger', { campaignNqlId: '#it_satisfaction', userSid: [ALICE], expiresInMinutes: 60 });
		const requestId = campaign.requests[0].requestId;
		const ids: Record<string, string> = {
			'remote_action.executions': '#n8n_remote_action_status',
			'workflow.executions': '#n8n_workflow_status',
			'campaign.responses': '#n8n_campaign_status',
		};
		for (const table of TABLES) {
			const { body } = await post('/api/v2/nql/execute', { queryId: ids[table], parameters: { request_id: requestId } });
			expect(body.executedQuery).toBe(STATUS_QUERY_NQL[table].replace('$request_id', JSON.stringify(requestId)));
		}
		const { body } = await post('/api/v2/nql/execute', { queryId: '#n8n_campaign_status', parameters: { request_id: requestId } });
		expect(body.data).toEqual([{ request_id: requestId, 'user.name': 'Alice Martin', 'user.sid': ALICE, 'user.upn': 'alice.martin@example.com', state: 'answered', time: expect.any(String) }]);
	});

	it('accepts line breaks, a per-object table and another parameter name', async () => {
		server.addActionStatusQuery({
			id: '#typed_status',
			nql: 'remote_action.#restart_service.executions during past 24h\n| where request_id == $rid\n| list device.collector.uid, status, outputs.ServiceStatus',
		});
		const { body: run } = await post('/api/v1/act/execute', { remoteActionId: '#restart_service', devices: [C1], params: { ServiceName: 'BITS', StartType: 'Manual' } });
		const { body } = await post('/api/v2/nql/execute', { queryId: '#typed_status', parameters: { rid: run.requestId } });
		expect(body.data).toEqual([{ 'device.collector.uid': C1, status: 'success', 'outputs.ServiceStatus': expect.stringContaining('ServiceStatus') }]);
	});

	it('without a where part: no parameter, every request\'s rows (a query that does not filter by the request ID)', async () => {
		server.addActionStatusQuery({ id: '#every_ra', nql: 'remote_action.executions during past 7d | list request_id, device.collector.uid, status' });
		const { body: first } = await post('/api/v1/act/execute', { remoteActionId: '#clear_teams_cache', devices: [C1] });
		const { body: second } = await post('/api/v1/act/execute', { remoteActionId: '#clear_teams_cache', devices: [C1] });
		const { status, body } = await post('/api/v2/nql/execute', { queryId: '#every_ra' });
		expect(status).toBe(200);
		const mine = body.data.filter((row: any) => [first.requestId, second.requestId].includes(row.request_id));
		expect(mine).toEqual([
			{ request_id: first.requestId, 'device.collector.uid': C1, status: 'success' },
			{ request_id: second.requestId, 'device.collector.uid': C1, status: 'success' },
		]);
		// a parameter given anyway changes nothing
		const { body: again } = await post('/api/v2/nql/execute', { queryId: '#every_ra', parameters: { request_id: second.requestId } });
		expect(again.data.length).toBe(body.data.length);
	});

	it.each([
		['a shape it does not know', 'remote_action.executions | list status', 'the NQL must read'],
		['an unknown table', 'remote_actions.runs during past 7d | where request_id == $request_id | list status', 'table must be one of'],
		['an unknown column', 'campaign.responses during past 7d | where request_id == $request_id | list user.sid, status', 'campaign.responses has no column status; its columns are'],
		['an unknown where column', 'workflow.executions during past 7d | where request == $request_id | list status', 'workflow.executions has no column request (where)'],
	])('refuses %s', (_label, nql, message) => {
		expect(() => server.addActionStatusQuery({ id: '#bad_status', nql })).toThrow(message);
	});
});
