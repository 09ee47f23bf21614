/**
 * The credential's own test (the button in n8n's credential form): `authenticate` turns the marked
 * test request into the client-credentials exchange, which is then sent over real HTTP.
 */
import axios from 'axios';

import { NexthinkApi } from '../../../credentials/NexthinkApi.credentials';
import { nexthinkCredentials } from '../../helpers/harness';

const { startNexthinkServer } = require('../../server');

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

it('sends exactly the token exchange to the token URL, and it succeeds for valid credentials', async () => {
	server.clearRequests();
	const response = await sendTestRequest(nexthinkCredentials(server));
	expect(response.status).toBe(200);
	expect(typeof response.data.access_token).toBe('string');
	const [call] = server.requests;
	expect(call.path).toBe('/oauth2/default/v1/token');
	expect(call.headers['x-n8n-nexthink-credential-test']).toBeUndefined();
	expect(call.headers.authorization).toBe(`Basic ${Buffer.from(`${server.clientId}:${server.clientSecret}`).toString('base64')}`);
	expect(Object.fromEntries(new URLSearchParams(call.body))).toEqual({ grant_type: 'client_credentials', scope: 'service:integration' });
});

it('fails for a wrong secret with the token endpoint\'s invalid_client', async () => {
	const response = await sendTestRequest({ ...nexthinkCredentials(server), clientSecret: 'wrong' });
	expect(response.status).toBe(401);
	expect(response.data.error).toBe('invalid_client');
});

it('adds the bearer token to every other request', async () => {
	const credential = new NexthinkApi();
	const request = await credential.authenticate({ ...nexthinkCredentials(server), accessToken: 'tok-1' } as never, {
		url: '/api/v1/nql/status/x',
		headers: { Accept: 'application/json' },
	});
	expect(request.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer tok-1' });
});
