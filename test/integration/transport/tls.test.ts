/**
 * "Ignore SSL Issues" means it. The local API server serves HTTPS with a
 * self-signed certificate (as a TLS-inspecting proxy would present); through n8n-core's real
 * request helpers on both generations, without the option every request fails with the TLS
 * explanation, with it the token exchange, the API calls and the results-file download all succeed.
 */
import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { N8N_CORE_VERSION, nexthinkCredentials, runNode } from '../../helpers/harness';
import { FAST_WAIT, localServerHooks } from '../../helpers/localServer';
import { makeSelfSignedCertificate } from '../../helpers/selfSignedCert';
import { FEW_N8N_RUNS_TIMEOUT_MS } from '../../helpers/timeouts';

const { startNexthinkServer } = require('../../server');

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer({ tls: makeSelfSignedCertificate() });
	server.addQuery({ id: '#small', header: ['device.name'], rows: [['PC-1'], ['PC-2']], completeAfterPolls: 0 });
	// runs the openssl command once (about 0.1 s idle)
}, FEW_N8N_RUNS_TIMEOUT_MS);
localServerHooks(() => server);

function run(parameters: Record<string, unknown>, ignoreSslIssues: boolean) {
	return runNode({
		nodeType: new NexthinkExport(),
		parameters: { queryId: 'small', compression: 'GZIP', advancedOptions: FAST_WAIT, ...parameters } as never,
		credentials: { nexthinkApi: { ...nexthinkCredentials(server), ignoreSslIssues } },
	});
}

const paths = () => server.requests.map((r: any) => r.path.replace(/\/status\/.*$/, '/status/…').replace(/\/files\/.*$/, '/files/…'));

describe(`Ignore SSL Issues on n8n-core ${N8N_CORE_VERSION}`, () => {
	it('the server really is HTTPS with a self-signed certificate', () => {
		expect(server.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
	});

	it('without the option, the token exchange fails with the TLS explanation and nothing is sent', async () => {
		const { error, items } = await run({ operation: 'export' }, false);
		expect(items).toHaveLength(0);
		const text = `${error?.message} ${error?.description ?? ''}`;
		expect(text).toMatch(/could not get a token/);
		expect(text).toMatch(/The TLS certificate of 127\.0\.0\.1:\d+ was not accepted \([A-Z_]+\)/);
		expect(text).toMatch(/switch on "Ignore SSL Issues" in the credential/);
		expect(server.requests).toHaveLength(0);
	}, FEW_N8N_RUNS_TIMEOUT_MS);

	it('with the option, the token exchange, the API calls and the results download all succeed', async () => {
		const { error, items } = await run({ operation: 'export' }, true);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json['device.name'])).toEqual(['PC-1', 'PC-2']);
		expect(paths()).toEqual(['/oauth2/default/v1/token', '/api/v1/nql/export', '/api/v1/nql/status/…', '/files/…']);
	}, FEW_N8N_RUNS_TIMEOUT_MS);

	it('the results-file download follows the option on its own (Download Results by URL sends no API call)', async () => {
		const started = await run({ operation: 'startExport' }, true);
		const status = await run({ operation: 'getStatus', exportId: started.items[0].json.exportId }, true);
		const resultsFileUrl = status.items[0].json.resultsFileUrl as string;
		expect(resultsFileUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/files\//);
		server.clearRequests();

		const refused = await run({ operation: 'downloadResults', resultsSource: 'url', resultsFileUrl }, false);
		expect(refused.items).toHaveLength(0);
		// the download fails on TLS; the node may then try a fresh URL by export ID, whose token request fails on TLS too
		expect(`${refused.error?.message} ${refused.error?.description ?? ''}`).toMatch(/TLS certificate (of \S+ )?was not accepted.*"Ignore SSL Issues"/);
		expect(server.requests).toHaveLength(0);

		const downloaded = await run({ operation: 'downloadResults', resultsSource: 'url', resultsFileUrl }, true);
		expect(downloaded.error).toBeUndefined();
		expect(downloaded.items.map((i) => i.json['device.name'])).toEqual(['PC-1', 'PC-2']);
		expect(paths()).toEqual(['/files/…']);
	}, FEW_N8N_RUNS_TIMEOUT_MS);
});
