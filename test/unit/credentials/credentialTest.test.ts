/**
 * The credential's own test (the button in n8n's credential form): `authenticate` turns the marked
 * test request into the client-credentials exchange, or, right after n8n's preAuthentication obtained
 * a token with the same values, into a check that the API host answers; sent over real HTTP.
 */
import axios from 'axios';

import { NexthinkApi } from '../../../credentials/NexthinkApi.credentials';
import { isFreshTokenProof, TOKEN_PROOF_MAX_AGE_MS, tokenProof } from '../../../nodes/Nexthink/transport/tokenExchange';
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

describe('one token exchange per test: a token just obtained with these exact values proves them', () => {
	/** Runs the credential's preAuthentication over real HTTP, as n8n does when the stored token is empty. */
	async function preAuthenticate(credentials: Record<string, unknown>) {
		const credential = new NexthinkApi();
		const helpers = {
			httpRequest: async (options: { url: string; method: string; headers: Record<string, string>; body: string }) =>
				(await axios.request({ url: options.url, method: options.method, headers: options.headers, data: options.body, responseType: 'text' })).data,
		};
		return await credential.preAuthentication.call({ helpers } as never, credentials as never);
	}

	it('a token endpoint whose error echoes the request (Basic header, form) fails without the secret or the Basic credential', async () => {
		server.injectFault({ method: 'POST', path: '/oauth2/default/v1/token', status: 401, echoRequest: 'json' });
		const credentials = nexthinkCredentials(server);
		const failure = await preAuthenticate(credentials).then(
			() => undefined,
			(error: Error) => error,
		);
		expect(failure?.message).toMatch(/^Could not get a Nexthink API token: Nexthink rejected the client ID or client secret \(HTTP 401, POST /);
		expect(failure?.message).toContain('authorization: Basic [redacted]');
		const basic = Buffer.from(`${server.clientId}:${server.clientSecret}`).toString('base64');
		expect(server.requests.some((r: { headers: Record<string, string> }) => r.headers.authorization === `Basic ${basic}`)).toBe(true);
		expect(failure?.message).not.toContain(basic);
		expect(failure?.message).not.toContain(server.clientSecret);
	});

	it('after preAuthentication the test request only checks the API host, carrying nothing secret', async () => {
		const credentials = nexthinkCredentials(server);
		const output = await preAuthenticate(credentials);
		expect(typeof output.accessTokenProof).toBe('string');
		server.clearRequests();
		const response = await sendTestRequest({ ...credentials, ...output });
		expect(response.status).toBeGreaterThanOrEqual(200);
		expect(server.requests).toHaveLength(1);
		const [call] = server.requests;
		expect(call.method).toBe('GET');
		expect(call.path).toBe('/');
		expect(call.headers.authorization).toBeUndefined();
		expect(call.headers['x-n8n-nexthink-credential-test']).toBeUndefined();
	});

	it('a token obtained with another secret does not prove this one: the test exchanges a token itself', async () => {
		const credentials = nexthinkCredentials(server);
		const output = await preAuthenticate(credentials);
		server.clearRequests();
		const response = await sendTestRequest({ ...credentials, ...output, clientSecret: 'changed-in-the-form' });
		expect(response.status).toBe(401);
		expect(server.requests.map((call: { path: string }) => call.path)).toEqual(['/oauth2/default/v1/token']);
	});

	it('a stored token without proof (or with a forged one) is not taken as proof', async () => {
		for (const accessTokenProof of [undefined, '', `${Date.now()}.${'0'.repeat(64)}`, 'not a proof']) {
			server.clearRequests();
			const response = await sendTestRequest({ ...nexthinkCredentials(server), accessToken: 'stored-token', accessTokenProof });
			expect(response.status).toBe(200);
			expect(server.requests.map((call: { path: string }) => call.path)).toEqual(['/oauth2/default/v1/token']);
		}
	});

	it('a proof counts for TOKEN_PROOF_MAX_AGE_MS after the token was obtained, and only for its own values and token', () => {
		const values = { tokenUrl: 'https://acme-login.eu.nexthink.cloud/oauth2/default/v1/token', clientId: 'id', clientSecret: 'secret' };
		const issuedAt = 1_700_000_000_000;
		const proof = tokenProof(values, 'tok', issuedAt);
		expect(isFreshTokenProof(values, 'tok', proof, issuedAt)).toBe(true);
		expect(isFreshTokenProof(values, 'tok', proof, issuedAt + TOKEN_PROOF_MAX_AGE_MS)).toBe(true);
		expect(isFreshTokenProof(values, 'tok', proof, issuedAt + TOKEN_PROOF_MAX_AGE_MS + 1)).toBe(false);
		// a clock that went back is no proof either
		expect(isFreshTokenProof(values, 'tok', proof, issuedAt - 1)).toBe(false);
		expect(isFreshTokenProof(values, 'other-token', proof, issuedAt)).toBe(false);
		expect(isFreshTokenProof({ ...values, clientSecret: 'secret2' }, 'tok', proof, issuedAt)).toBe(false);
		expect(isFreshTokenProof({ ...values, clientId: 'id2' }, 'tok', proof, issuedAt)).toBe(false);
		expect(isFreshTokenProof({ ...values, tokenUrl: 'https://evil.example/token' }, 'tok', proof, issuedAt)).toBe(false);
		// the time inside the proof is covered by the digest: moving it forward does not renew the proof
		const moved = proof.replace(String(issuedAt), String(issuedAt + 120_000));
		expect(isFreshTokenProof(values, 'tok', moved, issuedAt + 120_000)).toBe(false);
		// the proof never holds the secret or the token
		expect(proof).not.toContain('secret');
		expect(proof).not.toContain('tok');
	});
});
