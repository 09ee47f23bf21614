/**
 * Nexthink Actions in the editor: the remote action list of the resource locator and the script
 * inputs of the chosen remote action, run in n8n-core's LoadOptionsContext (both generations)
 * against the local server.
 */
import type { INodeParameters } from 'n8n-workflow';

import { NexthinkActions } from '../../../nodes/Nexthink/actions/NexthinkActions.node';
import { disposeHarness, loadOptionsContext, nexthinkCredentials } from '../../helpers/harness';

const { startNexthinkServer } = require('../../server');

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
});

beforeEach(() => server.clearRequests());

afterAll(async () => {
	await server.close();
	disposeHarness();
});

function context(parameters: INodeParameters, path: string) {
	const node = new NexthinkActions();
	return { node, ctx: loadOptionsContext({ nodeType: node, parameters, credentials: { nexthinkApi: nexthinkCredentials(server) }, path }) };
}

const RUN = { resource: 'remoteAction', operation: 'run', collectorUids: '', runOptions: {} };

describe('remote action list (listSearch)', () => {
	it('lists every remote action from the list endpoint, marking those that cannot be run, and filters by text', async () => {
		const { node, ctx } = context({ ...RUN, remoteAction: { __rl: true, mode: 'list', value: '' } }, 'parameters.remoteAction');
		const all = await node.methods.listSearch.searchRemoteActions.call(ctx);
		expect(all.results).toHaveLength(6);
		expect(all.results).toContainEqual({ name: 'Restart a Windows service (#restart_service)', value: '#restart_service' });
		expect(all.results.find((entry) => entry.value === '#collect_crash_dumps')?.name).toMatch(/— API not enabled, cannot be run from n8n$/);
		const filtered = await node.methods.listSearch.searchRemoteActions.call(ctx, 'TEAMS');
		expect(filtered.results.map((entry) => entry.value)).toEqual(['#clear_teams_cache']);
		expect(server.requests.map((r: any) => [r.method, r.path]).filter(([, p]: string[]) => p.startsWith('/api/'))).toEqual([
			['GET', '/api/v1/act/remote-action'],
			['GET', '/api/v1/act/remote-action'],
		]);
	});
});

describe('script inputs (resource mapper)', () => {
	it("offers the remote action's inputs: a dropdown where only listed values are allowed, free text otherwise", async () => {
		const { node, ctx } = context({ ...RUN, remoteAction: { __rl: true, mode: 'list', value: '#restart_service' } }, 'parameters.scriptInputs');
		const { fields } = await node.methods.resourceMapping.getScriptInputs.call(ctx);
		expect(fields).toEqual([
			expect.objectContaining({ id: 'ServiceName', displayName: 'Service name (e.g. Spooler, wuauserv, BITS)', type: 'string', required: true }),
			expect.objectContaining({
				id: 'StartType',
				displayName: 'Start type',
				type: 'options',
				required: true,
				options: [
					{ name: 'Automatic', value: 'Automatic' },
					{ name: 'Manual', value: 'Manual' },
					{ name: 'Disabled', value: 'Disabled' },
				],
			}),
		]);
		const details = server.requests.find((r: any) => r.path === '/api/v1/act/remote-action/details');
		expect(details.query).toEqual({ 'nql-id': '#restart_service' });
	});

	it('has no fields before a remote action is chosen, and none for one without inputs', async () => {
		const none = context({ ...RUN, remoteAction: { __rl: true, mode: 'list', value: '' } }, 'parameters.scriptInputs');
		expect(await none.node.methods.resourceMapping.getScriptInputs.call(none.ctx)).toEqual({ fields: [] });
		expect(server.requests).toEqual([]);
		const empty = context({ ...RUN, remoteAction: { __rl: true, mode: 'id', value: 'clear_teams_cache' } }, 'parameters.scriptInputs');
		expect(await empty.node.methods.resourceMapping.getScriptInputs.call(empty.ctx)).toEqual({ fields: [] });
	});

	it('an unknown NQL ID gives the 404 with its code', async () => {
		const { node, ctx } = context({ ...RUN, remoteAction: { __rl: true, mode: 'id', value: '#nope' } }, 'parameters.scriptInputs');
		await expect(node.methods.resourceMapping.getScriptInputs.call(ctx)).rejects.toThrow(/HTTP 404.*REMOTE_ACTION_NOT_FOUND/);
	});
});
