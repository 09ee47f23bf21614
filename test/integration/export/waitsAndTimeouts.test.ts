/**
 * Waits, timeouts, messages and start retries through n8n-core's engine, over real HTTP against the local API
 * server: polling never spins and Maximum Wait is a hard bound; every request has a bounded time;
 * a refused export start is retried and one that may have run never is; clear words for an
 * unusable results URL and for a cancelled execution.
 */
import { NexthinkEnrichment } from '../../../nodes/Nexthink/enrichment/NexthinkEnrichment.node';
import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { N8N_CORE_VERSION, nexthinkCredentials, runNode, startNode, type RunNodeOptions } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { DATA_WORK_TIMEOUT_MS, REAL_WAITS_TIMEOUT_MS } from '../../helpers/timeouts';

const { startNexthinkServer, generateDeviceRows, DEVICE_COLUMNS } = require('../../server');

const ENRICHMENT_PATH = '/api/v1/enrichment/data/fields';
const START_PATH = '/api/v1/nql/export';
const STATUS_PATH = /^\/api\/v1\/nql\/status\//;
/** A server that answers after this long is, for these tests, a server that never answers. */
const STALL_MS = 120_000;

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
	server.addQuery({ id: '#quick', header: ['device.name'], rows: [['PC-1'], ['PC-2']], completeAfterPolls: 0 });
	server.addQuery({ id: '#never_done', header: ['x'], rows: [], completeAfterMs: 3_600_000 });
	server.addQuery({ id: '#million', header: DEVICE_COLUMNS, rows: () => generateDeviceRows(1_000_000, 3), completeAfterPolls: 0 });
});
localServerHooks(() => server);

const calls = (path: string | RegExp) =>
	server.requests.filter((r: any) => (typeof path === 'string' ? r.path === path : path.test(r.path)));
const fileCalls = () => calls(/^\/files\//);

function exportNode(parameters: Record<string, unknown>, extra: Partial<RunNodeOptions> = {}): RunNodeOptions {
	return {
		nodeType: new NexthinkExport(),
		parameters: { queryId: 'quick', ...parameters } as never,
		credentials: { nexthinkApi: nexthinkCredentials(server) },
		...extra,
	};
}

async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
	const started = Date.now();
	const result = await work();
	return { result, ms: Date.now() - started };
}

describe(`Waits, timeouts and retries on n8n-core ${N8N_CORE_VERSION}`, () => {
	describe('point 3: polling cannot spin, Maximum Wait is a hard bound', () => {
		it.each([
			[{ advancedOptions: { firstPollSeconds: -1 } }, /First Poll After must be .* got -1/],
			[{ advancedOptions: { firstPollSeconds: 'soon' } }, /First Poll After must be .* got NaN/],
			[{ advancedOptions: { firstPollSeconds: 1e10 } }, /First Poll After must be a number of seconds from 0 to 2147483/],
			[{ advancedOptions: { pollGrowthFactor: 0.5 } }, /Poll Interval Growth must be a number of 1 or more, got 0.5/],
			[{ advancedOptions: { pollGrowthFactor: 'Infinity' } }, /Poll Interval Growth must be .* got Infinity/],
			[{ advancedOptions: { pollGrowthFactor: 'x' } }, /Poll Interval Growth must be .* got NaN/],
			[{ advancedOptions: { maxPollIntervalSeconds: 0 } }, /Longest Poll Interval must be .* above 0/],
			[{ advancedOptions: { maxPollIntervalSeconds: -3 } }, /Longest Poll Interval must be .* got -3/],
			[{ advancedOptions: { maxPollIntervalSeconds: 1e12 } }, /Longest Poll Interval must be .* at most 2147483/],
			[{ options: { maxWaitSeconds: -1 } }, /Maximum Wait must be a number of seconds of 0 or more, got -1/],
			[{ options: { maxWaitSeconds: 'Infinity' } }, /Maximum Wait must be .* got Infinity/],
		])('rejects wait setting %j before any request, naming the field', async (parameters, message) => {
			const { error } = await runNode(exportNode(parameters));
			expect(error?.message).toMatch(message);
			expect(server.requests).toHaveLength(0);
		});

		// waits about 3.5 s (Maximum Wait 3.6 s)
		it('keeps status calls at least 1 s apart even when every interval setting asks for less', async () => {
			const options = { maxWaitSeconds: 3.6, onTimeout: 'returnStatus' };
			const advancedOptions = { firstPollSeconds: 0, pollGrowthFactor: 1, maxPollIntervalSeconds: 0.001 };
			const { error, items } = await runNode(exportNode({ queryId: 'never_done', options, advancedOptions }));
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ waitTimedOut: true });
			const times: number[] = calls(STATUS_PATH).map((r: any) => r.at);
			expect(times.length).toBeGreaterThanOrEqual(2);
			expect(times.length).toBeLessThanOrEqual(4);
			for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(900);
		}, REAL_WAITS_TIMEOUT_MS);

		// Maximum Wait is 3 s; the server stalls every status call
		it('ends an export with Maximum Wait 3 s by about 3 s when the server stalls a status call', async () => {
			server.injectFault({ method: 'GET', path: STATUS_PATH, delayMs: STALL_MS, times: Infinity });
			const parameters = { queryId: 'never_done', options: { maxWaitSeconds: 3 }, advancedOptions: { firstPollSeconds: 0.5 } };
			const { result, ms } = await timed(() => runNode(exportNode(parameters)));
			expect(result.error?.message).toMatch(
				/did not complete within 3 seconds \(last status SUBMITTED; the last status call got no answer before the maximum wait ran out\)/,
			);
			expect(ms).toBeGreaterThanOrEqual(2_900);
			expect(ms).toBeLessThan(30_000); // ten times the Maximum Wait, far below 3 s + the 300 s Request Timeout
			expect(calls(START_PATH)).toHaveLength(1);
			expect(calls(STATUS_PATH)).toHaveLength(1);
		}, REAL_WAITS_TIMEOUT_MS);

		// Maximum Wait is 6 s; the first status answers after 1.7 s, the second one (from 2.7 s) stalls: over 3 s
		// of slack for a busy machine to make the second call before the wait runs out
		it('returns the last status when the wait runs out during a stalled status call and On Timeout is Return Last Status', async () => {
			server.injectFault({ method: 'GET', path: STATUS_PATH, delayMs: 1_500 });
			server.injectFault({ method: 'GET', path: STATUS_PATH, delayMs: STALL_MS, times: Infinity });
			const parameters = { queryId: 'never_done', options: { maxWaitSeconds: 6, onTimeout: 'returnStatus' }, advancedOptions: { firstPollSeconds: 0.2 } };
			const { result, ms } = await timed(() => runNode(exportNode(parameters)));
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ status: 'SUBMITTED', waitTimedOut: true });
			expect(ms).toBeLessThan(30_000); // five times the Maximum Wait
			expect(calls(STATUS_PATH)).toHaveLength(2);
		}, REAL_WAITS_TIMEOUT_MS);
	});

	describe('point 4: every request has a bounded time', () => {
		const enrichParameters = (options: Record<string, unknown>) => ({
			objectType: 'device',
			identifyBy: 'name',
			identificationValue: '={{ $json.name }}',
			mappingMode: 'defineBelow',
			deviceFields: { fieldValues: [{ field: 'customField', customFieldId: '#tier', value: 'gold' }] },
			domain: 'n8n',
			options,
		});
		const enrich = (options: Record<string, unknown>, extra: Partial<RunNodeOptions> = {}) =>
			runNode({
				nodeType: new NexthinkEnrichment(),
				parameters: enrichParameters(options) as never,
				items: [{ json: { name: 'LAPTOP-ZRH-001' } }],
				credentials: { nexthinkApi: nexthinkCredentials(server) },
				...extra,
			});

		// five attempts of 0.4 s each plus the transport's backoff between them (at most 7.5 s)
		it('cuts a stalled enrichment request off at the Request Timeout', async () => {
			server.injectFault({ method: 'POST', path: ENRICHMENT_PATH, delayMs: STALL_MS, times: Infinity });
			const { result, ms } = await timed(() => enrich({ requestTimeoutSeconds: 0.4 }, { onError: 'continueRegularOutput' }));
			expect(result.error).toBeUndefined();
			const outcome = result.items[0].json.enrichment as any;
			expect(outcome.status).toBe('failed');
			expect(outcome.errors[0].message).toMatch(/could not get an answer from Nexthink \((ECONNABORTED|ETIMEDOUT)[^)]*\) after 5 attempts/);
			expect(ms).toBeLessThan(40_000); // far below the server's stall
			expect(calls(ENRICHMENT_PATH)).toHaveLength(5);
		}, REAL_WAITS_TIMEOUT_MS);

		it.each([0, -5, 'abc', '', 86_401, 'Infinity'])('rejects Request Timeout %j of the Enrichment node before sending', async (value) => {
			const { error } = await enrich({ requestTimeoutSeconds: value });
			expect(error?.message).toMatch(/Request Timeout must be a number of seconds above 0 and at most 86400/);
			expect(server.requests).toHaveLength(0);
		});

		it.each([0, -5, 'abc', '', 86_401, 'Infinity'])('rejects Request Timeout %j of Execute Query before sending', async (value) => {
			const { error } = await runNode(exportNode({ operation: 'executeQuery', options: { requestTimeoutSeconds: value } }));
			expect(error?.message).toMatch(/Request Timeout must be a number of seconds above 0 and at most 86400/);
			expect(server.requests).toHaveLength(0);
		});

		// one attempt of 0.4 s, retried up to four times with backoff (at most 7.5 s)
		it('cuts a stalled Execute Query request off at its Request Timeout', async () => {
			server.injectFault({ method: 'POST', path: /\/nql\/execute$/, delayMs: STALL_MS, times: Infinity });
			const { result, ms } = await timed(() => runNode(exportNode({ operation: 'executeQuery', options: { requestTimeoutSeconds: 0.4 } })));
			expect(result.error?.message).toMatch(/could not get an answer from Nexthink \((ECONNABORTED|ETIMEDOUT)/);
			expect(ms).toBeLessThan(40_000); // far below the server's stall
		}, REAL_WAITS_TIMEOUT_MS);
	});

	describe('point 10: retry what was refused, never what may have run', () => {
		const exportsStarted = () => server.exports.size;

		it.each([
			['503', { status: 503, body: { message: 'Service unavailable' } }],
			['429 with retry-after', { status: 429, headers: { 'retry-after': '1' } }],
		])('retries a start refused with %s and starts exactly one export', async (_name, fault) => {
			const before = exportsStarted();
			server.injectFault({ method: 'POST', path: START_PATH, times: 2, ...fault });
			const { error, items } = await runNode(exportNode({ advancedOptions: { firstPollSeconds: 0 } }));
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual([{ 'device.name': 'PC-1' }, { 'device.name': 'PC-2' }]);
			expect(calls(START_PATH)).toHaveLength(3);
			expect(exportsStarted()).toBe(before + 1);
		}, REAL_WAITS_TIMEOUT_MS);

		it('retries a refused start within the Request Timeout only, and says it was refused each time', async () => {
			server.injectFault({ method: 'GET', path: START_PATH, status: 503, times: Infinity });
			const { result, ms } = await timed(() => runNode(exportNode({ operation: 'startExport', options: { requestTimeoutSeconds: 2 }, advancedOptions: { startMethod: 'GET' } })));
			expect(result.error?.message).toMatch(/Starting the export of #quick failed \(HTTP 503\)/);
			expect(result.error?.description).toMatch(/Tried [2-5] times\./);
			expect(result.error?.description).not.toMatch(/may have started/);
			expect(calls(START_PATH).length).toBeGreaterThanOrEqual(2);
			expect(ms).toBeLessThan(10_000);
		}, REAL_WAITS_TIMEOUT_MS);

		it.each([
			['a 500', { status: 500, body: { message: 'Internal error', code: 500, source: 'server' } }, /HTTP 500/],
			['a 502', { status: 502 }, /HTTP 502/],
			['a dropped connection', { drop: true }, /could not get an answer from Nexthink/],
		])('never sends a start again after %s, and says an export may have started', async (_name, fault, message) => {
			server.injectFault({ method: 'POST', path: START_PATH, times: 2, ...fault });
			const { error } = await runNode(exportNode({ operation: 'startExport' }));
			expect(error?.message).toMatch(message);
			expect(error?.description).toMatch(/The export may have started on Nexthink anyway/);
			expect(calls(START_PATH)).toHaveLength(1);
		});

		// the start request is cut off after 0.5 s; then we watch for 1 s that no second start arrives
		it('never sends a start again after a timeout, and says an export may have started', async () => {
			server.injectFault({ method: 'POST', path: START_PATH, delayMs: STALL_MS, times: 2 });
			const { error } = await runNode(exportNode({ operation: 'startExport', options: { requestTimeoutSeconds: 0.5 } }));
			expect(error?.message).toMatch(/could not get an answer from Nexthink/);
			expect(error?.description).toMatch(/The export may have started on Nexthink anyway/);
			await new Promise((resolve) => setTimeout(resolve, 1_000));
			expect(calls(START_PATH)).toHaveLength(1);
		}, REAL_WAITS_TIMEOUT_MS);
	});

	describe('point 7: clear words for what happened', () => {
		it('says a refused results URL could not be refreshed, that the export ID was a guess, and how to get a fresh URL', async () => {
			const url = `${server.baseUrl}/files/proxy-download.csv.gz?expires=1&signature=00`;
			const { error } = await runNode(exportNode({ operation: 'downloadResults', resultsSource: 'url', resultsFileUrl: url }));
			expect(error?.message).toMatch(/The results file URL was refused \(HTTP 403\): it has probably expired, and no fresh URL could be had for it/);
			expect(error?.description).toMatch(/took "proxy-download" from the URL's file name as the export ID/);
			expect(error?.description).toMatch(/HTTP 404/);
			expect(error?.description).toMatch(/Download Results by export ID/);
			expect(fileCalls()).toHaveLength(1);
		});

		it('says the same for a results URL whose host cannot be reached', async () => {
			const url = 'http://127.0.0.1:9/files/somewhere-else.csv';
			const { error } = await runNode(exportNode({ operation: 'downloadResults', resultsSource: 'url', resultsFileUrl: url }));
			expect(error?.message).toMatch(/The results file URL could not be fetched \(ECONNREFUSED\), and no fresh URL could be had for it/);
			expect(error?.description).toMatch(/took "somewhere-else" from the URL's file name/);
		});

		const cancelled = /^The execution was cancelled$/;

		it('says the execution was cancelled when it is cancelled during the wait', async () => {
			const running = startNode(exportNode({ queryId: 'never_done', advancedOptions: { firstPollSeconds: 0, maxPollIntervalSeconds: 30 } }));
			await until(() => calls(STATUS_PATH).length >= 1);
			running.cancel();
			const { error } = await running.result;
			expect(error?.message).toMatch(cancelled);
		});

		it('says the execution was cancelled when it is cancelled while a status call is retried', async () => {
			server.injectFault({ method: 'GET', path: STATUS_PATH, status: 503, headers: { 'retry-after': '30' }, times: Infinity });
			const running = startNode(exportNode({ queryId: 'never_done', advancedOptions: { firstPollSeconds: 0 } }));
			await until(() => calls(STATUS_PATH).length >= 1);
			running.cancel();
			const { error } = await running.result;
			expect(error?.message).toMatch(cancelled);
		});

		it('says the execution was cancelled when it is cancelled while the results file does not answer yet', async () => {
			server.injectFault({ method: 'GET', path: /^\/files\//, delayMs: STALL_MS });
			const running = startNode(exportNode({ advancedOptions: { firstPollSeconds: 0 } }));
			await until(() => fileCalls().length >= 1);
			running.cancel();
			const { error } = await running.result;
			expect(error?.message).toMatch(cancelled);
			expect(calls(STATUS_PATH)).toHaveLength(1); // no status call for a fresh URL
		});

		// a million rows take far longer than 0.3 s to stream, on any machine
		it('says the execution was cancelled when it is cancelled while the results file streams', async () => {
			const running = startNode(exportNode({ queryId: 'million', compression: 'NONE', advancedOptions: { firstPollSeconds: 0 } }));
			await until(() => fileCalls().length >= 1);
			await new Promise((resolve) => setTimeout(resolve, 300));
			running.cancel();
			const { error, items } = await running.result;
			expect(error?.message).toMatch(cancelled);
			expect(items).toHaveLength(0);
			expect(fileCalls()).toHaveLength(1);
		}, DATA_WORK_TIMEOUT_MS);
	});
});
