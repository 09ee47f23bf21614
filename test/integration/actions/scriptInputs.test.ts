/**
 * Nexthink Actions, Run Remote Action: each item's script inputs are checked against the remote
 * action's details (read once per remote action) before any run request, through n8n-core's real
 * engine (both generations) against the local server: unknown inputs, missing inputs, values a
 * fixed-list input does not allow, free text where it is allowed, and the details call failing.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RunNodeOptions } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { locator, mapperValue, runActions } from './helpers';

const { startNexthinkServer } = require('../../server');

const EXECUTE = '/api/v1/act/execute';
const DETAILS = '/api/v1/act/remote-action/details';
const C1 = 'e0000000-0000-4000-8000-000000000001';
const C2 = 'e0000000-0000-4000-8000-000000000002';
const C3 = 'e0000000-0000-4000-8000-000000000003';

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
});

localServerHooks(() => server);


function parameters(scriptInputs: IDataObject, remoteAction = '#restart_service'): INodeParameters {
	return {
		resource: 'remoteAction',
		operation: 'run',
		remoteAction: locator(remoteAction),
		collectorUids: '={{ $json.collector }}',
		scriptInputs: mapperValue(scriptInputs),
		options: {},
	};
}

const run = (parameters: INodeParameters, items: IDataObject[], options?: Partial<RunNodeOptions>) => runActions(server, parameters, items, options);

const executeBodies = (): IDataObject[] => server.requests.filter((r: any) => r.method === 'POST' && r.path === EXECUTE).map((r: any) => JSON.parse(r.body));
const detailsCalls = () => server.requests.filter((r: any) => r.method === 'GET' && r.path === DETAILS);
const outcome = (item: INodeExecutionData) => item.json.nexthinkRemoteAction as IDataObject;

describe('script inputs checked against the remote action\'s details before any run request', () => {
	it.each([
		[
			'a value the fixed-list input does not allow',
			{ ServiceName: 'Spooler', StartType: 'Sometimes' },
			'Script input "StartType" (Start type) of #restart_service must be one of "Automatic", "Manual", "Disabled" (the remote action allows no other value), got "Sometimes"',
		],
		[
			'an input the remote action does not have',
			{ ServiceName: 'Spooler', StartType: 'Manual', Mode: 'fast' },
			'Script input "Mode" is not an input of #restart_service; its inputs are ServiceName, StartType. Reload the Script Inputs (the remote action may have changed in Nexthink)',
		],
		['a missing input', { ServiceName: 'Spooler' }, 'Script input "StartType" (Start type) of #restart_service has no value; Nexthink needs a value for every input of the remote action'],
		[
			'a value of the wrong case',
			{ ServiceName: 'Spooler', StartType: 'manual' },
			'Script input "StartType" (Start type) of #restart_service must be one of "Automatic", "Manual", "Disabled" (the remote action allows no other value), got "manual"',
		],
	])('Stop Workflow: %s fails the node naming the input; only the details were read', async (_label, scriptInputs, message) => {
		const result = await run(parameters(scriptInputs), [{ collector: C1 }]);
		expect(result.error?.message).toBe(`Item 0 cannot be sent: ${message}`);
		expect(result.error?.description).toContain('Nothing was sent to Nexthink');
		expect(executeBodies()).toEqual([]);
		expect(detailsCalls()).toHaveLength(1);
		expect(detailsCalls()[0].query).toEqual({ 'nql-id': '#restart_service' });
	});

	it('accepts free text where the input allows it (ServiceName suggests values, allows others)', async () => {
		const result = await run(parameters({ ServiceName: 'MyAgent', StartType: 'Automatic' }), [{ collector: C1 }]);
		expect(result.error).toBeUndefined();
		expect(executeBodies()).toEqual([{ remoteActionId: '#restart_service', devices: [C1], params: { ServiceName: 'MyAgent', StartType: 'Automatic' }, expiresInMinutes: 60 }]);
	});

	it('Continue: the bad item fails with the field, the others are sent; one details call per remote action', async () => {
		const result = await run(parameters({ ServiceName: 'Spooler', StartType: '={{ $json.start }}' }), [
			{ collector: C1, start: 'Manual' },
			{ collector: C2, start: 'Never' },
			{ collector: C3, start: 'Manual' },
		], { onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(detailsCalls()).toHaveLength(1);
		expect(executeBodies().map((body) => body.devices)).toEqual([[C1, C3]]);
		expect(result.items.map((item) => outcome(item).status)).toEqual(['triggered', 'failed', 'triggered']);
		expect(outcome(result.items[1]).error).toEqual({
			message: expect.stringContaining('Script input "StartType" (Start type) of #restart_service must be one of'),
			field: 'Script Inputs',
		});
	});

	it('a remote action whose details cannot be read (404): Continue fails its items, other remote actions run', async () => {
		const result = await run(parameters({}, '={{ $json.ra }}'), [
			{ collector: C1, ra: '#no_such_action' },
			{ collector: C2, ra: '#clear_teams_cache' },
		], { onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(executeBodies()).toEqual([{ remoteActionId: '#clear_teams_cache', devices: [C2], params: {}, expiresInMinutes: 60 }]);
		expect(outcome(result.items[0])).toMatchObject({
			status: 'failed',
			error: { field: 'Remote Action', message: expect.stringContaining('REMOTE_ACTION_NOT_FOUND'), description: expect.stringContaining('Nothing was sent') },
		});
		expect(outcome(result.items[1]).status).toBe('triggered');
	});

	it('a 403 on the details under Stop Workflow: the permission hint, nothing sent', async () => {
		server.injectFault({ path: DETAILS, status: 403, body: { code: 'FORBIDDEN', message: 'Not authorized' } });
		const result = await run(parameters({ ServiceName: 'Spooler', StartType: 'Manual' }), [{ collector: C1 }]);
		expect(result.error?.message).toContain('(HTTP 403)');
		expect(result.error?.description).toContain('Remote Actions API');
		expect(result.error?.description).toContain('Nothing was sent');
		expect(executeBodies()).toEqual([]);
	});
});
