/**
 * The local Nexthink server: token endpoints, bearer checks, permissions, request recording and
 * fault injection, exercised over real HTTP.
 */
export {};

const { startNexthinkServer } = require('..');
const { basicAuth, fetchToken, apiRequest } = require('../client');

const FORM = 'application/x-www-form-urlencoded';
const GOOD_FORM = 'grant_type=client_credentials&scope=service%3Aintegration';

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer({
		clients: [
			{ clientId: 'both', clientSecret: 'secret-both', permissions: ['nql', 'enrichment'] },
			{ clientId: 'nql-only', clientSecret: 'secret-nql', permissions: ['nql'] },
			{ clientId: 'enrich-only', clientSecret: 'secret-enrich', permissions: ['enrichment'] },
		],
		tokenLifetimeSeconds: 600,
	});
});

afterAll(async () => {
	await server.close();
});

beforeEach(() => {
	server.clearRequests();
	server.clearFaults();
});

function tokenRequest(headers: Record<string, string>, body = GOOD_FORM, query = '') {
	return fetch(`${server.tokenUrl}${query}`, { method: 'POST', headers, body });
}

function decodeJwtPayload(token: string) {
	const parts = token.split('.');
	expect(parts).toHaveLength(3);
	return JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
}

describe('OAuth token endpoint', () => {
	it('issues a distinct JWT-shaped bearer token with an exp claim on every call', async () => {
		const headers = { authorization: basicAuth('both', 'secret-both'), 'content-type': FORM };
		const first = await tokenRequest(headers);
		const second = await tokenRequest(headers);
		expect(first.status).toBe(200);
		expect(first.headers.get('cache-control')).toBe('no-store');
		const a = (await first.json()) as any;
		const b = (await second.json()) as any;
		expect(a).toEqual({ token_type: 'Bearer', expires_in: 600, access_token: expect.any(String), scope: 'service:integration' });
		expect(a.access_token).not.toBe(b.access_token);
		const claims = decodeJwtPayload(a.access_token);
		expect(claims.exp - claims.iat).toBe(600);
		expect(claims.cid).toBe('both');
	});

	it.each([
		['no Authorization header', {}],
		['a wrong secret', { authorization: basicAuth('both', 'wrong') }],
		['an unknown client', { authorization: basicAuth('nobody', 'secret-both') }],
		['a Bearer instead of Basic credentials', { authorization: 'Bearer abc' }],
	])('answers 401 invalid_client for %s', async (_label, auth) => {
		const response = await tokenRequest({ ...auth, 'content-type': FORM });
		expect(response.status).toBe(401);
		expect(await response.json()).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
	});

	it.each([
		['a wrong grant type', 'grant_type=password&scope=service%3Aintegration', 'unsupported_grant_type'],
		['a missing grant type', 'scope=service%3Aintegration', 'invalid_request'],
		['a wrong scope', 'grant_type=client_credentials&scope=openid', 'invalid_scope'],
		['a missing scope', 'grant_type=client_credentials', 'invalid_scope'],
	])('answers 400 for %s', async (_label, body, error) => {
		const response = await tokenRequest({ authorization: basicAuth('both', 'secret-both'), 'content-type': FORM }, body);
		expect(response.status).toBe(400);
		expect(((await response.json()) as any).error).toBe(error);
	});

	it('requires the form content type', async () => {
		const response = await tokenRequest({ authorization: basicAuth('both', 'secret-both'), 'content-type': 'application/json' });
		expect(response.status).toBe(400);
		expect(((await response.json()) as any).error).toBe('invalid_request');
	});

	it('accepts grant_type and scope in the query string when the body is empty', async () => {
		const response = await tokenRequest(
			{ authorization: basicAuth('both', 'secret-both'), 'content-type': FORM },
			'',
			'?grant_type=client_credentials&scope=service%3Aintegration',
		);
		expect(response.status).toBe(200);
	});

	it('serves the legacy /api/v1/token with Basic credentials only', async () => {
		const ok = await fetch(`${server.baseUrl}/api/v1/token`, { method: 'POST', headers: { authorization: basicAuth('both', 'secret-both') } });
		expect(ok.status).toBe(200);
		const body = (await ok.json()) as any;
		expect(body.token_type).toBe('Bearer');
		const call = await apiRequest(server, body.access_token, 'GET', '/api/v1/nql/status/unknown');
		expect(call.status).toBe(404);
		const refused = await fetch(`${server.baseUrl}/api/v1/token`, { method: 'POST', headers: { authorization: basicAuth('both', 'x') } });
		expect(refused.status).toBe(401);
	});
});

describe('bearer tokens and permissions', () => {
	it.each([
		['no token', undefined],
		['an unknown token', 'Bearer not-a-real-token'],
		['Basic credentials', basicAuth('both', 'secret-both')],
	])('answers 401 without a body for %s', async (_label, authorization) => {
		const headers: Record<string, string> = authorization ? { authorization } : {};
		const response = await fetch(`${server.baseUrl}/api/v1/nql/status/x`, { headers });
		expect(response.status).toBe(401);
		expect(await response.text()).toBe('');
	});

	it('refuses every token once expireAllTokens() was called, and accepts new ones', async () => {
		const token = await fetchToken(server, { clientId: 'both', clientSecret: 'secret-both' });
		expect((await apiRequest(server, token, 'GET', '/api/v1/nql/status/x')).status).toBe(404);
		server.expireAllTokens();
		expect((await apiRequest(server, token, 'GET', '/api/v1/nql/status/x')).status).toBe(401);
		const fresh = await fetchToken(server, { clientId: 'both', clientSecret: 'secret-both' });
		expect((await apiRequest(server, fresh, 'GET', '/api/v1/nql/status/x')).status).toBe(404);
	});

	it('expires tokens after their lifetime on the server clock', async () => {
		const token = await fetchToken(server, { clientId: 'both', clientSecret: 'secret-both' });
		server.advanceClock(599_000);
		expect((await apiRequest(server, token, 'GET', '/api/v1/nql/status/x')).status).toBe(404);
		server.advanceClock(1_000);
		expect((await apiRequest(server, token, 'GET', '/api/v1/nql/status/x')).status).toBe(401);
	});

	it('answers 403 with the NQL error response to a client without the NQL permission', async () => {
		const token = await fetchToken(server, { clientId: 'enrich-only', clientSecret: 'secret-enrich' });
		for (const [method, path] of [
			['GET', '/api/v1/nql/status/x'],
			['POST', '/api/v1/nql/export'],
			['POST', '/api/v2/nql/execute'],
		]) {
			const response = await apiRequest(server, token, method, path, method === 'POST' ? { json: { queryId: '#device_fields' } } : {});
			expect(response.status).toBe(403);
			expect(await response.json()).toEqual({ message: expect.any(String), code: 403, source: expect.any(String) });
		}
	});

	it('answers 403 with a message to a client without the enrichment permission', async () => {
		const token = await fetchToken(server, { clientId: 'nql-only', clientSecret: 'secret-nql' });
		const response = await apiRequest(server, token, 'POST', '/api/v1/enrichment/data/fields', { json: {} });
		expect(response.status).toBe(403);
		expect(await response.json()).toEqual({ message: expect.any(String) });
	});

	it('answers 404 for unknown paths and 405 for a wrong method', async () => {
		expect((await fetch(`${server.baseUrl}/api/v1/nope`)).status).toBe(404);
		const wrongMethod = await fetch(`${server.baseUrl}/api/v1/nql/status/x`, { method: 'DELETE' });
		expect(wrongMethod.status).toBe(405);
		expect(wrongMethod.headers.get('allow')).toBe('GET');
	});
});

describe('request recording', () => {
	it('records method, path, query, lowercased headers, body and time of every request', async () => {
		const before = Date.now();
		await fetch(`${server.baseUrl}/api/v1/nql/export?queryId=%23a_b&os=win&os=mac`, {
			method: 'POST',
			headers: { 'X-Platform-Log-Custom-Tag': 'nightly' },
			body: 'hello',
		});
		expect(server.requests).toHaveLength(1);
		const [request] = server.requests;
		expect(request).toMatchObject({
			method: 'POST',
			path: '/api/v1/nql/export',
			query: { queryId: '#a_b', os: ['win', 'mac'] },
			body: 'hello',
		});
		expect(request.headers['x-platform-log-custom-tag']).toBe('nightly');
		expect(request.at).toBeGreaterThanOrEqual(before);
		server.clearRequests();
		expect(server.requests).toHaveLength(0);
	});
});

describe('fault injection', () => {
	const statusPath = '/api/v1/nql/status/x';
	let token: string;

	beforeAll(async () => {
		token = await fetchToken(server, { clientId: 'both', clientSecret: 'secret-both' });
	});

	it('answers the injected status, headers and JSON body instead of the real handler, `times` times', async () => {
		const fault = server.injectFault({ path: statusPath, status: 503, headers: { 'retry-after': '2' }, body: { message: 'down' }, times: 2 });
		for (let i = 0; i < 2; i++) {
			const response = await apiRequest(server, token, 'GET', statusPath);
			expect(response.status).toBe(503);
			expect(response.headers.get('retry-after')).toBe('2');
			expect(response.headers.get('content-type')).toBe('application/json');
			expect(await response.json()).toEqual({ message: 'down' });
		}
		expect(fault.hits).toBe(2);
		expect((await apiRequest(server, token, 'GET', statusPath)).status).toBe(404);
		expect(server.requests).toHaveLength(3);
	});

	it('answers before the bearer check, like a gateway would', async () => {
		server.injectFault({ path: statusPath, status: 502, body: 'bad gateway' });
		const response = await fetch(`${server.baseUrl}${statusPath}`);
		expect(response.status).toBe(502);
		expect(await response.text()).toBe('bad gateway');
	});

	it('matches on method and on a RegExp path', async () => {
		server.injectFault({ method: 'POST', path: /^\/api\/v1\/nql\//, status: 500 });
		expect((await apiRequest(server, token, 'GET', statusPath)).status).toBe(404);
		expect((await apiRequest(server, token, 'POST', '/api/v1/nql/export', { json: {} })).status).toBe(500);
	});

	it('drops the connection without an answer', async () => {
		server.injectFault({ path: statusPath, drop: true });
		await expect(apiRequest(server, token, 'GET', statusPath)).rejects.toThrow();
		expect((await apiRequest(server, token, 'GET', statusPath)).status).toBe(404);
	});

	it('delays the real answer', async () => {
		server.injectFault({ path: statusPath, delayMs: 150 });
		const started = Date.now();
		const response = await apiRequest(server, token, 'GET', statusPath);
		expect(response.status).toBe(404);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});

	it('cuts any answer after dropAfterBytes body bytes', async () => {
		server.injectFault({ path: '/oauth2/default/v1/token', dropAfterBytes: 10 });
		const response = await tokenRequest({ authorization: basicAuth('both', 'secret-both'), 'content-type': FORM });
		expect(response.status).toBe(200);
		await expect(response.text()).rejects.toThrow();
	});

	it('rejects a fault without a usable path', () => {
		expect(() => server.injectFault({ status: 500 })).toThrow(/path/);
	});
});
