/**
 * Over real HTTP on both n8n generations: a 2xx answer is success only when its
 * body is the documented one. The local server plays a proxy that answers 200 with an HTML page or
 * with empty or odd JSON in place of the API.
 */
import { NexthinkEnrichment } from '../../../nodes/Nexthink/enrichment/NexthinkEnrichment.node';
import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { N8N_CORE_VERSION, nexthinkCredentials, runNode, type RunNodeOptions } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';

const { startNexthinkServer } = require('../../server');

const ENRICHMENT_PATH = '/api/v1/enrichment/data/fields';
const LOGIN_PAGE = '<!doctype html><html><body><form action="/login">Sign in</form></body></html>';

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
	server.addQuery({ id: '#two_rows', header: ['device.name'], rows: [['PC-1'], ['PC-2']] });
	server.inventory.addDevice({ name: 'PC-001' });
	server.inventory.addDevice({ name: 'PC-002' });
	server.inventory.addCustomField('device', '#tier');
});
localServerHooks(() => server);

const HOST = () => new URL(server.baseUrl).host.replace(/\./g, '\\.');
const calls = (path: string | RegExp) => server.requests.filter((r: any) => (typeof path === 'string' ? r.path === path : path.test(r.path)));

/** Everything of a run a user could see: items, error message and description. */
function visible(result: { items: unknown; error?: any }): string {
	return JSON.stringify({ items: result.items, message: result.error?.message, description: result.error?.description });
}

function exportNode(parameters: Record<string, unknown>, extra: Partial<RunNodeOptions> = {}) {
	return runNode({
		nodeType: new NexthinkExport(),
		parameters: { advancedOptions: { firstPollSeconds: 0.02, pollGrowthFactor: 1.5, maxPollIntervalSeconds: 0.1 }, ...parameters } as never,
		credentials: { nexthinkApi: nexthinkCredentials(server) },
		...extra,
	});
}

const ODD_ANSWERS: Array<[string, string, string]> = [
	['text/html', LOGIN_PAGE, 'text/html'],
	['text/html; charset=utf-8', LOGIN_PAGE, 'text/html'],
	['application/json', '', 'application/json'],
	['application/json', '{}', 'application/json'],
	['application/json', '{"status":"ok"}', 'application/json'],
	['application/json', '[]', 'application/json'],
];

describe(`answers with a success status but not the documented body, on n8n-core ${N8N_CORE_VERSION}`, () => {
	describe('Enrichment', () => {
		const enrich = (items: object[], options: object = {}) =>
			runNode({
				nodeType: new NexthinkEnrichment(),
				parameters: {
					domain: 'n8n',
					options,
					objectType: 'device',
					identifyBy: 'name',
					identificationValue: '={{ $json.name }}',
					mappingMode: 'defineBelow',
					deviceFields: { fieldValues: [{ field: 'customField', customFieldId: '#tier', value: '={{ $json.tier }}' }] },
				} as never,
				items: items.map((json) => ({ json })) as never,
				credentials: { nexthinkApi: nexthinkCredentials(server) },
				onError: 'continueRegularOutput',
			});

		it.each(ODD_ANSWERS)('HTTP 200 %s %j: every item of the batch fails, none is reported applied', async (contentType, body, shownType) => {
			server.injectFault({ method: 'POST', path: ENRICHMENT_PATH, status: 200, contentType, body });
			const result = await enrich([
				{ name: 'PC-001', tier: 'a' },
				{ name: 'PC-002', tier: 'b' },
			]);
			expect(result.error).toBeUndefined();
			const outcomes = result.items.map((item: any) => item.json.enrichment);
			expect(outcomes.map((outcome: any) => outcome.status)).toEqual(['failed', 'failed']);
			for (const outcome of outcomes) {
				expect(outcome.errors).toEqual([
					{
						code: 'UNEXPECTED_RESPONSE',
						source: 'api',
						// an HTML page fails under the transport's rule for every write; odd JSON under Enrichment's own reading
						message: expect.stringMatching(
							body === LOGIN_PAGE
								? new RegExp(`^Enriching 2 device objects failed: unexpected answer \\(HTTP 200, ${shownType.replace('/', '\\/')}\\) from ${HOST()}: an HTML page, not the API's JSON; the request may have reached Nexthink`)
								: new RegExp(`^Unexpected answer \\(HTTP 200, ${shownType.replace('/', '\\/')}\\) from ${HOST()}: not the Enrichment API's`),
						),
					},
				]);
			}
			expect(visible(result)).not.toContain('undefined');
			expect(calls(ENRICHMENT_PATH)).toHaveLength(1);
		});

		it('only the batch that got the odd answer fails; the next batch is applied', async () => {
			server.injectFault({ method: 'POST', path: ENRICHMENT_PATH, status: 200, contentType: 'text/html', body: LOGIN_PAGE });
			const result = await enrich(
				[
					{ name: 'PC-001', tier: 'c' },
					{ name: 'PC-002', tier: 'd' },
				],
				{ batchSize: 1 },
			);
			expect(result.items.map((item: any) => item.json.enrichment.status)).toEqual(['failed', 'applied']);
		});

		it('Stop Workflow: the run stops at the batch that got the odd answer, without the token', async () => {
			server.injectFault({ method: 'POST', path: ENRICHMENT_PATH, status: 200, contentType: 'text/html', body: LOGIN_PAGE });
			const result = await runNode({
				nodeType: new NexthinkEnrichment(),
				parameters: {
					domain: 'n8n',
					options: {},
					objectType: 'device',
					identifyBy: 'name',
					identificationValue: 'PC-001',
					mappingMode: 'defineBelow',
					deviceFields: { fieldValues: [{ field: 'customField', customFieldId: '#tier', value: 'x' }] },
				} as never,
				credentials: { nexthinkApi: nexthinkCredentials(server) },
			});
			expect(`${result.error.message} ${result.error.description}`).toMatch(/unexpected answer \(HTTP 200, text\/html\)/i);
			const token = result.credentialsHelper.store.nexthinkApi.accessToken as string;
			expect(token.length).toBeGreaterThan(10);
			expect(visible(result)).not.toContain(token);
		});
	});

	describe('Export start', () => {
		it.each(ODD_ANSWERS)('HTTP 200 %s %j: a clear error, the start is not sent again', async (contentType, body, shownType) => {
			server.injectFault({ method: 'POST', path: '/api/v1/nql/export', status: 200, contentType, body });
			const result = await exportNode({ queryId: 'two_rows' });
			expect(result.error.message).toMatch(
				body === LOGIN_PAGE
					? new RegExp(`^Starting the export of #two_rows failed: unexpected answer \\(HTTP 200, ${shownType.replace('/', '\\/')}\\) from ${HOST()}: an HTML page, not the API's JSON; the request may have reached Nexthink$`)
					: new RegExp(`^Starting the export of #two_rows got an unexpected answer \\(HTTP 200, ${shownType.replace('/', '\\/')}\\) from ${HOST()}: no export ID$`),
			);
			expect(calls('/api/v1/nql/export')).toHaveLength(1);
			expect(calls(/\/nql\/status\//)).toHaveLength(0);
		});

		it('continue-on-fail: an error item, never an item with an undefined export ID', async () => {
			server.injectFault({ method: 'POST', path: '/api/v1/nql/export', status: 200, body: { exportId: 42 } });
			const result = await exportNode({ operation: 'startExport', queryId: 'two_rows' }, { onError: 'continueRegularOutput' });
			expect(result.items).toHaveLength(1);
			expect(result.items[0].json.error).toMatch(/no export ID/);
			expect(visible(result)).not.toContain('undefined');
		});
	});

	describe('Get Status', () => {
		it.each([
			['text/html', LOGIN_PAGE, /HTTP 200, text\/html\) from .*: not a JSON object$/],
			['application/json', '', /HTTP 200, application\/json\) from .*: not a JSON object$/],
			['application/json', '{}', /no valid export status \(status: nothing; expected SUBMITTED, IN_PROGRESS, COMPLETED or ERROR\)$/],
			['application/json', '{"status":"DONE"}', /no valid export status \(status: "DONE"/],
			['application/json', '{"status":{"a":1}}', /no valid export status \(status: \{"a":1\}/],
			['application/json', '{"status":"COMPLETED","resultsFileUrl":null}', /status COMPLETED without a results file URL \(resultsFileUrl: null\)$/],
		])('HTTP 200 %s %j: a clear error', async (contentType, body, message) => {
			server.injectFault({ method: 'GET', path: /^\/api\/v1\/nql\/status\//, status: 200, contentType, body });
			const result = await exportNode({ operation: 'getStatus', exportId: 'e-1' });
			expect(result.error.message).toMatch(/^Getting the status of export e-1 got an unexpected answer \(/);
			expect(result.error.message).toMatch(message);
		});

		it('the Export operation stops waiting with that error instead of polling on', async () => {
			server.injectFault({ method: 'GET', path: /^\/api\/v1\/nql\/status\//, status: 200, contentType: 'text/html', body: LOGIN_PAGE });
			const result = await exportNode({ queryId: 'two_rows' });
			expect(result.error.message).toMatch(/Getting the status of export .* got an unexpected answer \(HTTP 200, text\/html\)/);
			expect(calls(/\/nql\/status\//)).toHaveLength(1);
		});
	});

	describe('Execute Query', () => {
		it.each([
			[{}, 'text/html', LOGIN_PAGE, /HTTP 200, text\/html\) from .*: the execute answer is not a JSON object\.$/],
			[{}, 'application/json', '', /: the execute answer is empty\.$/],
			[{}, 'application/json', '{"data":"rows"}', /: the execute answer has no "data" list\.$/],
			[{}, 'application/json', '{"data":[1]}', /: row 1 of the execute answer is not an object\.$/],
			[{ apiVersion: 'v1' }, 'application/json', '{"headers":[{"x":1}],"data":[[1]]}', /: header 1 of the v1 execute answer is not a text name\.$/],
			[{ responseFormat: 'csv' }, 'text/html', LOGIN_PAGE, /HTTP 200, text\/html\) from .*: a text\/html page instead of CSV text\.$/],
		])('%j answered 200 %s %j: a clear error, no rows', async (options, contentType, body, message) => {
			server.injectFault({ method: 'POST', path: /^\/api\/v[12]\/nql\/execute$/, status: 200, contentType, body });
			const result = await exportNode({ operation: 'executeQuery', queryId: 'two_rows', options });
			expect(result.items).toHaveLength(0);
			expect(result.error.message).toMatch(/^Executing #two_rows got an unexpected answer \(HTTP 200, /);
			expect(result.error.message).toMatch(message);
		});

		it('metadata of an odd but usable answer holds no undefined and no objects where text belongs', async () => {
			server.injectFault({
				method: 'POST',
				path: '/api/v2/nql/execute',
				status: 200,
				body: { queryId: { x: 1 }, executedQuery: 5, rows: 'two', data: [{ 'device.name': 'PC-1' }] },
			});
			const result = await exportNode({ operation: 'executeQuery', queryId: 'two_rows', options: { includeMetadata: 'separateItem' } });
			expect(result.error).toBeUndefined();
			expect(result.items.map((item: any) => item.json)).toEqual([
				{ 'device.name': 'PC-1' },
				{ queryId: '#two_rows', executedQuery: null, rows: 1, executionDateTime: null, mayBeIncomplete: false },
			]);
		});
	});
});
