/**
 * Nexthink Actions, Wait for Results, through n8n-core's real engine (both generations) against the
 * local server: Run Remote Action, Trigger Campaign and Run Workflow poll a stored status query
 * (defined by the exact NQL the README gives) until every target is final, stop at Maximum Wait with
 * the pending targets marked, end on cancel, and report a failing status query per item without ever
 * sending the run again. Pairing with grouping (workflows: by execution ID), the 1,000-target split
 * while waiting, and duplicates.
 *
 * Every test runs against both spellings of the status queries' columns and both sets of
 * not-yet-final states the server can answer (VARIANTS below); a row of another request never
 * completes the wait, and a state the node does not know keeps a target waiting and is named.
 *
 * Timing: the server's executions become final after `actionCompleteAfterPolls` reads, so most tests
 * finish on the first poll (First Poll After 0). Tests that need a second poll wait for the 1 s
 * minimum gap between polls and say so in their timeout.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { NexthinkActions } from '../../../nodes/Nexthink/actions/NexthinkActions.node';
import { nexthinkCredentials, startNode, type RunNodeOptions, type RunNodeResult } from '../../helpers/harness';
import { localServerHooks } from '../../helpers/localServer';
import { FEW_N8N_RUNS_TIMEOUT_MS, REAL_WAITS_TIMEOUT_MS } from '../../helpers/timeouts';
import { locator, mapperValue as inputs, paired, runActions } from './helpers';

const { startNexthinkServer } = require('../../server');
const { STATUS_QUERY_NQL, STATUSES, TABLES, spellColumn } = require('../../server/actions');

type ActionKind = 'remote_action' | 'workflow' | 'campaign';

const EXECUTE = '/api/v1/act/execute';
const TRIGGER = '/api/v1/euf/campaign/trigger';
const WORKFLOW_V2 = '/api/v2/workflows/execute';
const WORKFLOW_V1 = '/api/v1/workflows/execute';
const NQL_EXECUTE = '/api/v2/nql/execute';
const C1 = 'e0000000-0000-4000-8000-000000000001';
const C2 = 'e0000000-0000-4000-8000-000000000002';
// a Collector the server does not know: its execution never picks the remote action up
const OFFLINE = 'e9999999-0000-4000-8000-000000000001';
const ALICE = 'S-1-5-21-1004336348-1177238915-682003330-1001';
const BOB = 'S-1-5-21-1004336348-1177238915-682003330-1002';

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer({ tokenLifetimeSeconds: 24 * 3600 });
	server.addActionStatusQuery({ id: '#ra_status', nql: STATUS_QUERY_NQL['remote_action.executions'] });
	server.addActionStatusQuery({ id: '#campaign_status', nql: STATUS_QUERY_NQL['campaign.responses'] });
	server.addActionStatusQuery({ id: '#wf_status', nql: STATUS_QUERY_NQL['workflow.executions'] });
	// a query that does not filter by the request ID: it returns every request's rows (of a remote
	// action only these tests run, so that the answer stays far below the 1,000 rows execute returns)
	server.addRemoteAction({ id: '#collect_logs', name: 'Collect logs' });
	server.addActionStatusQuery({ id: '#ra_every_request', nql: 'remote_action.#collect_logs.executions during past 7d | list request_id, device.collector.uid, status, status_details' });
	// Bob never answers this one: it stays pending
	server.addCampaign({ id: '#slow_survey', name: 'Slow survey', outcome: (target: any) => (target.object?.sid === BOB ? { never: true } : undefined) });
});

localServerHooks(() => server);

beforeEach(() => {
	server.options.actionCompleteAfterPolls = 0;
});

function runParameters(waitOptions: IDataObject = {}, extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'remoteAction',
		operation: 'run',
		remoteAction: locator('#clear_teams_cache'),
		collectorUids: '={{ $json.collector }}',
		scriptInputs: inputs({}),
		waitForResults: true,
		statusQueryId: '#ra_status',
		options: { firstPollSeconds: 0, ...waitOptions },
		...extra,
	};
}

function campaignParameters(waitOptions: IDataObject = {}, extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'campaign',
		operation: 'trigger',
		campaignId: '#it_satisfaction',
		userSids: '={{ $json.sid }}',
		campaignExpiresInMinutes: 60,
		waitForResults: true,
		statusQueryId: 'campaign_status',
		options: { firstPollSeconds: 0, ...waitOptions },
		...extra,
	};
}

const run = async (parameters: INodeParameters, items: IDataObject[], options: Partial<RunNodeOptions> = {}): Promise<RunNodeResult> =>
	await runActions(server, parameters, items, options);

const calls = (path: string) => server.requests.filter((r: any) => r.method === 'POST' && r.path === path);
const statusCalls = () => calls(NQL_EXECUTE).map((r: any) => JSON.parse(r.body));
const raOutcome = (item: INodeExecutionData) => item.json.nexthinkRemoteAction as IDataObject;
const campaignOutcome = (item: INodeExecutionData) => item.json.nexthinkCampaign as IDataObject;
const results = (outcome: IDataObject) => outcome.results as IDataObject & { targets: IDataObject[] };

function workflowParameters(waitOptions: IDataObject = {}, extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'workflow',
		operation: 'run',
		workflow: locator('#onboard_user_device'),
		workflowApiVersion: 'v2',
		workflowDevices: '={{ $json.device }}',
		workflowDeviceIdType: 'collectorUid',
		workflowUsers: '={{ $json.user }}',
		workflowUserIdType: 'sid',
		workflowParameters: inputs({ site: 'Lisboa' }),
		waitForResults: true,
		statusQueryId: '#wf_status',
		options: { firstPollSeconds: 0, ...waitOptions },
		...extra,
	};
}

const workflowOutcome = (item: INodeExecutionData) => item.json.nexthinkWorkflow as IDataObject & { targets: IDataObject[]; executionIds: string[] };
const manyUids = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}-0000-4000-8000-${String(index).padStart(12, '0')}`);
const manySids = (base: number, count: number) => Array.from({ length: count }, (_, index) => `S-1-5-21-1-2-3-${base + index}`);

/**
 * What Nexthink may answer where its docs are silent (https://docs.nexthink.com/api shows neither):
 * column names short (`status`) or fully qualified
 * (`remote_action.execution.status`), and not-yet-final states the node lists (`pending`) or does
 * not (`waiting_for_device`, `targeted`). Every test runs in both variants; together they cover
 * each spelling and each set of states.
 */
const VARIANTS = [
	{ columns: 'short', waiting: 'listed' },
	{ columns: 'qualified', waiting: 'unlisted' },
] as const;

describe.each(VARIANTS)('status queries answering $columns column names and $waiting waiting states', ({ columns, waiting }) => {
	beforeEach(() => {
		server.options.actionColumnNames = columns;
		server.options.actionWaitingStates = waiting;
	});

	/** A column of a status query's answer as this variant names it. */
	const col = (kind: ActionKind, name: string): string => spellColumn(kind, name, columns);
	/** A row of a status query's answer, written with short names, as this variant names its columns. */
	const spelled = (kind: ActionKind, row: IDataObject): IDataObject => Object.fromEntries(Object.entries(row).map(([name, value]) => [col(kind, name), value]));
	/** The server's not-yet-final statuses of a table in this variant, in the order an execution shows them. */
	const waitingStates = (kind: ActionKind): string[] => STATUSES[kind][waiting === 'listed' ? 'waiting' : 'unlistedWaiting'];
	/**
	 * An item's results at Maximum Wait name the states of its pending targets when the node does
	 * not know them (the unlisted variant), and only then.
	 */
	const expectStatesNamed = (waited: IDataObject & { targets: IDataObject[] }) => {
		const states = [...new Set(waited.targets.filter((target) => target.final === false && target.status !== null).map((target) => target.status as string))];
		if (waiting === 'listed' || states.length === 0) {
			expect(waited).not.toHaveProperty('unknownStates');
			expect(waited.targets.every((target) => !('unknownStatus' in target))).toBe(true);
			return;
		}
		expect(waited.unknownStates).toEqual(states);
		expect(waited.message).toContain(`the node does not know as final or waiting (${states.map((state) => `"${state}"`).join(', ')})`);
		expect(waited.targets.filter((target) => target.unknownStatus === true).map((target) => target.status)).toEqual(
			waited.targets.filter((target) => target.final === false && target.status !== null).map((target) => target.status),
		);
	};

	describe('Run Remote Action: Wait for Results', () => {
		it('polls the status query with the request ID until every device is final, and pairs each device with its items', async () => {
			const result = await run(runParameters(), [{ collector: C1 }, { collector: [C2, C1] }, { collector: C1 }]);
			expect(result.error).toBeUndefined();
			expect(calls(EXECUTE)).toHaveLength(1);
			const requestId = raOutcome(result.items[0]).requestId;
			// one poll, one status call for the one request ID, in the documented execute shape
			expect(statusCalls()).toEqual([{ queryId: '#ra_status', parameters: { request_id: requestId } }]);
			expect(result.items.map(paired)).toEqual([0, 1, 2]);
			expect(results(raOutcome(result.items[0]))).toMatchObject({ complete: true, finished: 1, pending: 0, timedOut: false, statusQueryId: '#ra_status', polls: 1 });
			expect(results(raOutcome(result.items[1])).targets).toEqual([
				{
					collectorUid: C2,
					requestId,
					status: 'success',
					statusDetails: '',
					final: true,
					row: spelled('remote_action', {
						request_id: requestId,
						'device.name': 'LAPTOP-ZRH-002',
						'device.collector.uid': C2,
						status: 'success',
						status_details: '',
						outputs: expect.any(String),
						time: expect.any(String),
					}),
				},
				expect.objectContaining({ collectorUid: C1, requestId, status: 'success', final: true }),
			]);
			// the duplicate of item 0 reports the same execution
			expect(results(raOutcome(result.items[2])).targets).toEqual(results(raOutcome(result.items[0])).targets);
			expect(raOutcome(result.items[0]).status).toBe('triggered');
		});

		it(
			'keeps polling while devices are not final yet',
			async () => {
				server.options.actionCompleteAfterPolls = 1;
				const result = await run(runParameters(), [{ collector: C1 }]);
				expect(result.error).toBeUndefined();
				expect(statusCalls()).toHaveLength(2);
				expect(results(raOutcome(result.items[0]))).toMatchObject({ complete: true, polls: 2, targets: [{ collectorUid: C1, status: 'success', final: true }] });
				expect(results(raOutcome(result.items[0]))).not.toHaveProperty('unknownStates');
			},
			// two polls, at least 1 s apart by contract
			15_000,
		);

		it(
			'reads this run\'s rows only: an older request\'s success for the same device does not complete the wait',
			async () => {
				// an earlier run on C1 that succeeded: its row stays in remote_action.executions
				const earlier = await run(runParameters({}, { remoteAction: locator('#collect_logs'), waitForResults: false }), [{ collector: C1 }]);
				const earlierId = raOutcome(earlier.items[0]).requestId;
				server.options.actionCompleteAfterPolls = 0;
				const [earlierRow] = server.actions.rows('remote_action.executions', 'request_id', earlierId);
				expect(earlierRow[TABLES['remote_action.executions'].header.indexOf('status')]).toBe('success');
				server.clearRequests();
				// this run's execution is final on its second read; the query returns every request's rows
				server.options.actionCompleteAfterPolls = 1;
				const result = await run(runParameters({}, { remoteAction: locator('#collect_logs'), statusQueryId: '#ra_every_request' }), [{ collector: C1 }]);
				expect(result.error).toBeUndefined();
				const requestId = raOutcome(result.items[0]).requestId;
				expect(requestId).not.toBe(earlierId);
				// the first poll's answer held the earlier success for C1 beside this run's first state
				expect(statusCalls()).toHaveLength(2);
				const waited = results(raOutcome(result.items[0]));
				expect(waited).toMatchObject({ complete: true, polls: 2, targets: [{ collectorUid: C1, requestId, status: 'success', final: true }] });
				expect(waited.targets[0].row).toEqual(spelled('remote_action', { request_id: requestId, 'device.collector.uid': C1, status: 'success', status_details: '' }));
			},
			// two polls, at least 1 s apart by contract
			15_000,
		);

		it(
			'an older request\'s success for the same device is never this run\'s result, even at Maximum Wait',
			async () => {
				const earlier = await run(runParameters({}, { remoteAction: locator('#collect_logs'), waitForResults: false }), [{ collector: C1 }]);
				server.options.actionCompleteAfterPolls = 0;
				server.actions.rows('remote_action.executions', 'request_id', raOutcome(earlier.items[0]).requestId);
				server.clearRequests();
				// this run never ends: the earlier success is the only success the query returns for C1
				server.options.actionCompleteAfterPolls = 1_000;
				const result = await run(runParameters({ maxWaitSeconds: 1.5 }, { remoteAction: locator('#collect_logs'), statusQueryId: '#ra_every_request' }), [{ collector: C1 }]);
				// polls at 0 and 1 s; one only when the machine is busy
				expect(statusCalls().length).toBeGreaterThanOrEqual(1);
				expect(statusCalls().length).toBeLessThanOrEqual(2);
				const waited = results(raOutcome(result.items[0]));
				const requestId = raOutcome(result.items[0]).requestId;
				expect(waited).toMatchObject({ complete: false, finished: 0, pending: 1, timedOut: true });
				expect(waited.targets).toEqual([
					expect.objectContaining({
						collectorUid: C1,
						requestId,
						status: expect.stringMatching(new RegExp(`^(${waitingStates('remote_action').join('|')})$`)),
						final: false,
						row: expect.objectContaining({ [col('remote_action', 'request_id')]: requestId }),
					}),
				]);
				expectStatesNamed(waited);
			},
			// two polls 1 s apart, then the wait ends at 1.5 s
			15_000,
		);

		it(
			'at Maximum Wait: the item says which devices are still pending, nothing fails and nothing is sent again',
			async () => {
				const result = await run(runParameters({ maxWaitSeconds: 1.5 }), [{ collector: [C1, OFFLINE] }]);
				expect(result.error).toBeUndefined();
				expect(calls(EXECUTE)).toHaveLength(1);
				const outcome = raOutcome(result.items[0]);
				expect(outcome.status).toBe('triggered');
				const waited = results(outcome);
				expect(waited).toMatchObject({ complete: false, finished: 1, pending: 1, timedOut: true });
				expect(waited.message).toMatch(
					/^1 of 2 targets had no final status when Maximum Wait \(1\.5 s\) ran out\. They may still finish: nothing was sent again; read them later with #ra_status and the request ID\./,
				);
				expect(waited.targets.map((target) => [target.collectorUid, target.status, target.final])).toEqual([
					[C1, 'success', true],
					// the second waiting state from its second read on; the first when a busy machine left time for one poll only
					[OFFLINE, expect.stringMatching(new RegExp(`^(${waitingStates('remote_action').join('|')})$`)), false],
				]);
				expectStatesNamed(waited);
				// polls at 0 and 1 s (the next would come after the deadline); one only when the machine is busy
				expect(statusCalls().length).toBeGreaterThanOrEqual(1);
				expect(statusCalls().length).toBeLessThanOrEqual(2);
			},
			// two polls 1 s apart, then the wait ends at 1.5 s
			15_000,
		);

		it(
			'a status answer still arriving when Maximum Wait runs out ends the wait as timed out, not as a failure',
			async () => {
				// the first status answer sends 10 bytes and then nothing: only the deadline can end its read
				server.injectFault({ path: NQL_EXECUTE, stallAfterBytes: 10 });
				const result = await run(runParameters({ maxWaitSeconds: 1.5 }), [{ collector: C1 }]);
				expect(result.error).toBeUndefined();
				expect(calls(EXECUTE)).toHaveLength(1);
				expect(statusCalls()).toHaveLength(1);
				const waited = results(raOutcome(result.items[0]));
				expect(waited).toMatchObject({ complete: false, pending: 1, timedOut: true, polls: 1 });
				expect(waited.error).toBeUndefined();
			},
			// one poll at 0 s, cut at 1.5 s
			15_000,
		);

		it('Maximum Wait 0 does not poll: every device is reported as not yet read', async () => {
			const result = await run(runParameters({ maxWaitSeconds: 0 }), [{ collector: C1 }]);
			expect(statusCalls()).toHaveLength(0);
			expect(results(raOutcome(result.items[0]))).toMatchObject({ complete: false, pending: 1, timedOut: true, targets: [{ collectorUid: C1, status: null, final: false }] });
		});

		it('ends at once with "The execution was cancelled" when the execution is cancelled during the wait', async () => {
			const running = startNode({
				nodeType: new NexthinkActions(),
				// first poll after 10 ms, the next 10 s later: the cancel comes during that sleep
				parameters: runParameters({ firstPollSeconds: 0.01, pollGrowthFactor: 1000, maxPollIntervalSeconds: 30 }),
				items: [{ json: { collector: OFFLINE } }],
				credentials: { nexthinkApi: nexthinkCredentials(server) },
			});
			for (let tries = 0; statusCalls().length < 1 && tries < 500; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
			running.cancel();
			const { error } = await running.result;
			expect(error?.message).toBe('The execution was cancelled');
			expect(calls(EXECUTE)).toHaveLength(1);
			expect(statusCalls()).toHaveLength(1);
		});

		describe('a status query that fails: a clear error per item, the run reported as sent and never sent again', () => {
			it('unknown query ID (404), Continue: the item keeps its request ID and says why the wait stopped', async () => {
				const result = await run(runParameters({}, { statusQueryId: '#no_such_status_query' }), [{ collector: C1 }, { collector: C2 }], {
					onError: 'continueRegularOutput',
				});
				expect(result.error).toBeUndefined();
				expect(calls(EXECUTE)).toHaveLength(1);
				for (const item of result.items) {
					const outcome = raOutcome(item);
					expect(outcome.status).toBe('triggered');
					expect(outcome.requestId).toEqual(expect.any(String));
					const waited = results(outcome);
					expect(waited.complete).toBe(false);
					expect(waited.error).toMatchObject({ message: expect.stringMatching(/^Waiting for results stopped: .*HTTP 404/), httpCode: '404' });
					expect((waited.error as IDataObject).description).toContain('Administration > NQL API queries');
					expect((waited.error as IDataObject).description).toContain('not sent again');
				}
				// the wait stopped at the first failed call
				expect(statusCalls()).toHaveLength(1);
			});

			it('unknown query ID, Stop Workflow: the node fails naming the request that ran', async () => {
				const result = await run(runParameters({}, { statusQueryId: '#no_such_status_query' }), [{ collector: C1 }]);
				expect(calls(EXECUTE)).toHaveLength(1);
				const [requestId] = [...server.actions.requests.values()].filter((request: any) => request.body.devices?.[0] === C1).map((request: any) => request.requestId).slice(-1);
				expect(result.error?.message).toMatch(/^Waiting for results stopped: .*HTTP 404/);
				expect(result.error?.description).toContain('not sent again');
				expect(result.error?.description).toContain(`1 earlier request of this run did run (request ID ${requestId})`);
			});

			it(
				'a 5xx that outlasts the retries: Continue (using error output) keeps the triggered item on the main output with the error',
				async () => {
					server.injectFault({ path: NQL_EXECUTE, status: 500, body: { message: 'internal' }, times: Infinity });
					const result = await run(runParameters({ maxWaitSeconds: 2 }), [{ collector: C1 }], { onError: 'continueErrorOutput' });
					expect(result.error).toBeUndefined();
					expect(calls(EXECUTE)).toHaveLength(1);
					expect(result.outputs[1] ?? []).toEqual([]);
					const outcome = raOutcome(result.outputs[0][0]);
					expect(outcome.status).toBe('triggered');
					expect(results(outcome).error).toMatchObject({ message: expect.stringMatching(/^Waiting for results stopped: .*HTTP 500/), httpCode: '500' });
					// the status call was retried (it is read-only), the run request never
					expect(statusCalls().length).toBeGreaterThanOrEqual(1);
				},
				// the transport's retries of the 500 are bounded by the 2 s Maximum Wait
				15_000,
			);

			it('a login page in place of the execute answer: read as Execute Query reads it, the wait stops saying what answered', async () => {
				server.injectFault({ path: NQL_EXECUTE, status: 200, body: '<html>Sign in</html>', contentType: 'text/html', times: Infinity });
				const result = await run(runParameters({}), [{ collector: C1 }], { onError: 'continueRegularOutput' });
				expect(result.error).toBeUndefined();
				expect(calls(EXECUTE)).toHaveLength(1);
				const outcome = raOutcome(result.items[0]);
				expect(outcome.status).toBe('triggered');
				expect(results(outcome).error).toMatchObject({
					message: expect.stringMatching(/^Waiting for results stopped: Reading the results of request .+ got an unexpected answer \(HTTP 200, text\/html\) from .+: the execute answer is not a JSON object\.$/),
					description: expect.stringContaining('A proxy or login page may have answered instead of Nexthink'),
				});
				expect(statusCalls()).toHaveLength(1);
			});

			it('a query that does not list the status column says which column to add', async () => {
				server.addActionStatusQuery({ id: '#ra_no_status', nql: 'remote_action.executions during past 7d | where request_id == $request_id | list request_id, device.collector.uid' });
				const result = await run(runParameters({}, { statusQueryId: '#ra_no_status' }), [{ collector: C1 }], { onError: 'continueRegularOutput' });
				expect((results(raOutcome(result.items[0])).error as IDataObject).message).toContain(
					`The status query #ra_no_status does not list "status" (short or fully-qualified). The columns that arrived: "${col('remote_action', 'request_id')}", "device.collector.uid".`,
				);
			});

			it('a query that does not list the request ID column says so: its rows cannot be told from another request\'s', async () => {
				server.addActionStatusQuery({ id: '#ra_no_request_id', nql: 'remote_action.executions during past 7d | where request_id == $request_id | list device.name, device.collector.uid, status' });
				const result = await run(runParameters({}, { statusQueryId: '#ra_no_request_id' }), [{ collector: C1 }], { onError: 'continueRegularOutput' });
				const waited = results(raOutcome(result.items[0]));
				expect(waited).toMatchObject({ complete: false, polls: 1 });
				expect((waited.error as IDataObject).message).toContain(
					`The status query #ra_no_request_id does not list "request_id" (short or fully-qualified). The columns that arrived: "device.name", "device.collector.uid", "${col('remote_action', 'status')}".`,
				);
				expect(calls(EXECUTE)).toHaveLength(1);
			});
		});

		it(
			'while waiting, requests carry at most 1,000 devices so that each request\'s rows fit in one status answer',
			async () => {
				const uids = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}-0000-4000-8000-${String(index).padStart(12, '0')}`);
				const first = uids('e1111111', 800);
				const second = uids('e2222222', 700);
				// unknown devices never reach a final status, so the wait runs to its Maximum Wait: long enough
				// for the first poll to ask for both requests even on a busy machine
				const result = await run(runParameters({ maxWaitSeconds: 10 }), [{ collector: first }, { collector: second }]);
				expect(result.error).toBeUndefined();
				const bodies = calls(EXECUTE).map((r: any) => JSON.parse(r.body));
				expect(bodies.map((body: IDataObject) => (body.devices as string[]).length)).toEqual([800, 700]);
				const [a, b] = result.items.map(raOutcome);
				expect(a.requestId).not.toEqual(b.requestId);
				// each status call asks for one request ID, and the polls asked for both
				const asked = statusCalls().map((body: IDataObject) => (body.parameters as IDataObject).request_id);
				expect(new Set(asked)).toEqual(new Set([a.requestId, b.requestId]));
				expect(results(a).targets).toHaveLength(800);
				expect(results(b).targets).toHaveLength(700);
				// unknown devices never finish: each is paired with its own request, read (a status row) and not final
				expect(results(a).targets.every((target) => target.requestId === a.requestId && target.status !== null && target.final === false)).toBe(true);
				expect(results(b).targets.every((target) => target.requestId === b.requestId && target.status !== null && target.final === false)).toBe(true);
			},
			// 1,500 devices through the engine and the status answers, and the 10 s Maximum Wait
			REAL_WAITS_TIMEOUT_MS,
		);

		it('refuses an item of more than 1,000 devices while waiting, before any request', async () => {
			const many = Array.from({ length: 1001 }, (_, index) => `e3333333-0000-4000-8000-${String(index).padStart(12, '0')}`);
			const result = await run(runParameters(), [{ collector: many }]);
			expect(result.error?.message).toContain('with Wait for Results an item may name at most 1000');
			expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toEqual([]);
		});

		it.each([
			['a Status Query ID that cannot be one', { statusQueryId: 'Status Query!' }, 'Status Query ID: The query ID "Status Query!" has characters'],
			['an empty Status Query ID (from an expression)', { statusQueryId: '={{ $json.none }}' }, 'Status Query ID: The query ID is empty'],
			['a negative Maximum Wait', { options: { maxWaitSeconds: -1 } }, 'Options: Maximum Wait must be a number of seconds of 0 or more, got -1'],
			['a bad Request ID Parameter', { options: { requestIdParameter: 'request id' } }, 'Request ID Parameter must be the name of the query\'s parameter'],
		])('refuses %s before any request', async (_label, extra, message) => {
			const result = await run(runParameters({}, extra as INodeParameters), [{ collector: C1 }]);
			expect(result.error?.message).toContain(message);
			expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toEqual([]);
		});

		it('items that wait differently: Continue fails the second, sends and waits for the first', async () => {
			const result = await run(runParameters({}, { statusQueryId: '={{ $json.query }}' }), [{ collector: C1, query: '#ra_status' }, { collector: C2, query: '#other_status' }], {
				onError: 'continueRegularOutput',
			});
			expect(raOutcome(result.items[1])).toMatchObject({ status: 'failed', error: { field: 'Wait for Results', message: expect.stringContaining('must be the same for every item') } });
			expect(results(raOutcome(result.items[0])).complete).toBe(true);
			expect(calls(EXECUTE).map((r: any) => JSON.parse(r.body).devices)).toEqual([[C1]]);
		});

		it('without Wait for Results the node returns at once: no status query', async () => {
			const result = await run(runParameters({}, { waitForResults: false }), [{ collector: C1 }]);
			expect(raOutcome(result.items[0])).not.toHaveProperty('results');
			expect(statusCalls()).toEqual([]);
		});
	});

	describe('Trigger Campaign: Wait for Results', () => {
		it('reads each user\'s request ID (one status call each) until every answer is final', async () => {
			const result = await run(campaignParameters(), [{ sid: [ALICE, BOB] }, { sid: ALICE }]);
			expect(result.error).toBeUndefined();
			expect(calls(TRIGGER)).toHaveLength(1);
			const users = campaignOutcome(result.items[0]).users as IDataObject[];
			expect(statusCalls().map((body: IDataObject) => body.parameters)).toEqual(users.map((user) => ({ request_id: user.requestId })));
			expect(results(campaignOutcome(result.items[0]))).toMatchObject({ complete: true, finished: 2 });
			expect(results(campaignOutcome(result.items[0])).targets.map((target) => [target.userSid, target.requestId, target.status, target.final])).toEqual([
				[ALICE, users[0].requestId, 'answered', true],
				[BOB, users[1].requestId, 'answered', true],
			]);
			expect(results(campaignOutcome(result.items[1])).targets).toEqual([results(campaignOutcome(result.items[0])).targets[0]]);
			expect((results(campaignOutcome(result.items[0])).targets[0].row as IDataObject)['user.upn']).toBe('alice.martin@example.com');
			expect((results(campaignOutcome(result.items[0])).targets[0].row as IDataObject)[col('campaign', 'state')]).toBe('answered');
		});

		it(
			'users who have not answered yet keep the wait going: the first poll does not complete it',
			async () => {
				server.options.actionCompleteAfterPolls = 1;
				const result = await run(campaignParameters(), [{ sid: [ALICE, BOB] }]);
				expect(result.error).toBeUndefined();
				const waited = results(campaignOutcome(result.items[0]));
				// poll 1: both not answered yet (the first waiting state); poll 2: both answered
				expect(statusCalls()).toHaveLength(4);
				expect(waited).toMatchObject({ complete: true, finished: 2, pending: 0, polls: 2 });
				expect(waited.targets.map((target) => [target.userSid, target.status, target.final])).toEqual([
					[ALICE, 'answered', true],
					[BOB, 'answered', true],
				]);
			},
			// two polls, at least 1 s apart by contract
			15_000,
		);

		it(
			'at Maximum Wait the users who did not answer are pending',
			async () => {
				const result = await run(campaignParameters({ maxWaitSeconds: 1.2 }, { campaignId: '#slow_survey' }), [{ sid: [ALICE, BOB] }]);
				expect(result.error).toBeUndefined();
				const waited = results(campaignOutcome(result.items[0]));
				expect(waited).toMatchObject({ complete: false, finished: 1, pending: 1, timedOut: true });
				expect(waited.targets.map((target) => [target.userSid, target.status, target.final])).toEqual([
					[ALICE, 'answered', true],
					[BOB, waitingStates('campaign')[0], false],
				]);
				expectStatesNamed(waited);
				// the first poll reads both requests, a later one only Bob's (one poll only when the machine is busy)
				const asked = statusCalls().map((body: IDataObject) => (body.parameters as IDataObject).request_id);
				expect(asked.length).toBeGreaterThanOrEqual(2);
				expect(new Set(asked.slice(2))).toEqual(new Set(asked.slice(2).length > 0 ? [waited.targets[1].requestId] : []));
			},
			// two polls 1 s apart
			15_000,
		);

		it('a failing status query: Continue keeps every user\'s request ID and the error', async () => {
			const result = await run(campaignParameters({}, { statusQueryId: '#missing_status' }), [{ sid: ALICE }], { onError: 'continueRegularOutput' });
			expect(calls(TRIGGER)).toHaveLength(1);
			const outcome = campaignOutcome(result.items[0]);
			expect(outcome).toMatchObject({ status: 'triggered', requestId: expect.any(String) });
			expect((results(outcome).error as IDataObject).message).toMatch(/^Waiting for results stopped: .*HTTP 404/);
		});

		it('follows at most 100 users per run: the item that goes past it fails before any request', async () => {
			const sids = Array.from({ length: 101 }, (_, index) => `S-1-5-21-1-2-3-${5000 + index}`);
			const result = await run(campaignParameters(), [{ sid: sids }]);
			expect(result.error?.message).toContain('With Wait for Results a run follows at most 100 users');
			expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toEqual([]);
		});
	});

	describe('Run Workflow: Wait for Results', () => {
		it('polls the status query with the request ID until every execution is final, and pairs each target with its items by execution ID', async () => {
			const result = await run(workflowParameters(), [{ device: [C1, OFFLINE], user: ALICE }, { device: C1, user: '' }]);
			expect(result.error).toBeUndefined();
			expect(calls(WORKFLOW_V2)).toHaveLength(1);
			const [first, second] = result.items.map(workflowOutcome);
			const requestId = first.requestId;
			expect(first.status).toBe('triggered');
			// one poll, one status call for the one request ID
			expect(statusCalls()).toEqual([{ queryId: '#wf_status', parameters: { request_id: requestId } }]);
			expect(result.items.map(paired)).toEqual([0, 1]);
			const waited = results(first);
			expect(waited).toMatchObject({ complete: true, finished: 3, pending: 0, timedOut: false, statusQueryId: '#wf_status', polls: 1 });
			// in the item's order (devices, then users); each target by the execution ID the run returned for it
			expect(waited.targets.map((target) => [target.executionId, target.requestId, target.status, target.final])).toEqual([
				[first.executionIds[0], requestId, 'success', true],
				// a Collector UID Nexthink does not know: its execution fails
				[first.executionIds[1], requestId, 'failure', true],
				[first.executionIds[2], requestId, 'success', true],
			]);
			expect(first.targets.map((target) => target.executionId)).toEqual(first.executionIds);
			expect(waited.targets[0].row).toEqual(
				spelled('workflow', {
					request_id: requestId,
					execution_id: first.executionIds[0],
					'device.name': 'LAPTOP-ZRH-001',
					'device.collector.uid': C1,
					'user.sid': '',
					'user.upn': '',
					status: 'success',
					status_details: '',
					outcome: '',
					outcome_details: '',
					time: expect.any(String),
				}),
			);
			// the status details, however the column is spelled, are kept on the target
			expect(waited.targets[1].statusDetails).toBe('No device matches the identifiers');
			expect((waited.targets[1].row as IDataObject)[col('workflow', 'status_details')]).toBe('No device matches the identifiers');
			expect((waited.targets[2].row as IDataObject)['user.upn']).toBe('alice.martin@example.com');
			// the duplicate of item 0's device reports the same execution
			expect(second.targets[0]).toMatchObject({ sentWithItem: 0, executionId: first.executionIds[0] });
			expect(results(second).targets).toEqual([waited.targets[0]]);
		});

		it(
			'keeps polling while executions are in progress (v1 as well)',
			async () => {
				server.options.actionCompleteAfterPolls = 1;
				const result = await run(workflowParameters({}, { workflow: locator('#repair_teams'), workflowApiVersion: 'v1', workflowParameters: inputs({}) }), [{ device: C1, user: '' }]);
				expect(result.error).toBeUndefined();
				expect(calls(WORKFLOW_V1)).toHaveLength(1);
				expect(statusCalls()).toHaveLength(2);
				const outcome = workflowOutcome(result.items[0]);
				expect(results(outcome)).toMatchObject({ complete: true, polls: 2, targets: [{ executionId: outcome.executionIds[0], status: 'success', final: true }] });
			},
			// two polls, at least 1 s apart by contract
			REAL_WAITS_TIMEOUT_MS,
		);

		it(
			'at Maximum Wait: the executions still waiting are pending, nothing fails and nothing is sent again',
			async () => {
				// this workflow waits for an event: a known device's execution stays "waiting"
				const result = await run(workflowParameters({ maxWaitSeconds: 3 }, { workflow: locator('#disk_cleanup_with_approval'), workflowParameters: inputs({}) }), [
					{ device: [C1, OFFLINE], user: '' },
				]);
				expect(result.error).toBeUndefined();
				expect(calls(WORKFLOW_V2)).toHaveLength(1);
				const outcome = workflowOutcome(result.items[0]);
				expect(outcome.status).toBe('triggered');
				const waited = results(outcome);
				expect(waited).toMatchObject({ complete: false, finished: 1, pending: 1, timedOut: true });
				expect(waited.message).toMatch(
					/^1 of 2 targets had no final status when Maximum Wait \(3 s\) ran out\. They may still finish: nothing was sent again; read them later with #wf_status and the request ID\./,
				);
				expect(waited.targets.map((target) => [target.executionId, target.status, target.final])).toEqual([
					[outcome.executionIds[0], waitingStates('workflow')[1], false],
					[outcome.executionIds[1], 'failure', true],
				]);
				expectStatesNamed(waited);
				// after the first poll only the waiting execution's request is read again (one poll only on a busy machine)
				expect(statusCalls().length).toBeGreaterThanOrEqual(1);
				expect(new Set(statusCalls().map((body: IDataObject) => (body.parameters as IDataObject).request_id))).toEqual(new Set([outcome.requestId]));
			},
			// polls 0 and 1 s after the run; the next would come at the 3 s Maximum Wait, so the wait ends there
			REAL_WAITS_TIMEOUT_MS,
		);

		describe('a status query that fails: the run reported as sent and never sent again', () => {
			it('Continue: every item keeps its request and execution IDs and says why the wait stopped', async () => {
				const result = await run(workflowParameters({}, { statusQueryId: '#no_such_status_query' }), [{ device: C1, user: '' }, { device: C2, user: '' }], {
					onError: 'continueRegularOutput',
				});
				expect(result.error).toBeUndefined();
				expect(calls(WORKFLOW_V2)).toHaveLength(1);
				for (const item of result.items) {
					const outcome = workflowOutcome(item);
					expect(outcome).toMatchObject({ status: 'triggered', requestId: expect.any(String), executionIds: [expect.any(String)] });
					const waited = results(outcome);
					expect(waited).toMatchObject({ complete: false, finished: 0, pending: 1, timedOut: false, polls: 1 });
					expect(waited.error).toMatchObject({ message: expect.stringMatching(/^Waiting for results stopped: .*HTTP 404/), httpCode: '404' });
					expect((waited.error as IDataObject).description).toContain('not sent again');
					expect(waited.targets).toEqual([{ executionId: outcome.executionIds[0], requestId: outcome.requestId, status: null, final: false }]);
				}
				// the wait stopped at the first failed call
				expect(statusCalls()).toHaveLength(1);
			});

			it('Stop Workflow: the node fails naming the request that ran', async () => {
				const result = await run(workflowParameters({}, { statusQueryId: '#no_such_status_query' }), [{ device: C1, user: '' }]);
				expect(calls(WORKFLOW_V2)).toHaveLength(1);
				const [request] = [...server.actions.requests.values()].filter((entry: any) => entry.kind === 'workflow').slice(-1);
				expect(result.error?.message).toMatch(/^Waiting for results stopped: .*HTTP 404/);
				expect(result.error?.description).toContain('not sent again');
				expect(result.error?.description).toContain(`1 earlier request of this run did run (request ID ${request.requestId})`);
				expect(statusCalls()).toHaveLength(1);
			});

			it('a query without execution_id says which column to add', async () => {
				server.addActionStatusQuery({ id: '#wf_no_execution', nql: 'workflow.executions during past 7d | where request_id == $request_id | list request_id, device.name, status' });
				const result = await run(workflowParameters({}, { statusQueryId: '#wf_no_execution' }), [{ device: C1, user: '' }], { onError: 'continueErrorOutput' });
				// the run went out: the item stays on the main output with the wait's error
				expect(result.outputs[1] ?? []).toEqual([]);
				const waited = results(workflowOutcome(result.outputs[0][0]));
				expect((waited.error as IDataObject).message).toContain('The status query #wf_no_execution does not list "execution_id"');
				expect((waited.error as IDataObject).message).toContain('over workflow.executions');
			});
		});

		it(
			'while waiting, requests carry at most 1,000 targets, devices and users together, and each request ID is read once a poll',
			async () => {
				// unknown targets: each execution fails on the first poll, so the wait ends after one poll
				const first = { device: manyUids('e4444444', 600), user: manySids(7000, 300) };
				const second = { device: manyUids('e5555555', 200), user: '' };
				const result = await run(workflowParameters({ maxWaitSeconds: 600 }), [first, second]);
				expect(result.error).toBeUndefined();
				const bodies = calls(WORKFLOW_V2).map((r: any) => JSON.parse(r.body));
				// 1,100 targets: without waiting one request would carry them all
				expect(bodies.map((body: IDataObject) => [(body.devices as unknown[]).length, (body.users as unknown[]).length])).toEqual([
					[600, 300],
					[200, 0],
				]);
				const [a, b] = result.items.map(workflowOutcome);
				expect(a.requestId).not.toEqual(b.requestId);
				expect(statusCalls().map((body: IDataObject) => (body.parameters as IDataObject).request_id).sort()).toEqual([a.requestId, b.requestId].sort());
				expect(results(a)).toMatchObject({ complete: true, finished: 900, polls: 1 });
				expect(results(b)).toMatchObject({ complete: true, finished: 200, polls: 1 });
				expect(results(a).targets.every((target, index) => target.requestId === a.requestId && target.executionId === a.executionIds[index] && target.status === 'failure')).toBe(true);
				expect(results(b).targets.every((target, index) => target.requestId === b.requestId && target.executionId === b.executionIds[index] && target.status === 'failure')).toBe(true);
			},
			// 1,100 targets through the engine and the status answers
			FEW_N8N_RUNS_TIMEOUT_MS,
		);

		it('refuses an item of more than 1,000 targets while waiting, before any request', async () => {
			const result = await run(workflowParameters(), [{ device: manyUids('e6666666', 600), user: manySids(8000, 401) }]);
			expect(result.error?.message).toContain('One item names 1001 targets (devices and users); with Wait for Results an item may name at most 1000');
			expect(server.requests.filter((r: any) => r.path.startsWith('/api/'))).toEqual([]);
		});

		it('targets Nexthink gave no execution ID for are not followed: the item says so and nothing is polled for them', async () => {
			// a 2xx with one execution ID for two targets: they cannot be paired with the status rows
			server.injectFault({ path: WORKFLOW_V2, status: 200, body: { requestUuid: 'a1000000-0000-4000-8000-000000000001', executionsUuids: ['a2000000-0000-4000-8000-000000000001'] } });
			const result = await run(workflowParameters(), [{ device: [C1, C2], user: '' }]);
			expect(result.error).toBeUndefined();
			const outcome = workflowOutcome(result.items[0]);
			expect(outcome).toMatchObject({ status: 'triggered', requestId: 'a1000000-0000-4000-8000-000000000001', executionIds: [], executionIdsPaired: false });
			expect(statusCalls()).toEqual([]);
			const waited = results(outcome);
			expect(waited).toMatchObject({ complete: false, finished: 0, pending: 0, unfollowed: 2, polls: 0, targets: [] });
			expect(waited.message).toContain('2 targets ran but could not be followed');
		});

		it('items that wait differently: Continue fails the second, sends and waits for the first', async () => {
			const result = await run(workflowParameters({}, { statusQueryId: '={{ $json.query }}' }), [{ device: C1, user: '', query: '#wf_status' }, { device: C2, user: '', query: '#other_status' }], {
				onError: 'continueRegularOutput',
			});
			expect(workflowOutcome(result.items[1])).toMatchObject({ status: 'failed', error: { field: 'Wait for Results', message: expect.stringContaining('must be the same for every item') } });
			expect(results(workflowOutcome(result.items[0])).complete).toBe(true);
			expect(calls(WORKFLOW_V2).map((r: any) => JSON.parse(r.body).devices)).toEqual([[{ collectorUid: C1 }]]);
		});

		it('without Wait for Results the node returns at once: no status query', async () => {
			const result = await run(workflowParameters({}, { waitForResults: false }), [{ device: C1, user: '' }]);
			expect(workflowOutcome(result.items[0])).not.toHaveProperty('results');
			expect(statusCalls()).toEqual([]);
		});
	});
});
