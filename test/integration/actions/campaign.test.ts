/**
 * Nexthink Actions, Campaign resource (Trigger), through n8n-core's real engine (both generations)
 * against the local server: wire format, grouping and duplicates, the 200 with per-user failures
 * marking exactly the users that failed, checks before any request, 400/403, the three "On Error"
 * settings and tool mode.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { WRITES_OFF_NOTE } from '../../../nodes/Nexthink/shared/toolMode';
import { nexthinkCredentials, type RunNodeOptions } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { paired, runActions } from './helpers';

const { startNexthinkServer } = require('../../server');

jest.setTimeout(30_000);

const TRIGGER = '/api/v1/euf/campaign/trigger';
const ALICE = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const BOB = 'S-1-5-21-1004336348-1177238915-682003330-1002';
const GHOST = 'S-1-5-21-1-2-3-9999';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer({
		clients: [
			{ clientId: 'nx-client', clientSecret: 'nx-secret-value', permissions: ['nql', 'enrichment', 'remoteActions', 'workflows', 'campaigns'] },
			{ clientId: 'no-campaigns', clientSecret: 'no-campaigns-secret', permissions: ['nql', 'remoteActions'] },
		],
	});
});

localServerHooks(() => server);

function triggerParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'campaign',
		operation: 'trigger',
		campaignId: '#it_satisfaction',
		userSids: '={{ $json.sid }}',
		campaignExpiresInMinutes: 1440,
		options: {},
		...extra,
	};
}

const trigger = (parameters: INodeParameters, items: IDataObject[], options?: Partial<RunNodeOptions>) => runActions(server, parameters, items, options);

const bodies = (): IDataObject[] => server.requests.filter((r: any) => r.method === 'POST' && r.path === TRIGGER).map((r: any) => JSON.parse(r.body));
const outcome = (item: INodeExecutionData) => item.json.nexthinkCampaign as IDataObject;

describe('Trigger: wire format, grouping, duplicates', () => {
	it('sends the documented TriggerRequest once for items with the same campaign and parameters', async () => {
		const result = await trigger(
			triggerParameters({
				campaignId: 'device_replacement_survey',
				campaignParameters: { parameter: [{ name: 'device_name', value: 'PC-1' }, { name: 'device_age_years', value: '={{ 5 }}' }] },
			}),
			[{ sid: ALICE }, { sid: BOB }, { sid: ALICE }],
		);
		expect(result.error).toBeUndefined();
		const requests = server.requests.filter((r: any) => r.path === TRIGGER);
		expect(requests).toHaveLength(1);
		expect(requests[0].headers['content-type']).toMatch(/^application\/json/);
		expect(JSON.parse(requests[0].body)).toEqual({
			campaignNqlId: '#device_replacement_survey',
			userSid: [ALICE, BOB],
			expiresInMinutes: 1440,
			parameters: { device_name: 'PC-1', device_age_years: '5' },
		});
		const [alice, bob, aliceAgain] = result.items.map(outcome);
		expect(alice).toMatchObject({ status: 'triggered', campaignId: '#device_replacement_survey', requestId: expect.stringMatching(UUID) });
		expect(bob.requestId).not.toBe(alice.requestId);
		expect(aliceAgain).toMatchObject({ status: 'triggered', requestId: alice.requestId, users: [{ userSid: ALICE, requestId: alice.requestId, sentWithItem: 0 }] });
		expect(server.actions.requests.get(alice.requestId).objectId).toBe('#device_replacement_survey');
	});

	it('sends no parameters key when there are none', async () => {
		await trigger(triggerParameters(), [{ sid: ALICE }]);
		expect(bodies()).toEqual([{ campaignNqlId: '#it_satisfaction', userSid: [ALICE], expiresInMinutes: 1440 }]);
	});
});

describe('Trigger: a 200 where some users failed marks exactly those users', () => {
	const ITEMS = [{ sid: ALICE }, { sid: GHOST }, { sid: [BOB, GHOST] }];

	it('Continue: triggered, failed and partial items, each user with its request ID or message', async () => {
		const result = await trigger(triggerParameters(), ITEMS, { onError: 'continueRegularOutput' });
		expect(bodies()).toEqual([{ campaignNqlId: '#it_satisfaction', userSid: [ALICE, GHOST, BOB], expiresInMinutes: 1440 }]);
		const [first, second, third] = result.items.map(outcome);
		expect(first.status).toBe('triggered');
		expect(second).toMatchObject({ status: 'failed', users: [{ userSid: GHOST, message: 'No user found with this SID' }] });
		expect(third).toMatchObject({
			status: 'partial',
			users: [{ userSid: BOB, requestId: expect.stringMatching(UUID) }, { userSid: GHOST, message: 'No user found with this SID', sentWithItem: 1 }],
		});
		expect((third.error as IDataObject).message).toContain('1 of 2 users did not get the campaign');
	});

	it('Continue (using error output): only the item whose users all failed goes to the error output, paired', async () => {
		const result = await trigger(triggerParameters(), ITEMS, { onError: 'continueErrorOutput' });
		const [main, errors] = result.outputs;
		expect(main.map((item) => [paired(item), outcome(item).status])).toEqual([
			[0, 'triggered'],
			[2, 'partial'],
		]);
		expect(errors.map(paired)).toEqual([1]);
		expect(JSON.stringify(errors[0].json)).toContain('No user found with this SID');
	});

	it('Stop Workflow: fails after the request, saying the others did get it', async () => {
		const result = await trigger(triggerParameters(), ITEMS);
		expect(bodies()).toHaveLength(1);
		expect(result.error?.message).toBe('Item 1: 1 of 1 users did not get the campaign; the first, S-1-5-21-1-2-3-9999: No user found with this SID');
		expect(result.error?.description).toContain('1 earlier request of this run did run');
	});
});

describe('Trigger: checks before any request', () => {
	it.each([
		['a UPN', { sid: 'alice@example.com' }, {}, 'A user SID is not a SID: "alice@example.com"'],
		['no user', { sid: '' }, {}, 'No target user'],
		['expiry 0', { sid: ALICE }, { campaignExpiresInMinutes: 0 }, 'must be a whole number from 1 to 525600 (one year), got number 0'],
		['expiry over a year', { sid: ALICE }, { campaignExpiresInMinutes: 525_601 }, 'got number 525601'],
		[
			'31 parameters',
			{ sid: ALICE },
			{ campaignParameters: { parameter: Array.from({ length: 31 }, (_, i) => ({ name: `p${i}`, value: 'x' })) } },
			'31 campaign parameters; the Campaigns API takes at most 30',
		],
		['a parameter twice', { sid: ALICE }, { campaignParameters: { parameter: [{ name: 'a', value: '1' }, { name: 'a', value: '2' }] } }, 'is given twice'],
		['an empty campaign', { sid: ALICE }, { campaignId: '={{ " " }}' }, 'The campaign is empty'],
	])('refuses %s, sending nothing', async (_label, item, extra, message) => {
		const result = await trigger(triggerParameters(extra as INodeParameters), [item]);
		expect(result.error?.message).toContain(message);
		expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toEqual([]);
	});
});

describe('Trigger: API errors', () => {
	it('403 (no body) names the "Campaigns API" permission and the campaign\'s API checkbox', async () => {
		const credentials = { nexthinkApi: { ...nexthinkCredentials(server), clientId: 'no-campaigns', clientSecret: 'no-campaigns-secret' } };
		const noPermission = await trigger(triggerParameters(), [{ sid: ALICE }], { credentials });
		expect(noPermission.error?.message).toContain('(HTTP 403)');
		expect(noPermission.error?.description).toContain('"Campaigns API" permission');
		const notEnabled = await trigger(triggerParameters({ campaignId: '#manual_announcement' }), [{ sid: ALICE }]);
		expect(notEnabled.error?.description).toContain('"API" checkbox');
	});

	it('400 passes the code and message', async () => {
		const result = await trigger(triggerParameters({ campaignId: '#device_replacement_survey' }), [{ sid: ALICE }]);
		expect(result.error?.message).toMatch(/\(HTTP 400\): .*\[code INVALID_PARAMETERS\]/);
	});

	it('is never sent twice, and a 2xx without the requests list fails saying it may have been sent', async () => {
		server.injectFault({ path: TRIGGER, status: 502 });
		const bad = await trigger(triggerParameters(), [{ sid: ALICE }]);
		expect(bad.error?.message).toContain('(HTTP 502)');
		expect(bodies()).toHaveLength(1);
		server.clearRequests();
		server.injectFault({ path: TRIGGER, status: 200, body: {} });
		const empty = await trigger(triggerParameters(), [{ sid: ALICE }]);
		expect(empty.error?.message).toContain('unexpected answer (HTTP 200, application/json)');
		expect(empty.error?.description).toContain('may have been sent');
		expect(bodies()).toHaveLength(1);
	});
});

describe('Trigger as an AI tool', () => {
	it('only checks unless "Allow Writes When Used as a Tool" is on', async () => {
		const asTool = { typeName: 'n8n-nodes-nexthink.nexthinkActionsTool' };
		const checked = await trigger(triggerParameters(), [{ sid: ALICE }], asTool);
		expect(outcome(checked.items[0])).toEqual({ status: 'validated', campaignId: '#it_satisfaction', expiresInMinutes: 1440, users: [{ userSid: ALICE }], duplicates: [], note: WRITES_OFF_NOTE });
		expect(bodies()).toEqual([]);
		const sent = await trigger(triggerParameters({ options: { allowWritesAsTool: true } }), [{ sid: ALICE }], asTool);
		expect(outcome(sent.items[0]).status).toBe('triggered');
		expect(bodies()).toHaveLength(1);
	});
});
