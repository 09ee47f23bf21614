/**
 * The local Nexthink server: the Spark Handoff API: 204 (or 200 behind a switch), the required
 * User-Principal-Name header, the Timezone check, the body's parts and metadata, 404 for a user Spark
 * does not know, and the permission check.
 */
export {};

const { startNexthinkServer } = require('..');
const { fetchToken, apiRequest } = require('../client');

const HANDOFF = '/api/v1/spark/handoff';
const ALICE = 'alice.martin@example.com';

let server: any;
let token: string;

beforeAll(async () => {
	server = await startNexthinkServer({
		clients: [
			{ clientId: 'all', clientSecret: 'secret-all', permissions: ['spark'] },
			{ clientId: 'no-spark', clientSecret: 'secret-no-spark', permissions: ['nql', 'dataManagement'] },
		],
	});
	token = await fetchToken(server);
});

afterAll(async () => {
	await server.close();
});

beforeEach(() => {
	server.spark.handoffs.length = 0;
	server.spark.users.clear();
	Object.assign(server.options, { sparkEnabled: true, sparkSuccessStatus: 204, sparkBadRequestBody: 'message' });
});

const text = (value: string) => ({ type: 'TEXT', text: value });
const handOff = (json: unknown, headers: Record<string, string> = { 'user-principal-name': ALICE }, bearer = token) =>
	apiRequest(server, bearer, 'POST', HANDOFF, { json, headers });

describe('POST /api/v1/spark/handoff', () => {
	it('answers 204 without a body and records the handoff with its parts, metadata and time zone', async () => {
		const body = {
			message: { parts: [text('My VPN keeps disconnecting'), { type: 'FILE', mimeType: 'text/plain', fileContent: Buffer.from('log line').toString('base64') }] },
			metadata: { source: 'n8n', ticket: 'INC0012345' },
		};
		const response = await handOff(body, { 'user-principal-name': 'Alice.Martin@example.com', timezone: 'Europe/Zurich' });
		expect(response.status).toBe(204);
		expect(await response.text()).toBe('');
		expect(server.spark.handoffs).toEqual([
			expect.objectContaining({ upn: 'Alice.Martin@example.com', timezone: 'Europe/Zurich', parts: body.message.parts, metadata: body.metadata, clientId: 'all' }),
		]);
	});

	it('answers 200 behind sparkSuccessStatus, and knows the UPNs added to spark.users', async () => {
		server.options.sparkSuccessStatus = 200;
		server.spark.users.add('contractor@partner.example');
		const response = await handOff({ message: { parts: [text('hi')] } }, { 'user-principal-name': 'contractor@partner.example' });
		expect(response.status).toBe(200);
	});

	it('answers 404 with a message for a user Spark does not know', async () => {
		const response = await handOff({ message: { parts: [text('hi')] } }, { 'user-principal-name': 'nobody@example.com' });
		expect(response.status).toBe(404);
		expect(await response.json()).toEqual({ message: expect.stringContaining('nobody@example.com') });
		expect(server.spark.handoffs).toEqual([]);
	});

	it.each([
		['no User-Principal-Name', { message: { parts: [text('hi')] } }, {}],
		['a time zone that is not an IANA name', { message: { parts: [text('hi')] } }, { 'user-principal-name': ALICE, timezone: 'Mars/Olympus' }],
		['no message', {}, undefined],
		['no parts', { message: { parts: [] } }, undefined],
		['an empty TEXT part', { message: { parts: [text('')] } }, undefined],
		['a FILE part without a MIME type', { message: { parts: [{ type: 'FILE', mimeType: '', fileContent: '' }] } }, undefined],
		['a FILE part whose content is not base64', { message: { parts: [{ type: 'FILE', mimeType: 'text/plain', fileContent: 'not base64!' }] } }, undefined],
		['a part of another type', { message: { parts: [{ type: 'URL', url: 'https://example.com' }] } }, undefined],
		['metadata that is not text', { message: { parts: [text('hi')] }, metadata: { n: 1 } }, undefined],
	])('answers 400 for %s', async (_what, json, headers) => {
		const response = await handOff(json, headers);
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ message: expect.any(String) });
		expect(server.spark.handoffs).toEqual([]);
	});

	it('answers a 400 without a body behind sparkBadRequestBody', async () => {
		server.options.sparkBadRequestBody = 'empty';
		const response = await handOff({ message: { parts: [] } });
		expect(response.status).toBe(400);
		expect(await response.text()).toBe('');
	});

	it('accepts metadata null', async () => {
		expect((await handOff({ message: { parts: [text('hi')] }, metadata: null })).status).toBe(204);
	});

	it('answers 401 without a body, and 403 with a message without the Spark API permission or with Spark off', async () => {
		const unauthorized = await handOff({ message: { parts: [text('hi')] } }, { 'user-principal-name': ALICE }, 'nope');
		expect(unauthorized.status).toBe(401);
		expect(await unauthorized.text()).toBe('');
		const other = await fetchToken(server, { clientId: 'no-spark', clientSecret: 'secret-no-spark' });
		const forbidden = await handOff({ message: { parts: [text('hi')] } }, { 'user-principal-name': ALICE }, other);
		expect(forbidden.status).toBe(403);
		expect(await forbidden.json()).toEqual({ message: expect.stringContaining('Spark API') });
		server.options.sparkEnabled = false;
		const off = await handOff({ message: { parts: [text('hi')] } });
		expect(off.status).toBe(403);
		expect(server.spark.handoffs).toEqual([]);
	});
});
