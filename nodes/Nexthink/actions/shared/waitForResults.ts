/**
 * Wait for Results (Run Remote Action, Trigger Campaign, Run Workflow): its fields (the wait options are
 * Export's, `waitField`), their checks before any request, and the wait: polls the user's status query
 * (nql/executeApi.ts, read-only) per request ID still waiting, on the Export wait's schedule
 * (nql/waitSchedule.ts); the run request is never part of it. Why: docs/decisions.md, "Actions node:
 * Wait for Results and script-input checks".
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_EXECUTE_SETTINGS, executeStoredQuery } from '../../nql/executeApi';
import { EXECUTE_ROW_LIMIT } from '../../nql/executeAnswer';
import { normaliseQueryId } from '../../nql/queryInput';
import { pollOnSchedule, readWaitOptions, waitField, type WaitSettings } from '../../nql/waitSchedule';
import { cancelSignalOf, throwIfCancelled } from '../../transport';
import { InputError } from '../../shared/inputError';
import { readBoolean } from '../../shared/parameterValues';
import { notice } from '../../shared/optionFields';
import { type AllowListKind, checkToolAllowList, toolWritesOff } from '../../shared/toolMode';
import { failureOf, type ItemFailure } from '../../shared/nodeErrors';
import type { Preparation } from '../../shared/runItems';
import { itemResults, pendingRequestIds, reachedTargets, rowsByTarget, targetKey, targetResult, type ReachedTargets, type ResultKind, type StatusRow, type TargetResult, type TargetRow, type WaitEnd, type WaitTarget } from './resultStatus';
import { readTimeoutMs } from './panelFields';

/** Targets per run request while waiting: the status rows of one request must fit in one execute answer. */
export const RESULTS_MAX_TARGETS_PER_REQUEST = EXECUTE_ROW_LIMIT;

const DEFAULT_REQUEST_ID_PARAMETER = 'request_id';

export interface ResultsWaitSettings extends WaitSettings {
	queryId: string;
	/** The query's parameter name, without `$`. */
	requestIdParameter: string;
}

/** The checks of Wait for Results of one item, on the parameter values; throws `InputError` naming the field. */
export function checkResultsWait(rawQueryId: unknown, options: Record<string, unknown>): ResultsWaitSettings {
	const queryId = attempt(() => normaliseQueryId(rawQueryId));
	if (!queryId.ok) throw new InputError(`Status Query ID: ${queryId.problem} Wait for Results runs this stored query with the request ID.`, 'Status Query ID');
	const rawParameter = options.requestIdParameter === undefined || options.requestIdParameter === '' ? DEFAULT_REQUEST_ID_PARAMETER : options.requestIdParameter;
	const requestIdParameter = typeof rawParameter === 'string' ? rawParameter.trim().replace(/^\$/, '') : '';
	if (!/^[A-Za-z0-9_]{1,100}$/.test(requestIdParameter)) {
		throw new InputError(
			`Request ID Parameter must be the name of the query's parameter (letters, digits and underscores, e.g. request_id for $request_id), got ${JSON.stringify(rawParameter)}`,
			'Request ID Parameter',
		);
	}
	const settings = attempt(() => readWaitOptions(options));
	if (!settings.ok) throw new InputError(`Options: ${settings.problem}`, 'Options');
	return { ...settings.value, queryId: queryId.value, requestIdParameter };
}

/** A check's value, or its complaint (the checks throw plain errors whose message is for the user). */
function attempt<T>(check: () => T): { ok: true; value: T } | { ok: false; problem: string } {
	try {
		return { ok: true, value: check() };
	} catch (error) {
		return { ok: false, problem: error instanceof Error ? error.message : String(error) };
	}
}

/** The message for an item that waits otherwise than the first waiting item (one wait per run), or undefined. */
export function differentWait(first: { itemIndex: number; settings: ResultsWaitSettings }, settings: ResultsWaitSettings): string | undefined {
	const keys = ['queryId', 'requestIdParameter', 'firstDelayMs', 'factor', 'maxIntervalMs', 'maxWaitMs'] as const;
	if (keys.every((key) => first.settings[key] === settings[key])) return undefined;
	return `Wait for Results must be the same for every item of a run (one wait covers them all): item ${first.itemIndex} waits with ${first.settings.queryId} and its wait options, this item differently. Use the same Status Query ID and wait options, or split the items over two nodes`;
}

/** Most request IDs one wait follows (a poll makes one NQL API call each). Why: docs/decisions.md, row "100 campaign users per run while waiting". */
export const MAX_WAIT_REQUEST_IDS = 100;

/** The NQL of the status query per table, as the README gives it (test/unit/actions/waitDescription.test.ts holds them together). */
export const STATUS_QUERY_NQL = {
	'remote_action.executions':
		'remote_action.executions during past 7d | where request_id == $request_id | list request_id, device.name, device.collector.uid, status, status_details, outputs, time',
	'workflow.executions':
		'workflow.executions during past 7d | where request_id == $request_id | list request_id, execution_id, device.name, device.collector.uid, user.sid, user.upn, status, status_details, outcome, outcome_details, time',
	'campaign.responses': 'campaign.responses during past 7d | where request_id == $request_id | list request_id, user.name, user.sid, user.upn, state, time',
} as const;

/** Wait for Results' fields, inside the run's `updateDisplayOptions`: `table` is the one the status query reads. */
export function waitForResultsProperties(table: keyof typeof STATUS_QUERY_NQL, placeholder: string): INodeProperties[] {
	const whenWaiting = { show: { waitForResults: [true] } };
	return [
		{
			displayName: 'Wait for Results',
			name: 'waitForResults',
			type: 'boolean',
			default: false,
			description: `Whether to wait until every target has a final status (read with a stored NQL API query over ${table}) and output each target's result. Off: the node returns as soon as Nexthink accepted the request.`,
		},
		notice(
			'statusQueryNotice',
			`The node reads each target's status with a stored NQL query. Create it once in Nexthink (Administration > NQL API queries) with this NQL and enter its ID in Status Query ID: ${STATUS_QUERY_NQL[table]}`,
			whenWaiting,
		),
		{
			displayName: 'Status Query ID',
			name: 'statusQueryId',
			type: 'string',
			default: '',
			required: true,
			placeholder,
			displayOptions: whenWaiting,
			description: `The ID of the stored NQL API query over ${table} given in the notice above: it takes the request ID as $request_id and lists request_id and each target's status`,
		},
	];
}

/** The wait's settings, in the run's Options (shown while Wait for Results is on). */
const WAIT_OPTIONS: INodeProperties[] = [
	waitField('firstPollSeconds', 'How long to wait before the first status query'),
	waitField('maxPollIntervalSeconds', 'The wait between two polls never grows beyond this. Two polls are always at least 1 second apart, whatever the settings.'),
	waitField(
		'maxWaitSeconds',
		'How long to wait for final statuses (1800 = 30 minutes). A hard bound. Targets still without a final status then come out marked as pending (results.complete false); nothing is sent again.',
	),
	waitField(
		'pollGrowthFactor',
		'Each wait between polls is this many times the previous one. With the defaults the polls come 2, 6, 14, 30 and 60 seconds after the run, then every 30 seconds. Each poll runs the status query once per request ID still waiting.',
	),
	{
		displayName: 'Request ID Parameter',
		name: 'requestIdParameter',
		type: 'string',
		default: DEFAULT_REQUEST_ID_PARAMETER,
		description: 'The name of the status query\'s parameter that receives the request ID (request_id for $request_id)',
	},
];

export const waitOptions = (): INodeProperties[] => WAIT_OPTIONS.map((option) => ({ ...option, displayOptions: { show: { '/waitForResults': [true] } } }));

/** An item of Run Remote Action, Run Workflow or Trigger Campaign, checked (`validateOnly`: as a tool without writes allowed). */
export interface PreparedRunItem<R> {
	run: R;
	timeoutMs: number;
	validateOnly: boolean;
	wait?: ResultsWaitSettings;
}

/**
 * `run` with the item's Request Timeout, tool mode and Wait for Results, after its object `id` is checked
 * against the tool's allow-list of `kind`; while waiting, its `targets` must fit in one status query
 * answer. A bad value throws `InputError`.
 */
export function preparedRunItem<R>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: R,
	id: string,
	kind: AllowListKind,
	targets?: { count: number; noun: string; lists: string; field: string },
): PreparedRunItem<R> {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	checkToolAllowList(ctx, options, id, kind);
	const timeoutMs = readTimeoutMs(options);
	const waits = readBoolean(ctx.getNodeParameter('waitForResults', itemIndex, false), 'Wait for Results', false);
	const wait = waits ? checkResultsWait(ctx.getNodeParameter('statusQueryId', itemIndex, ''), options) : undefined;
	if (wait !== undefined && targets !== undefined && targets.count > RESULTS_MAX_TARGETS_PER_REQUEST) {
		throw new InputError(
			`One item names ${targets.count} ${targets.noun}; with Wait for Results an item may name at most ${RESULTS_MAX_TARGETS_PER_REQUEST} (one status query answer holds about ${RESULTS_MAX_TARGETS_PER_REQUEST} rows). Split ${targets.lists} over several items`,
			targets.field,
		);
	}
	return { run, timeoutMs, validateOnly: toolWritesOff(ctx, options), ...(wait !== undefined ? { wait } : {}) };
}

/** Every waiting item waits the same way (one wait covers the run); an item that differs fails its check. */
export function checkSameWait<T extends { wait?: ResultsWaitSettings }>(preparations: Array<Preparation<T>>): void {
	let first: { itemIndex: number; settings: ResultsWaitSettings } | undefined;
	preparations.forEach((preparation, itemIndex) => {
		if (!preparation.ok || preparation.prepared.wait === undefined) return;
		if (first === undefined) {
			first = { itemIndex, settings: preparation.prepared.wait };
			return;
		}
		const problem = differentWait(first, preparation.prepared.wait);
		if (problem !== undefined) preparations[itemIndex] = { ok: false, message: problem, field: 'Wait for Results' };
	});
}

/**
 * The batched runner's `afterSending`: waits for the targets the waiting items reached (`targetsOf`
 * their outcome, followed by `targetField`), then sets each one's `results` (`annotate` may add).
 * Returns a failed status query (it stops the node under "Stop Workflow").
 */
export async function waitForItems<O extends object>(
	ctx: IExecuteFunctions,
	kind: ResultKind,
	items: ReadonlyMap<number, { wait?: ResultsWaitSettings; validateOnly: boolean; timeoutMs: number }>,
	outcomes: ReadonlyMap<number, O>,
	targetField: string,
	targetsOf: (outcome: O) => ReadonlyArray<{ requestId?: string }>,
	annotate: (results: Record<string, unknown>, reached: ReachedTargets, queryId: string) => Record<string, unknown> = (results) => results,
): Promise<ItemFailure | undefined> {
	const waiting = [...items].filter(([, prepared]) => prepared.wait !== undefined && !prepared.validateOnly);
	const settings = waiting[0]?.[1].wait;
	if (settings === undefined) return undefined;
	const reachedBy = (outcome: O | undefined) => reachedTargets(outcome === undefined ? [] : targetsOf(outcome), targetField);
	const reached = new Map(waiting.map(([itemIndex]) => [itemIndex, reachedBy(outcomes.get(itemIndex))]));
	const targets = new Map<string, WaitTarget>();
	for (const { followed } of reached.values()) {
		for (const { id, requestId } of followed) targets.set(targetKey({ requestId, target: id }), { requestId, target: id });
	}
	// nothing reached (every request failed, or no target could be followed): nothing is polled
	const wait = await waitForResults(ctx, kind, [...targets.values()], settings, { timeoutMs: waiting[0][1].timeoutMs });
	for (const [itemIndex, itemReached] of reached) {
		if (itemReached.followed.length === 0 && itemReached.unfollowed === 0) continue;
		const results = itemResults(targetField, itemReached.followed, wait.resultOf, { ...wait, queryId: settings.queryId, maxWaitMs: settings.maxWaitMs });
		(outcomes.get(itemIndex) as { results?: unknown }).results = annotate(results, itemReached, settings.queryId);
	}
	return wait.error;
}

/** How the wait ended (`error`: the status query failed), and what each target came to. */
type ResultsWaitOutcome = Omit<WaitEnd, 'queryId' | 'maxWaitMs'> & { resultOf(target: WaitTarget): TargetResult };

/** Polls until every target is final, Maximum Wait runs out, or the status query fails; throws only when cancelled. */
export async function waitForResults(
	ctx: IExecuteFunctions,
	kind: ResultKind,
	targets: readonly WaitTarget[],
	settings: ResultsWaitSettings,
	options: { timeoutMs: number },
): Promise<ResultsWaitOutcome> {
	const startedAt = Date.now();
	const rowsByRequest = new Map<string, Map<string, TargetRow>>();
	const end = (polls: number, timedOut: boolean, error?: ResultsWaitOutcome['error']): ResultsWaitOutcome => ({
		timedOut,
		polls,
		waitedMs: Date.now() - startedAt,
		...(error !== undefined ? { error } : {}),
		resultOf: (target) => targetResult(target, rowsByRequest.get(target.requestId)),
	});
	let pending = pendingRequestIds(targets, rowsByRequest);
	if (pending.length === 0) return end(0, false);
	let polls = 0;
	try {
		const wait = await pollOnSchedule(ctx, settings, async (deadline) => {
			polls++;
			for (const requestId of pending) {
				const rows = await runStatusQuery(ctx, settings, requestId, { deadline, timeoutMs: options.timeoutMs });
				rowsByRequest.set(requestId, rowsByTarget(kind, settings.queryId, requestId, rows));
			}
			pending = pendingRequestIds(targets, rowsByRequest);
			return pending.length === 0;
		});
		return end(wait.polls, wait.timedOut);
	} catch (error) {
		// a cancel ends the run; a failed status query ends only the wait
		throwIfCancelled(ctx, cancelSignalOf(ctx));
		return end(polls, false, statusQueryFailure(error));
	}
}

const STATUS_QUERY_HINTS = {
	400: 'Nexthink refused to run the status query. Check that it takes the request ID as the parameter named in "Request ID Parameter" (default $request_id).',
	403: 'Running the status query needs the "NQL API" permission on the Nexthink API credential (Administration > API credentials), besides the permission that triggered the run.',
	404: 'No NQL API query has this ID. Create it under Administration > NQL API queries with the NQL the README gives (section "Wait for Results"), or correct the Status Query ID.',
};

/** One status call: the rows of one request ID (POST /api/v2/nql/execute, as Execute Query reads it). */
async function runStatusQuery(ctx: IExecuteFunctions, settings: ResultsWaitSettings, requestId: string, options: { deadline: number; timeoutMs: number }): Promise<StatusRow[]> {
	const { result } = await executeStoredQuery(
		ctx,
		{ queryId: settings.queryId, parameters: { [settings.requestIdParameter]: requestId } },
		{ ...DEFAULT_EXECUTE_SETTINGS, apiVersion: 'v2', utcTimestamps: false, timeoutMs: options.timeoutMs },
		undefined,
		{ action: `Reading the results of request ${requestId} with ${settings.queryId}`, hints: STATUS_QUERY_HINTS, deadline: options.deadline },
	);
	return result.rows;
}

/** A failed status query, in words that say the run itself went out and is not sent again. */
function statusQueryFailure(error: unknown): { message: string; description?: string; httpCode?: string } {
	const described = failureOf(error);
	const httpCode = typeof (error as { httpCode?: unknown }).httpCode === 'string' ? (error as { httpCode: string }).httpCode : undefined;
	const sent = 'The run itself was sent and is not sent again: its request ID is in the output. Fix the status query, then read the results with Execute Query (Nexthink Export node) and the request ID.';
	return {
		message: `Waiting for results stopped: ${described.message}`,
		description: [described.description, sent].filter((part) => part !== undefined && part !== '').join(' '),
		...(httpCode !== undefined ? { httpCode } : {}),
	};
}
