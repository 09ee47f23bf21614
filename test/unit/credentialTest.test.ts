/**
 * The credential's own test request (the button in n8n's credential form): `authenticate` turns the
 * marked test request into a plain GET of the API host, sent here over real HTTP. The whole test as
 * n8n runs it, token exchange included, is in test/integration/credentialTest.test.ts.
 */
import axios from 'axios';

import { NexthinkApi } from '../../credentials/NexthinkApi.credentials';
import { nexthinkCredentials } from '../helpers/harness';

const { startNexthinkServer } = require('../server');

let server: any;
beforeAll(async () => {
	server = await startNexthinkServer();
});
afterAll(async () => {
	await server.close();
});

async function sendTestRequest(credentials: Record<string, unknown>) {
	const credential = new NexthinkApi();
	const request = await credential.authenticate(credentials as never, { ...credential.test.request } as never);
	return await axios.request({
		method: request.method,
		url: request.url,
		headers: request.headers as Record<string, string>,
		data: request.body,
		validateStatus: () => true,
	});
}

it('turns the test request into a plain GET of the API base URL with nothing secret; any answer passes', async () => {
	server.clearRequests();
	const response = await sendTestRequest({ ...nexthinkCredentials(server), accessToken: 'tok-1' });
	const [call] = server.requests;
	expect(server.requests).toHaveLength(1);
	expect(`${call.method} ${call.path}`).toBe('GET /');
	expect(call.headers.authorization).toBeUndefined();
	expect(call.headers['x-n8n-nexthink-credential-test']).toBeUndefined();
	expect(response.status).toBeGreaterThanOrEqual(200);
	// the token exchange that proves the client ID and secret is n8n's preAuthentication call (test/integration/credentialTest.test.ts)
	const credential = new NexthinkApi();
	const request = await credential.authenticate({ ...nexthinkCredentials(server), accessToken: 'tok-1' } as never, { ...credential.test.request } as never);
	expect(request).toMatchObject({ ignoreHttpStatusErrors: true, disableFollowRedirect: true, timeout: 30_000 });
});

it('adds the bearer token to every other request', async () => {
	const credential = new NexthinkApi();
	const request = await credential.authenticate({ ...nexthinkCredentials(server), accessToken: 'tok-1' } as never, {
		url: '/api/v1/nql/status/x',
		headers: { Accept: 'application/json' },
	});
	expect(request.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer tok-1' });
});
