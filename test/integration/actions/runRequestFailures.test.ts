/**
 * What the four run requests (Run Remote Action, Run Workflow, Resume, Trigger Campaign) do when
 * Nexthink refuses them, through n8n-core's real engine (both generations) against the local server:
 * a 429 or 503 is never sent again and says that Nexthink refused it, that it most likely did not
 * run and where to check; a 401 that stays is sent at most twice with one token renewal; an error
 * page that echoes the request leaves neither token nor secret in the error or the run data.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { REFUSED_RUN_REQUEST } from '../../../nodes/Nexthink/actions/shared/apiCalls';
import { localServerHooks } from '../../helpers/localServer';
import { expectNoSecret, secretsSeenBy, serialised } from '../../helpers/secrets';
import { locator, mapperValue, runActions } from './helpers';

const { startNexthinkServer } = require('../../server');

jest.setTimeout(30_000);

const C1 = 'e0000000-0000-4000-8000-000000000001';
const ALICE = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const APPROVAL_UUID = 'f2000000-0000-4000-8000-000000000004';
const CLIENT_SECRET = 'nx-secret-value-that-must-stay-hidden';
const TOKEN_PATH = '/oauth2/default/v1/token';

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer({
		clients: [{ clientId: 'nx-client', clientSecret: CLIENT_SECRET, permissions: ['nql', 'enrichment', 'remoteActions', 'workflows', 'campaigns'] }],
	});
});

localServerHooks(() => server);

interface RunRequestCase {
	name: string;
	path: string | RegExp;
	parameters: INodeParameters;
	items: IDataObject[];
	/** Words of the note that say where to check. */
	check: RegExp;
}

const CASES: RunRequestCase[] = [
	{
		name: 'Run Remote Action',
		path: '/api/v1/act/execute',
		parameters: {
			resource: 'remoteAction',
			operation: 'run',
			remoteAction: locator('#restart_service'),
			collectorUids: '={{ $json.collector }}',
			scriptInputs: mapperValue({ ServiceName: 'Spooler', StartType: 'Manual' }),
			options: {},
		},
		items: [{ collector: C1 }],
		check: /remote_action\.executions/,
	},
	{
		name: 'Run Workflow',
		path: '/api/v2/workflows/execute',
		parameters: {
			resource: 'workflow',
			operation: 'run',
			workflow: locator('#repair_teams'),
			workflowApiVersion: 'v2',
			workflowDevices: '={{ $json.device }}',
			workflowDeviceIdType: 'collectorUid',
			workflowUsers: '',
			workflowUserIdType: 'sid',
			options: {},
		},
		items: [{ device: C1 }],
		check: /workflow\.executions/,
	},
	{
		name: 'Resume',
		path: `/api/v1/workflows/workflows/${APPROVAL_UUID}/execution/${C1}/trigger`,
		parameters: {
			resource: 'workflow',
			operation: 'resume',
			workflowUuid: APPROVAL_UUID,
			executionUuid: C1,
			resumeParameters: { parameter: [{ name: 'approved', value: 'yes' }] },
			options: {},
		},
		items: [{}],
		check: /still waits for the event, it was not resumed/,
	},
	{
		name: 'Trigger Campaign',
		path: '/api/v1/euf/campaign/trigger',
		parameters: {
			resource: 'campaign',
			operation: 'trigger',
			campaignId: '#it_satisfaction',
			userSids: '={{ $json.sid }}',
			campaignExpiresInMinutes: 1440,
			options: {},
		},
		items: [{ sid: ALICE }],
		check: /campaign\.responses/,
	},
];

const runRequests = (path: string | RegExp) => server.requests.filter((r: any) => r.method === 'POST' && (typeof path === 'string' ? r.path === path : path.test(r.path)));
const tokenCalls = () => server.requests.filter((r: any) => r.path === TOKEN_PATH);

describe.each(CASES)('$name', ({ path, parameters, items, check }) => {
	it.each([
		[429, { 'retry-after': '1' }],
		[503, {}],
	])('HTTP %s: sent once; the error says Nexthink refused it, it most likely did not run, and where to check', async (status, headers) => {
		server.injectFault({ method: 'POST', path, status, headers, body: { code: 'REFUSED', message: 'not now' }, times: 5 });
		const result = await runActions(server, parameters, items);
		expect(runRequests(path)).toHaveLength(1);
		expect(result.error?.message).toContain(`(HTTP ${status}): not now [code REFUSED]`);
		expect(result.error?.description).toContain(REFUSED_RUN_REQUEST);
		expect(result.error?.description).toMatch(check);
		expect(result.error?.description).not.toMatch(/may have been/);
	});

	it('a 401 that stays: the run request goes out twice, with one token renewal in between, and the error says so', async () => {
		server.injectFault({ method: 'POST', path, status: 401, body: { message: 'token not accepted' }, times: Infinity });
		const result = await runActions(server, parameters, items);
		expect(runRequests(path)).toHaveLength(2);
		// the first exchange (no token stored yet) and one renewal after the first 401
		expect(tokenCalls()).toHaveLength(2);
		expect(result.error?.message).toContain('(HTTP 401)');
		expect(result.error?.description).toMatch(/did not accept the credential even after a fresh token/);
	});

	it.each(['json', 'html'] as const)('an error page that echoes the request (%s): no token or secret in the error or the run data', async (echoRequest) => {
		server.injectFault({ method: 'POST', path, status: 502, echoRequest });
		const result = await runActions(server, parameters, items, { onError: 'continueRegularOutput' });
		expect(runRequests(path)).toHaveLength(1);
		const secrets = secretsSeenBy(server, [CLIENT_SECRET]);
		expect(secrets.length).toBeGreaterThan(1);
		expectNoSecret(serialised(result.run), secrets);
		if (echoRequest === 'json') expect(serialised(result.items)).toContain('authorization: Bearer [redacted]');
	});
});
