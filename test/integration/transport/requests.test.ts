/**
 * The credential and the transport, through n8n-core's real engine and real HTTP against the local
 * API server. Runs under both n8n generations (jest projects n8n2 and n8n1).
 */
import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { N8N_CORE_VERSION, nexthinkCredentials, runNode, startNode } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { TransportProbe } from '../../helpers/probeNode';
import { REAL_WAITS_TIMEOUT_MS } from '../../helpers/timeouts';

const { startNexthinkServer } = require('../../server');

const STATUS_PATH = '/api/v1/nql/status/does-not-exist';

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
});
localServerHooks(() => server);

const probe = (parameters: Record<string, unknown>, credentials = nexthinkCredentials(server)) =>
	runNode({
		nodeType: new TransportProbe(),
		parameters: { path: STATUS_PATH, acceptStatus: '404', ...parameters } as never,
		credentials: { nexthinkApi: credentials },
	});

const apiCalls = () => server.requests.filter((r: any) => r.path.startsWith('/api/'));
const tokenCalls = () => server.requests.filter((r: any) => r.path === '/oauth2/default/v1/token');

function errorText(error: any): string {
	const seen = new WeakSet();
	return JSON.stringify(
		{ message: error?.message, description: error?.description, context: error?.context, messages: error?.messages, error },
		(_key, value) => {
			if (typeof value === 'object' && value !== null) {
				if (seen.has(value)) return undefined;
				seen.add(value);
			}
			return value;
		},
	);
}

describe(`transport on n8n-core ${N8N_CORE_VERSION}`, () => {
	it('exchanges the client credentials exactly as Nexthink documents it, once, and sends the bearer token', async () => {
		const { items, error, credentialsHelper } = await probe({ repeat: 2 });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.statusCode)).toEqual([404, 404]);

		expect(tokenCalls()).toHaveLength(1);
		const [tokenCall] = tokenCalls();
		expect(tokenCall.method).toBe('POST');
		expect(tokenCall.headers.authorization).toBe(`Basic ${Buffer.from(`${server.clientId}:${server.clientSecret}`).toString('base64')}`);
		expect(tokenCall.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
		expect(Object.fromEntries(new URLSearchParams(tokenCall.body))).toEqual({ grant_type: 'client_credentials', scope: 'service:integration' });

		const token = credentialsHelper.store.nexthinkApi.accessToken;
		expect(typeof token).toBe('string');
		expect(credentialsHelper.tokenUpdates).toHaveLength(1);
		expect(apiCalls().map((r: any) => r.headers.authorization)).toEqual([`Bearer ${token}`, `Bearer ${token}`]);
	});

	it('tolerates whitespace and trailing slashes in custom URLs', async () => {
		const credentials = { ...nexthinkCredentials(server), apiBaseUrl: ` ${server.baseUrl}/ `, tokenUrl: `${server.tokenUrl}// ` };
		const { items, error } = await probe({}, credentials);
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(404);
		expect(apiCalls()[0].path).toBe(STATUS_PATH);
	});

	it('renews a token that expired mid-run after one 401 and retries the call once', async () => {
		const credentials = { ...nexthinkCredentials(server), accessToken: 'stale-token-from-an-earlier-run' };
		const { items, error, credentialsHelper } = await probe({}, credentials);
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(404);
		const fresh = credentialsHelper.store.nexthinkApi.accessToken;
		// the whole exchange, in order: the stale token goes out once, on n8n 1.x as on 2.x
		expect(server.requests.map((r: any) => `${r.path} ${r.headers.authorization?.startsWith('Bearer') ? r.headers.authorization.slice(7) : ''}`)).toEqual([
			`${STATUS_PATH} stale-token-from-an-earlier-run`,
			'/oauth2/default/v1/token ',
			`${STATUS_PATH} ${fresh}`,
		]);
		expect(credentialsHelper.tokenUpdates).toHaveLength(1);
	});

	it('keeps the status, headers and body of an answer that fails after the renewal', async () => {
		// the first call meets an expired token; the call after the renewal is refused with retry-after
		server.injectFault({ method: 'GET', path: STATUS_PATH, status: 401, body: { message: 'token expired' } });
		server.injectFault({
			method: 'GET',
			path: STATUS_PATH,
			status: 429,
			headers: { 'retry-after': '3600' },
			body: { message: 'Too many requests for this client', code: 4290, source: 'nql' },
			times: 5,
		});
		const { error } = await probe({ deadlineInMs: 2000 }, { ...nexthinkCredentials(server), accessToken: 'stale-token' });
		expect(server.requests.map((r: any) => r.path)).toEqual([STATUS_PATH, '/oauth2/default/v1/token', STATUS_PATH]);
		expect(error.message).toBe('Probing failed (HTTP 429): Too many requests for this client [code 4290, source nql]');
		// read from the answer's retry-after header
		expect(error.description).toMatch(/retry after \d{4}-\d\d-\d\dT.* \(in 3600 s\)/);
	});

	it('says the credential could not get a token when the renewal after a 401 fails, without the secret', async () => {
		const secret = 'revoked-secret-0815';
		const { error } = await probe({}, { ...nexthinkCredentials(server), clientSecret: secret, accessToken: 'stale-token' });
		expect(server.requests.map((r: any) => r.path)).toEqual([STATUS_PATH, '/oauth2/default/v1/token']);
		expect(error.message).toMatch(/could not get a token/);
		expect(error.description).toMatch(/rejected the client ID or client secret \(HTTP 401, invalid_client\)/);
		expect(errorText(error)).not.toContain(secret);
	});

	it('renews the token when the server expires it between two calls of one execution', async () => {
		// hold the first call long enough for the test to expire every token meanwhile
		server.injectFault({ method: 'GET', path: STATUS_PATH, delayMs: 300 });
		const running = startNode({
			nodeType: new TransportProbe(),
			parameters: { path: STATUS_PATH, acceptStatus: '404', repeat: 1 } as never,
			items: [{ json: {} }, { json: {} }],
			credentials: { nexthinkApi: nexthinkCredentials(server) },
		});
		// expire every token as soon as the first item's call went out
		const waitForFirstCall = async () => {
			while (apiCalls().length === 0) await new Promise((r) => setTimeout(r, 5));
			server.expireAllTokens();
		};
		await waitForFirstCall();
		const { items, error } = await running.result;
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.statusCode)).toEqual([404, 404]);
		expect(tokenCalls().length).toBe(2);
	});

	it('explains a wrong client secret without echoing it', async () => {
		const secret = 'this-is-the-wrong-secret-4711';
		const { error } = await probe({}, { ...nexthinkCredentials(server), clientSecret: secret });
		expect(error).toBeDefined();
		expect(error.message).toMatch(/could not get a token/);
		expect(error.description).toMatch(/rejected the client ID or client secret \(HTTP 401, invalid_client\)/);
		expect(errorText(error)).not.toContain(secret);
		expect(errorText(error)).not.toContain(Buffer.from(`${server.clientId}:${secret}`).toString('base64'));
		expect(apiCalls()).toHaveLength(0);
	});

	it('explains an unreachable token host', async () => {
		const { error } = await probe({}, { ...nexthinkCredentials(server), tokenUrl: 'http://127.0.0.1:9/oauth2/default/v1/token' });
		expect(error.message + ' ' + (error.description ?? '')).toMatch(/Could not reach the token host 127\.0\.0\.1:9 \(ECONNREFUSED\)/);
	});

	it('rejects an instance name that is a URL before sending anything', async () => {
		const { error } = await probe({}, { instance: 'https://acme.eu.nexthink.cloud', region: 'eu', clientId: 'a', clientSecret: 'b' });
		expect(error.message).toMatch(/looks like a URL or host name/);
		expect(server.requests).toHaveLength(0);
	});

	it.each([
		['delta-seconds', '1'],
		['an HTTP-date', () => new Date(Date.now() + 2500).toUTCString()],
	])('retries a GET after 429 with retry-after as %s', async (_form, retryAfter) => {
		const value = typeof retryAfter === 'function' ? retryAfter() : retryAfter;
		server.injectFault({ method: 'GET', path: STATUS_PATH, status: 429, headers: { 'retry-after': value } });
		const started = Date.now();
		const { items, error } = await probe({});
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(404);
		expect(apiCalls()).toHaveLength(2);
		// the retry waited for retry-after (at least 1 s; HTTP-dates have whole seconds) instead of the probe's 50 ms backoff
		expect(apiCalls()[1].at - apiCalls()[0].at).toBeGreaterThanOrEqual(900);
		expect(Date.now() - started).toBeGreaterThanOrEqual(900);
	}, REAL_WAITS_TIMEOUT_MS);

	it('falls back to the normal backoff when retry-after is fractional (not read as a date far away)', async () => {
		// Date.parse reads "3000.5" as May 3000: taken as a date, the retry would be refused as too far away
		server.injectFault({ method: 'GET', path: STATUS_PATH, status: 503, headers: { 'retry-after': '3000.5' } });
		const { items, error } = await probe({});
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(404);
		expect(apiCalls()).toHaveLength(2);
	});

	it('retries a GET after 503 and after a dropped connection', async () => {
		server.injectFault({ method: 'GET', path: STATUS_PATH, status: 503 });
		server.injectFault({ method: 'GET', path: STATUS_PATH, drop: true });
		const { items, error } = await probe({});
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(404);
		expect(apiCalls()).toHaveLength(3);
	}, REAL_WAITS_TIMEOUT_MS);

	it('gives up when the next wait would pass the deadline, with the time to retry in the message', async () => {
		server.injectFault({ method: 'GET', path: STATUS_PATH, status: 429, headers: { 'retry-after': '3600' }, times: 5 });
		const { error } = await probe({ deadlineInMs: 2000 });
		expect(apiCalls()).toHaveLength(1);
		expect(error.message).toMatch(/Probing failed \(HTTP 429\)/);
		expect(error.description).toMatch(/retry after \d{4}-\d\d-\d\dT.* \(in 3600 s\)/);
	});

	it('stops retrying 503 after the bounded number of retries', async () => {
		server.injectFault({ method: 'GET', path: STATUS_PATH, status: 503, times: 50 });
		const { error } = await probe({});
		expect(apiCalls()).toHaveLength(5);
		expect(error.message).toMatch(/HTTP 503/);
		expect(error.description).toMatch(/unavailable/);
	}, REAL_WAITS_TIMEOUT_MS);

	it('never repeats a POST that is not idempotent', async () => {
		server.injectFault({ method: 'POST', path: '/api/v1/nql/export', status: 503 });
		const { error } = await probe({ method: 'POST', path: '/api/v1/nql/export', idempotent: false, body: '{"queryId":"#x"}' });
		expect(apiCalls()).toHaveLength(1);
		expect(error.message).toMatch(/HTTP 503/);
	});

	it('keeps the API message, code and source in errors, and never the bearer token', async () => {
		server.injectFault({
			method: 'GET',
			path: STATUS_PATH,
			status: 403,
			body: { message: 'Not authorized to execute queries', code: 4031, source: 'nql' },
		});
		const { error, credentialsHelper } = await probe({ acceptStatus: '' });
		expect(error.message).toBe('Probing failed (HTTP 403): Not authorized to execute queries [code 4031, source nql]');
		expect(error.description).toMatch(/NQL API/);
		const token = credentialsHelper.store.nexthinkApi.accessToken as string;
		expect(token.length).toBeGreaterThan(10);
		expect(errorText(error)).not.toContain(token);
		expect(errorText(error)).not.toContain(server.clientSecret);
	});

	describe('a credential that stays refused is not hammered: at most two sends and one renewal', () => {
		it.each([
			['a GET that is safe to repeat', { method: 'GET', path: STATUS_PATH, idempotent: true }],
			['a POST that is not', { method: 'POST', path: '/api/v1/nql/export', idempotent: false, body: '{"queryId":"#x"}' }],
		])('%s, with no token stored yet: one exchange, one renewal', async (_what, parameters) => {
			server.injectFault({ method: parameters.method, path: parameters.path, status: 401, body: { message: 'not accepted' }, times: Infinity });
			const { error } = await probe(parameters);
			expect(server.requests.map((r: any) => r.path)).toEqual(['/oauth2/default/v1/token', parameters.path, '/oauth2/default/v1/token', parameters.path]);
			expect(error.message).toBe('Probing failed (HTTP 401): not accepted');
			expect(error.description).toMatch(/did not accept the credential even after a fresh token was fetched/);
		});

		it('with a stale token stored: the stale token once, one renewal, the fresh token once', async () => {
			server.injectFault({ method: 'GET', path: STATUS_PATH, status: 401, times: Infinity });
			const { error, credentialsHelper } = await probe({}, { ...nexthinkCredentials(server), accessToken: 'stale-token' });
			expect(server.requests.map((r: any) => r.path)).toEqual([STATUS_PATH, '/oauth2/default/v1/token', STATUS_PATH]);
			expect(credentialsHelper.tokenUpdates).toHaveLength(1);
			expect(error.message).toMatch(/\(HTTP 401\)/);
		});
	});

	describe('a 429 never makes the calls come faster: at least 1 s between two calls whatever retry-after says', () => {
		it.each([
			['fractional', '1.5'],
			['not a number', 'abc'],
			['negative', '-1'],
			['empty', ''],
			['zero', '0'],
			['an HTTP date in the past', new Date(Date.now() - 60_000).toUTCString()],
		])(
			'retry-after %s (%p): the retry comes at least 1 s later, and succeeds',
			async (_what, retryAfter) => {
				server.injectFault({ method: 'GET', path: STATUS_PATH, status: 429, headers: { 'retry-after': retryAfter } });
				const { items, error } = await probe({});
				expect(error).toBeUndefined();
				expect(items[0].json.statusCode).toBe(404);
				const calls = apiCalls();
				expect(calls).toHaveLength(2);
				// server-recorded times; 1 s is the floor, 900 ms leaves room for clock granularity
				expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(900);
			},
			REAL_WAITS_TIMEOUT_MS,
		);

		it(
			"an Export's wait: every status call at least 1 s after the one before, through 429s with retry-after 0 and 'abc'",
			async () => {
				server.addQuery({ id: '#slow_rows', header: ['device.name'], rows: [['PC-1']], completeAfterPolls: 3 });
				const status = /^\/api\/v1\/nql\/status\//;
				server.injectFault({ method: 'GET', path: status, status: 429, headers: { 'retry-after': '0' } });
				server.injectFault({ method: 'GET', path: status, status: 429, headers: { 'retry-after': 'abc' } });
				const { items, error } = await runNode({
					nodeType: new NexthinkExport(),
					parameters: { operation: 'export', queryId: '#slow_rows', advancedOptions: { firstPollSeconds: 0 } } as never,
					credentials: { nexthinkApi: nexthinkCredentials(server) },
				});
				expect(error).toBeUndefined();
				expect(items).toHaveLength(1);
				const calls = apiCalls().filter((r: any) => status.test(r.path));
				expect(calls.length).toBeGreaterThanOrEqual(5);
				const gaps = calls.slice(1).map((call: any, i: number) => call.at - calls[i].at);
				expect(Math.min(...gaps)).toBeGreaterThanOrEqual(900);
			},
			REAL_WAITS_TIMEOUT_MS,
		);

		it('retry-after far beyond what the node waits: no retry at all, and the message says when to retry', async () => {
			server.injectFault({ method: 'GET', path: STATUS_PATH, status: 429, headers: { 'retry-after': '99999999999' }, times: 5 });
			const { error } = await probe({});
			expect(apiCalls()).toHaveLength(1);
			expect(error.message).toMatch(/Probing failed \(HTTP 429\)/);
			expect(error.description).toMatch(/retry after/);
		});
	});

	it('stops waiting at once when the execution is cancelled', async () => {
		server.injectFault({ method: 'GET', path: STATUS_PATH, status: 429, headers: { 'retry-after': '20' } });
		const running = startNode({
			nodeType: new TransportProbe(),
			parameters: { path: STATUS_PATH, acceptStatus: '404' } as never,
			credentials: { nexthinkApi: nexthinkCredentials(server) },
		});
		while (apiCalls().length === 0) await new Promise((r) => setTimeout(r, 5));
		await new Promise((r) => setTimeout(r, 100));
		running.cancel();
		const outcome = await Promise.race([
			running.result.then(() => 'ended'),
			new Promise((r) => setTimeout(() => r('still waiting'), 5000)),
		]);
		expect(outcome).toBe('ended');
		expect(apiCalls()).toHaveLength(1);
	});
});
