/**
 * The local Nexthink server: the Campaigns API trigger, its validation, the 200 answer with one entry
 * per distinct user (partial failure included), the 401 body and the body-less 403.
 */
export {};

const { startNexthinkServer } = require('..');
const { fetchToken, apiRequest } = require('../client');

const TRIGGER = '/api/v1/euf/campaign/trigger';
const ALICE = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const BOB = 'S-1-5-21-1004336348-1177238915-682003330-1002';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: any;
let token: string;

beforeAll(async () => {
	server = await startNexthinkServer({
		clients: [
			{ clientId: 'all', clientSecret: 'secret-all', permissions: ['nql', 'remoteActions', 'workflows', 'campaigns'] },
			{ clientId: 'no-campaigns', clientSecret: 'secret-no-campaigns', permissions: ['nql', 'remoteActions', 'workflows'] },
		],
	});
	token = await fetchToken(server);
});

afterAll(async () => {
	await server.close();
});

beforeEach(() => {
	server.clearRequests();
});

const trigger = (json: unknown) => apiRequest(server, token, 'POST', TRIGGER, { json });
const survey = (extra: Record<string, unknown> = {}) => ({
	campaignNqlId: '#it_satisfaction',
	userSid: [ALICE],
	expiresInMinutes: 1440,
	...extra,
});

describe('POST /api/v1/euf/campaign/trigger', () => {
	it('answers a request id per user and records one response per user', async () => {
		const response = await trigger(survey({ userSid: [ALICE, BOB] }));
		expect(response.status).toBe(200);
		const body = await response.json();
		expect(body).toEqual({
			requests: [
				{ requestId: expect.stringMatching(UUID), userSid: ALICE },
				{ requestId: expect.stringMatching(UUID), userSid: BOB },
			],
		});
		expect(body.requests[0].requestId).not.toBe(body.requests[1].requestId);
		const request = server.actions.requests.get(body.requests[1].requestId);
		expect(request.kind).toBe('campaign');
		expect(request.executions.map((execution: any) => execution.target.object.name)).toEqual(['Bob Keller']);
		expect(request.executions[0].expiresAt - request.createdAt).toBe(1440 * 60000);
	});

	it('answers 200 with a message for exactly the users that failed, once per distinct SID, in the order sent', async () => {
		const unknown = 'S-1-5-21-1-2-3-4242';
		const response = await trigger(survey({ userSid: [unknown, ALICE, 'alice@example.com', ALICE, BOB, unknown] }));
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({
			requests: [
				{ userSid: unknown, message: 'No user found with this SID' },
				{ userSid: ALICE, requestId: expect.stringMatching(UUID) },
				{ userSid: 'alice@example.com', message: 'Invalid user SID' },
				{ userSid: BOB, requestId: expect.stringMatching(UUID) },
			],
		});
	});

	it('still answers 200 when every user failed', async () => {
		const response = await trigger(survey({ userSid: ['S-1-5-21-9-9-9-9'] }));
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ requests: [{ userSid: 'S-1-5-21-9-9-9-9', message: expect.any(String) }] });
	});

	it('needs exactly the campaign’s parameters', async () => {
		const ok = await trigger(survey({ campaignNqlId: '#device_replacement_survey', parameters: { device_age_years: '6', device_name: 'LAPTOP-ZRH-001' } }));
		expect(ok.status).toBe(200);
		for (const parameters of [undefined, { device_name: 'LAPTOP-ZRH-001' }, { device_name: 'x', device_age_years: '6', extra: 'y' }]) {
			const response = await trigger(survey({ campaignNqlId: '#device_replacement_survey', parameters }));
			expect(response.status).toBe(400);
			expect(await response.json()).toEqual({ code: 'INVALID_PARAMETERS', message: expect.stringContaining('device_age_years') });
		}
	});

	it('accepts 10,000 users and the expiry limits 1 and 525600', async () => {
		const sids = Array.from({ length: 10000 }, (_, i) => `S-1-5-21-7-${i}`);
		const response = await trigger(survey({ userSid: sids, expiresInMinutes: 1 }));
		expect(response.status).toBe(200);
		expect((await response.json()).requests).toHaveLength(10000);
		expect((await trigger(survey({ expiresInMinutes: 525600 }))).status).toBe(200);
	});

	it.each([
		['malformed JSON', '{', 'INVALID_JSON'],
		['a body that is not an object', '[]', 'INVALID_REQUEST'],
		['a missing campaignNqlId', JSON.stringify({ userSid: [ALICE], expiresInMinutes: 60 }), 'INVALID_CAMPAIGN_ID'],
		['an empty campaignNqlId', JSON.stringify(survey({ campaignNqlId: '' })), 'INVALID_CAMPAIGN_ID'],
		['missing userSid', JSON.stringify({ campaignNqlId: '#it_satisfaction', expiresInMinutes: 60 }), 'INVALID_USERS'],
		['an empty userSid', JSON.stringify(survey({ userSid: [] })), 'INVALID_USERS'],
		['userSid that is not an array', JSON.stringify(survey({ userSid: ALICE })), 'INVALID_USERS'],
		['a SID that is not a string', JSON.stringify(survey({ userSid: [1001] })), 'INVALID_USERS'],
		['10,001 users', JSON.stringify(survey({ userSid: Array.from({ length: 10001 }, (_, i) => `S-1-5-${i}`) })), 'INVALID_USERS'],
		['a missing expiry (it is required here)', JSON.stringify(survey({ expiresInMinutes: undefined })), 'INVALID_EXPIRATION'],
		['an expiry of 0', JSON.stringify(survey({ expiresInMinutes: 0 })), 'INVALID_EXPIRATION'],
		['an expiry over a year', JSON.stringify(survey({ expiresInMinutes: 525601 })), 'INVALID_EXPIRATION'],
		['an expiry that is not an integer', JSON.stringify(survey({ expiresInMinutes: 1.5 })), 'INVALID_EXPIRATION'],
		['parameters that is not an object', JSON.stringify(survey({ parameters: ['a'] })), 'INVALID_PARAMETERS'],
		['a parameter that is not a string', JSON.stringify(survey({ parameters: { a: 1 } })), 'INVALID_PARAMETERS'],
		['31 parameters', JSON.stringify(survey({ parameters: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`p${i}`, 'v'])) })), 'INVALID_PARAMETERS'],
		['parameters the campaign does not have', JSON.stringify(survey({ parameters: { a: 'b' } })), 'INVALID_PARAMETERS'],
		['an unknown campaign', JSON.stringify(survey({ campaignNqlId: '#no_such_campaign' })), 'CAMPAIGN_NOT_FOUND'],
	])('answers 400 {code, message} for %s', async (_label, body, code) => {
		const response = await apiRequest(server, token, 'POST', TRIGGER, { body, headers: { 'content-type': 'application/json' } });
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ code, message: expect.any(String) });
	});
});

describe('authorization', () => {
	it('answers 403 with no body to a client without the Campaigns API permission', async () => {
		const other = await fetchToken(server, { clientId: 'no-campaigns', clientSecret: 'secret-no-campaigns' });
		const response = await apiRequest(server, other, 'POST', TRIGGER, { json: survey() });
		expect(response.status).toBe(403);
		expect(await response.text()).toBe('');
	});

	it('answers 403 with no body for a campaign that is not API-enabled', async () => {
		const response = await trigger(survey({ campaignNqlId: '#manual_announcement' }));
		expect(response.status).toBe(403);
		expect(await response.text()).toBe('');
	});

	it('answers 401 with a TriggerErrorResponse body without a valid token', async () => {
		const response = await apiRequest(server, 'not-a-token', 'POST', TRIGGER, { json: survey() });
		expect(response.status).toBe(401);
		expect(await response.json()).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String) });
	});
});
