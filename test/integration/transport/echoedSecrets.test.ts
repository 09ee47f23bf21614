/**
 * Nothing a server echoes leaks a secret: a gateway's error page (or a hostile API) that echoes the
 * request, `Authorization` header and token-exchange form included, in every field an error may be
 * read from. Export, Enrichment and Trigger through n8n-core's real engine (both generations), the
 * token exchange through the transport probe; the Actions node's run requests are in
 * test/integration/actions/runRequestFailures.test.ts. Each case checks that the echo arrived and was
 * shown scrubbed (`[redacted]`), then that no token, Basic credential or client secret is anywhere in
 * the error, the items or the run data.
 */
import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { NexthinkTrigger } from '../../../nodes/Nexthink/trigger/NexthinkTrigger.node';
import { nexthinkCredentials, runNode } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { pollingTrigger } from '../../helpers/pollHarness';
import { TransportProbe } from '../../helpers/probeNode';
import { basicCredential, expectNoSecret, secretsSeenBy, serialised } from '../../helpers/secrets';
import { deviceFields, enrich, ENRICHMENT_PATH, TIER_FROM_INPUT } from '../enrichment/helpers';

const { startNexthinkServer } = require('../../server');

jest.setTimeout(30_000);

const CLIENT_ID = 'echo-client';
const CLIENT_SECRET = 'echo-secret/with+odd&chars=1';
const EXPORT_PATH = '/api/v1/nql/export';
const TOKEN_PATH = '/oauth2/default/v1/token';

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer({ clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, permissions: ['nql', 'enrichment'] }] });
	server.addQuery({ id: '#estate', header: ['device.uid', 'device.name'], rows: [['u1', 'PC-1']], completeAfterPolls: 0 });
	server.inventory.addDevice({ name: 'PC-1' });
	server.inventory.addCustomField('device', '#tier');
});

localServerHooks(() => server);

const credentials = () => nexthinkCredentials(server);
const secrets = () => {
	const seen = secretsSeenBy(server, [CLIENT_SECRET]);
	// a bearer token and the client secret at least, so the check below cannot pass on nothing
	expect(seen.length).toBeGreaterThanOrEqual(4);
	return seen;
};

describe.each(['json', 'html', 'header'] as const)('an answer that echoes the request (%s)', (echoRequest) => {
	it.each([
		['Start Export, HTTP 400', 'POST', EXPORT_PATH, { operation: 'startExport', queryId: '#estate' }],
		["Get Status, HTTP 400 read as the export's error", 'GET', '/api/v1/nql/status/some-export', { operation: 'getStatus', exportId: 'some-export' }],
	])('Export (%s): the item has no secret', async (_what, method, path, parameters) => {
		server.injectFault({ method, path, status: 400, echoRequest });
		const result = await runNode({
			nodeType: new NexthinkExport(),
			parameters: parameters as never,
			credentials: { nexthinkApi: credentials() },
			onError: 'continueRegularOutput',
		});
		expect(result.items).toHaveLength(1);
		if (echoRequest === 'json') expect(serialised(result.items)).toContain('authorization: Bearer [redacted]');
		expectNoSecret(serialised(result.run), secrets());
	});

	it.each([400, 403])('Enrichment (HTTP %s): the item error has no secret', async (status) => {
		server.injectFault({ method: 'POST', path: ENRICHMENT_PATH, status, echoRequest });
		const result = await enrich(server, deviceFields([TIER_FROM_INPUT]), {
			items: [{ name: 'PC-1', tier: 'gold' }],
			onError: 'continueRegularOutput',
			credentials: { nexthinkApi: credentials() },
		});
		expect(result.items).toHaveLength(1);
		expectNoSecret(serialised(result.run), secrets());
	});

	it('Trigger (the poll\'s export start, HTTP 400): the poll\'s error has no secret', async () => {
		server.injectFault({ method: 'POST', path: EXPORT_PATH, status: 400, echoRequest });
		const trigger = pollingTrigger({ nodeType: new NexthinkTrigger(), parameters: { queryId: '#estate', keyColumns: 'device.uid' } as never, credentials: { nexthinkApi: credentials() } });
		const outcome = await trigger.poll();
		expect(outcome.error).toBeDefined();
		if (echoRequest === 'json') expect(serialised(outcome.error)).toContain('authorization: Bearer [redacted]');
		expectNoSecret(serialised(outcome), secrets());
	});

	it('the token exchange (HTTP 401): the credential error has neither the Basic credential nor the secret', async () => {
		server.injectFault({ method: 'POST', path: TOKEN_PATH, status: 401, echoRequest });
		const result = await runNode({
			nodeType: new TransportProbe(),
			parameters: { path: '/api/v1/nql/status/x', acceptStatus: '404' } as never,
			credentials: { nexthinkApi: credentials() },
		});
		expect(result.error?.message).toMatch(/could not get a token/);
		if (echoRequest === 'json') expect(result.error?.description).toContain('authorization: Basic [redacted]');
		const basic = basicCredential(CLIENT_ID, CLIENT_SECRET);
		expect(server.requests.some((r: any) => r.headers.authorization === `Basic ${basic}`)).toBe(true);
		expectNoSecret(serialised(result.run), [...secrets(), basic]);
	});
});

describe('a successful execute answer that quotes the request in a row and its token in a column name (a hostile API)', () => {
	it.each([
		['v2', '/api/v2/nql/execute'],
		['v1', '/api/v1/nql/execute'],
	])('Export, Execute Query %s: the rows reach the items with the token redacted', async (apiVersion, path) => {
		server.injectFault({ method: 'POST', path, status: 200, echoRequest: 'rows' });
		const result = await runNode({
			nodeType: new NexthinkExport(),
			parameters: { operation: 'executeQuery', queryId: '#estate', options: { apiVersion } } as never,
			credentials: { nexthinkApi: credentials() },
		});
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThanOrEqual(1);
		expect(serialised(result.items)).toContain('authorization: Bearer [redacted]');
		expect(serialised(result.items)).toContain('echo Bearer [redacted]');
		expectNoSecret(serialised(result.run), secrets());
	});

	it("Trigger through Execute Query: the poll's error lists the columns that arrived with the token redacted", async () => {
		server.injectFault({ method: 'POST', path: '/api/v1/nql/execute', status: 200, echoRequest: 'rows' });
		const trigger = pollingTrigger({
			nodeType: new NexthinkTrigger(),
			parameters: { queryId: '#estate', keyColumns: 'device.uid', queryMethod: 'execute' } as never,
			credentials: { nexthinkApi: credentials() },
		});
		const outcome = await trigger.poll();
		expect(outcome.error?.message).toContain('"echo Bearer [redacted]"');
		expectNoSecret(serialised(outcome), secrets());
	});
});

it('a token endpoint that quotes the secret itself (as sent, percent- and form-encoded) has it redacted', async () => {
	const said = `invalid_client: client_secret=${CLIENT_SECRET} / ${encodeURIComponent(CLIENT_SECRET)} / ${encodeURIComponent(CLIENT_SECRET).replace(/%20/g, '+')}`;
	server.injectFault({ method: 'POST', path: TOKEN_PATH, status: 400, body: { error: said, error_description: said } });
	const result = await runNode({
		nodeType: new TransportProbe(),
		parameters: { path: '/api/v1/nql/status/x', acceptStatus: '404' } as never,
		credentials: { nexthinkApi: credentials() },
	});
	expect(result.error?.description).toContain('invalid_client: client_secret=[redacted]');
	expectNoSecret(serialised(result.run), [CLIENT_SECRET, encodeURIComponent(CLIENT_SECRET)]);
});

it('an API that quotes the token in its own words (no "Bearer" before it) has it redacted', async () => {
	const first = await runNode({
		nodeType: new TransportProbe(),
		parameters: { path: '/api/v1/nql/status/x', acceptStatus: '404' } as never,
		credentials: { nexthinkApi: credentials() },
	});
	expect(first.error).toBeUndefined();
	const token = String(first.credentialsHelper.store.nexthinkApi.accessToken);
	server.injectFault({ method: 'GET', path: '/api/v1/nql/status/x', status: 403, body: { message: `token ${token.split('').reverse().join('')} is not ${token}` } });
	const result = await runNode({
		nodeType: new TransportProbe(),
		parameters: { path: '/api/v1/nql/status/x', acceptStatus: '404' } as never,
		credentials: { nexthinkApi: { ...credentials(), accessToken: token } },
	});
	expect(result.error?.message).toContain(' is not [redacted]');
	expectNoSecret(serialised(result.run), [token]);
});
