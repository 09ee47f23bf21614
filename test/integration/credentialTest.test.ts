/**
 * The credential's "Test" button as n8n runs it: n8n's credentials tester puts the credential's test
 * request on a `temp` parameter of a noOp node and sends it through n8n-core's RoutingNode and
 * `httpRequestWithAuthentication`; n8n's credentials helper runs `preAuthentication` first in every
 * test (harness.ts mirrors that). Runs under both n8n generations.
 */
import type { INodeType } from 'n8n-workflow';

import { NexthinkApi } from '../../credentials/NexthinkApi.credentials';
import { disposeHarness, N8N_CORE_VERSION, nexthinkCredentials, runNode } from '../helpers/harness';

const { startNexthinkServer } = require('../server');

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
});
afterAll(async () => {
	await server.close();
	disposeHarness();
});
beforeEach(() => server.clearRequests());

/** The node n8n's credentials tester builds around a credential's test request. */
function credentialTestNode(): INodeType {
	return {
		description: {
			displayName: 'No Operation',
			name: 'noOp',
			group: ['organization'],
			version: 1,
			description: '',
			defaults: { name: 'Temp-Node' },
			inputs: ['main'] as never,
			outputs: ['main'] as never,
			credentials: [{ name: 'nexthinkApi', required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: new NexthinkApi().test.request } }],
		},
	};
}

const testCredential = (credentials: Record<string, unknown>) =>
	runNode({ nodeType: credentialTestNode(), typeName: 'n8n-nodes-base.noOp', parameters: {}, credentials: { nexthinkApi: credentials as never } });

const tokenCalls = () => server.requests.filter((r: any) => r.path === '/oauth2/default/v1/token');

describe(`credential test on n8n-core ${N8N_CORE_VERSION}`, () => {
	it('makes one token exchange, then checks the API host answers, sending it nothing secret', async () => {
		const { error } = await testCredential(nexthinkCredentials(server));
		expect(error).toBeUndefined();
		expect(tokenCalls()).toHaveLength(1);
		expect(server.requests.map((r: any) => `${r.method} ${r.path}`)).toEqual(['POST /oauth2/default/v1/token', 'GET /']);
		const [, hostCheck] = server.requests;
		expect(hostCheck.headers.authorization).toBeUndefined();
		expect(hostCheck.headers['x-n8n-nexthink-credential-test']).toBeUndefined();
	});

	it('makes one token exchange also when a token is stored (n8n renews it in every test)', async () => {
		const { error } = await testCredential({ ...nexthinkCredentials(server), accessToken: 'token-from-an-earlier-run' });
		expect(error).toBeUndefined();
		expect(tokenCalls()).toHaveLength(1);
	});

	it('refuses a wrong secret with the credential\'s own message, before contacting the API host', async () => {
		const { error } = await testCredential({ ...nexthinkCredentials(server), clientSecret: 'wrong-secret-4711' });
		expect(error).toBeDefined();
		expect(`${error.message} ${error.description ?? ''}`).toMatch(/rejected the client ID or client secret \(HTTP 401, invalid_client\)/);
		expect(JSON.stringify(error)).not.toContain('wrong-secret-4711');
		expect(server.requests.map((r: any) => r.path)).toEqual(['/oauth2/default/v1/token']);
	});

	it('fails when the API base URL does not answer', async () => {
		const { error } = await testCredential({ ...nexthinkCredentials(server), apiBaseUrl: 'http://127.0.0.1:9' });
		expect(error).toBeDefined();
		// n8n's words for ECONNREFUSED (its credentials tester shows the error's code)
		expect(error.message).toMatch(/refused the connection/);
		expect(tokenCalls()).toHaveLength(1);
	});
});
