/**
 * Nexthink Actions in the editor: the remote action and workflow lists of the resource locators,
 * the script inputs of the chosen remote action and the parameters of the chosen workflow, and the
 * warning for an object that cannot be run from n8n, run in n8n-core's LoadOptionsContext (both
 * generations) against the local server.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { NexthinkActions } from '../../../nodes/Nexthink/actions/NexthinkActions.node';
import { loadOptionsContext, nexthinkCredentials } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';

const { startNexthinkServer } = require('../../server');

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
});

localServerHooks(() => server);

function context(parameters: INodeParameters, path: string) {
	const node = new NexthinkActions();
	return { node, ctx: loadOptionsContext({ nodeType: node, parameters, credentials: { nexthinkApi: nexthinkCredentials(server) }, path }) };
}

const RUN = { resource: 'remoteAction', operation: 'run', collectorUids: '', options: {} };

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
		expect(await empty.node.methods.resourceMapping.getScriptInputs.call(empty.ctx)).toEqual({ fields: [], emptyFieldsNotice: 'This remote action has no script inputs' });
	});

	it('an unknown NQL ID gives the 404 with its code', async () => {
		const { node, ctx } = context({ ...RUN, remoteAction: { __rl: true, mode: 'id', value: '#nope' } }, 'parameters.scriptInputs');
		await expect(node.methods.resourceMapping.getScriptInputs.call(ctx)).rejects.toThrow(/HTTP 404.*REMOTE_ACTION_NOT_FOUND/);
	});
});

describe('the editor warns before running an object that is not API-enabled', () => {
	it('remote action: the Script Inputs mapper says the API checkbox is not ticked', async () => {
		const { node, ctx } = context({ ...RUN, remoteAction: { __rl: true, mode: 'list', value: '#collect_crash_dumps' } }, 'parameters.scriptInputs');
		const result = await node.methods.resourceMapping.getScriptInputs.call(ctx);
		expect(result.fields).toEqual([]);
		expect(result.emptyFieldsNotice).toContain('Remote action #collect_crash_dumps cannot be run from n8n: its "API" checkbox is not ticked');
	});
});

const RUN_WORKFLOW = { resource: 'workflow', operation: 'run', workflowApiVersion: 'v2', workflowDevices: '', options: {} };

describe('workflow list (listSearch)', () => {
	it('lists every workflow with the API trigger (one call per dependency, merged), marks inactive ones, filters by text', async () => {
		const { node, ctx } = context({ ...RUN_WORKFLOW, workflow: { __rl: true, mode: 'list', value: '' } }, 'parameters.workflow');
		const all = await node.methods.listSearch.searchWorkflows.call(ctx);
		expect(all.results.map((entry) => entry.value)).toEqual([
			'#disk_cleanup_with_approval',
			'#legacy_inventory_sync',
			'#onboard_user_device',
			'#password_expiry_reminder',
			'#repair_teams',
		]);
		expect(all.results).toContainEqual({ name: 'Repair Microsoft Teams (#repair_teams)', value: '#repair_teams' });
		expect(all.results.find((entry) => entry.value === '#legacy_inventory_sync')?.name).toMatch(/— inactive, cannot be run$/);
		expect(server.requests.filter((r: any) => r.path.startsWith('/api/')).map((r: any) => [r.path, r.query.dependency, r.query.triggerMethod])).toEqual([
			['/api/v1/workflows', 'DEVICE', 'API'],
			['/api/v1/workflows', 'USER', 'API'],
			['/api/v1/workflows', 'USER_AND_DEVICE', 'API'],
			['/api/v1/workflows', 'NONE', 'API'],
		]);
		const filtered = await node.methods.listSearch.searchWorkflows.call(ctx, 'teams');
		expect(filtered.results.map((entry) => entry.value)).toEqual(['#repair_teams']);
	});
});

describe('workflow parameters (resource mapper)', () => {
	const load = async (workflow: IDataObject) => {
		const { node, ctx } = context({ ...RUN_WORKFLOW, workflow } as INodeParameters, 'parameters.workflowParameters');
		return await node.methods.resourceMapping.getWorkflowParameters.call(ctx);
	};

	it("offers the workflow's parameters from its details: a dropdown where only listed values are allowed", async () => {
		const { fields } = await load({ __rl: true, mode: 'list', value: '#onboard_user_device' });
		expect(fields).toEqual([
			expect.objectContaining({
				id: 'site',
				type: 'options',
				options: [
					{ name: 'Zürich', value: 'Zürich' },
					{ name: 'Lisboa', value: 'Lisboa' },
					{ name: 'New York', value: 'New York' },
				],
			}),
		]);
		const details = server.requests.find((r: any) => r.path === '/api/v1/workflows/details');
		expect(details.query).toEqual({ nqlId: '#onboard_user_device' });
		expect((await load({ __rl: true, mode: 'id', value: 'password_expiry_reminder' })).fields).toEqual([expect.objectContaining({ id: 'reason', type: 'string' })]);
	});

	it('warns about a workflow without the API trigger, an inactive one and an unknown NQL ID', async () => {
		const manual = await load({ __rl: true, mode: 'id', value: '#manual_disk_cleanup' });
		expect(manual).toEqual({ fields: [], emptyFieldsNotice: expect.stringContaining('Workflow #manual_disk_cleanup cannot be run from n8n: its "API" trigger is not ticked') });
		expect((await load({ __rl: true, mode: 'list', value: '#legacy_inventory_sync' })).emptyFieldsNotice).toContain('is inactive in Nexthink');
		expect((await load({ __rl: true, mode: 'id', value: '#nope' })).emptyFieldsNotice).toContain('Nexthink has no workflow with the NQL ID #nope');
	});

	it('has no fields before a workflow is chosen', async () => {
		expect(await load({ __rl: true, mode: 'list', value: '' })).toEqual({ fields: [], emptyFieldsNotice: 'Choose a workflow to see its parameters' });
		expect(server.requests).toEqual([]);
	});
});
