/**
 * Wait for Results (issue 17, point 4): after a run, polls a stored NQL API query that takes the
 * request ID as a parameter until every target has a final status or Maximum Wait runs out. The
 * pure part (columns, final statuses, pairing) is resultStatus.ts; this file reads the settings and
 * runs the polls.
 *
 * The wait behaves like the Export operation's (export/shared/waitForExport.ts): the same schedule
 * (export/shared/waitSchedule.ts: first poll, growth, longest interval, at least 1 s between two
 * polls), the same hard Maximum Wait (every status call carries the deadline, so the transport
 * cuts its timeout and retries to the time left), and n8n's cancellation through the same sleep
 * helper. One poll runs the query once for each request ID that still has a target without a final
 * status (POST /api/v2/nql/execute, read-only, so the transport may retry it). The run request is
 * never part of this loop: waiting can never send it again.
 *
 * Contract for callers (Run Remote Action, Trigger Campaign, and Workflow Run): give the targets as
 * `{ requestId, target }` (target = Collector UID, user SID, or the workflow execution ID the API
 * returned for the target) and send at most `RESULTS_MAX_TARGETS_PER_REQUEST` targets per request,
 * because one execute answer holds at most about 1,000 rows.
 *
 * A status query that fails (unknown query ID, missing permission, 5xx after the retries, a
 * query without the target or status column) ends the wait: the outcome says why, and the run
 * stays reported as sent.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DEFAULT_MAX_ANSWER_BYTES, EXECUTE_ROW_LIMIT, answerText, boundedAnswer, jsonHasMoreValuesThan, EXECUTE_MAX_VALUES, readExecuteV2, tooManyValues } from '../../export/shared/executeResponse';
import { normaliseQueryId } from '../../export/shared/queryInput';
import { checkWaitSettings, DEFAULT_WAIT_SETTINGS, MIN_POLL_GAP_MS, nextWaitMs, type WaitSettings } from '../../export/shared/waitSchedule';
import { cancelSignalOf, isNoAnswerError, nexthinkRequest, sleepUnlessCancelled } from '../../transport';
import { RunInputError } from '../remoteAction/runInput';
import { describeError, type ItemPreparation } from './runHelpers';
import { pendingRequestIds, rowsByTarget, StatusRowsError, targetResult, type ResultKind, type StatusRow, type TargetResult, type WaitTarget } from './resultStatus';

/** Targets per run request while waiting: the status rows of one request must fit in one execute answer. */
export const RESULTS_MAX_TARGETS_PER_REQUEST = EXECUTE_ROW_LIMIT;

export const DEFAULT_REQUEST_ID_PARAMETER = 'request_id';

export interface ResultsWaitSettings extends WaitSettings {
	queryId: string;
	/** The query's parameter name, without `$`. */
	requestIdParameter: string;
}

/** The field names the node shows, for messages. */
const FIELDS = {
	queryId: 'Status Query ID',
	requestIdParameter: 'Request ID Parameter',
	wait: 'Wait Options',
} as const;

/**
 * Reads Wait for Results of one item (parameters `waitForResults`, `statusQueryId`, `waitOptions`,
 * see waitDescription.ts); undefined when the item does not wait. Bad values throw `RunInputError`
 * naming the field, before any request.
 */
export function readResultsWait(ctx: IExecuteFunctions, itemIndex: number): ResultsWaitSettings | undefined {
	if (ctx.getNodeParameter('waitForResults', itemIndex, false) !== true) return undefined;
	const options = ctx.getNodeParameter('waitOptions', itemIndex, {}) as IDataObject;
	return checkResultsWait(ctx.getNodeParameter('statusQueryId', itemIndex, ''), options);
}

/** The checks of readResultsWait, on plain values. */
export function checkResultsWait(rawQueryId: unknown, options: IDataObject): ResultsWaitSettings {
	let queryId: string;
	try {
		queryId = normaliseQueryId(rawQueryId);
	} catch (error) {
		throw new RunInputError(`${FIELDS.queryId}: ${(error as Error).message} Wait for Results runs this stored query with the request ID.`, FIELDS.queryId);
	}
	const rawParameter = options.requestIdParameter === undefined || options.requestIdParameter === '' ? DEFAULT_REQUEST_ID_PARAMETER : options.requestIdParameter;
	const requestIdParameter = typeof rawParameter === 'string' ? rawParameter.trim().replace(/^\$/, '') : '';
	if (!/^[A-Za-z0-9_]{1,100}$/.test(requestIdParameter)) {
		throw new RunInputError(
			`${FIELDS.requestIdParameter} must be the name of the query's parameter (letters, digits and underscores, e.g. request_id for $request_id), got ${JSON.stringify(rawParameter)}`,
			FIELDS.requestIdParameter,
		);
	}
	const number = (name: string, fallback: number) => (options[name] === undefined || options[name] === '' ? fallback : Number(options[name]));
	let settings: WaitSettings;
	try {
		settings = checkWaitSettings({
			firstDelayMs: number('firstPollSeconds', DEFAULT_WAIT_SETTINGS.firstDelayMs / 1000) * 1000,
			factor: number('pollGrowthFactor', DEFAULT_WAIT_SETTINGS.factor),
			maxIntervalMs: number('maxPollIntervalSeconds', DEFAULT_WAIT_SETTINGS.maxIntervalMs / 1000) * 1000,
			maxWaitMs: number('maxWaitSeconds', DEFAULT_WAIT_SETTINGS.maxWaitMs / 1000) * 1000,
		});
	} catch (error) {
		throw new RunInputError(`${FIELDS.wait}: ${(error as Error).message}`, FIELDS.wait);
	}
	return { ...settings, queryId, requestIdParameter };
}

/**
 * Every item that waits must wait the same way (one wait per run): the message for an item whose
 * settings differ from the first waiting item's, or undefined when they agree.
 */
export function differentWait(first: { itemIndex: number; settings: ResultsWaitSettings }, settings: ResultsWaitSettings): string | undefined {
	const keys = ['queryId', 'requestIdParameter', 'firstDelayMs', 'factor', 'maxIntervalMs', 'maxWaitMs'] as const;
	if (keys.every((key) => first.settings[key] === settings[key])) return undefined;
	return `Wait for Results must be the same for every item of a run (one wait covers them all): item ${first.itemIndex} waits with ${first.settings.queryId} and its wait options, this item differently. Use the same Status Query ID and Wait Options, or split the items over two nodes`;
}

/** Every waiting item waits the same way (one wait covers the run); an item that differs fails its check. */
export function checkSameWait<T extends { wait?: ResultsWaitSettings }>(preparations: Array<ItemPreparation<T>>): void {
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
 * Most request IDs one wait should follow. Each poll runs the status query once per request ID
 * still waiting, and a campaign has one request ID per user: Trigger Campaign checks this before
 * any request, so that a poll makes at most 100 NQL API calls (Nexthink throttles, and may pause, a
 * tenant's NQL API use that grows fast). A remote action run has one request ID per 1,000 devices
 * and reaches it only past 100,000 devices.
 */
export const MAX_WAIT_REQUEST_IDS = 100;

export interface ResultsWaitOutcome {
	/** Maximum Wait ran out while some target had no final status. */
	timedOut: boolean;
	/** Poll rounds made (each runs the query once per request ID still waiting). */
	polls: number;
	/** Milliseconds from the start of the wait to its end. */
	waitedMs: number;
	/** Set when the status query failed and the wait stopped early. */
	error?: { message: string; description?: string; httpCode?: string };
	/** What a target came to (its last row, status and whether it is final). */
	resultOf(target: WaitTarget): TargetResult;
}

export async function waitForResults(
	ctx: IExecuteFunctions,
	kind: ResultKind,
	targets: readonly WaitTarget[],
	settings: ResultsWaitSettings,
	options: { timeoutMs: number },
): Promise<ResultsWaitOutcome> {
	const signal = cancelSignalOf(ctx);
	const startedAt = Date.now();
	const deadline = startedAt + settings.maxWaitMs;
	const rowsByRequest = new Map<string, Map<string, StatusRow>>();
	const end = (polls: number, timedOut: boolean, error?: ResultsWaitOutcome['error']): ResultsWaitOutcome => ({
		timedOut,
		polls,
		waitedMs: Date.now() - startedAt,
		...(error !== undefined ? { error } : {}),
		resultOf: (target) => targetResult(kind, target, rowsByRequest.get(target.requestId)),
	});
	let pending = pendingRequestIds(kind, targets, rowsByRequest);
	if (pending.length === 0) return end(0, false);
	for (let poll = 0; ; poll++) {
		const waitMs = nextWaitMs(poll, Date.now(), deadline, settings);
		if (waitMs === undefined) return end(poll, true);
		await sleepUnlessCancelled(ctx, waitMs, signal);
		for (const requestId of pending) {
			try {
				const rows = await runStatusQuery(ctx, settings, requestId, { deadline, timeoutMs: options.timeoutMs });
				rowsByRequest.set(requestId, rowsByTarget(kind, settings.queryId, rows));
			} catch (error) {
				if (signal?.aborted === true) throw error;
				// a call that got no answer as Maximum Wait ran out: the wait timed out, like any other
				if (isNoAnswerError(error) && deadline - Date.now() < MIN_POLL_GAP_MS) return end(poll + 1, true);
				return end(poll + 1, false, describeFailure(error));
			}
		}
		pending = pendingRequestIds(kind, targets, rowsByRequest);
		if (pending.length === 0) return end(poll + 1, false);
	}
}

const STATUS_QUERY_HINTS = {
	400: 'Nexthink refused to run the status query. Check that it takes the request ID as the parameter named in "Request ID Parameter" (default $request_id).',
	403: 'Running the status query needs the "NQL API" permission on the Nexthink API credential (Administration > API credentials), besides the permission that triggered the run.',
	404: 'No NQL API query has this ID. Create it under Administration > NQL API queries with the NQL the README gives (section "Wait for Results"), or correct the Status Query ID.',
};

async function runStatusQuery(ctx: IExecuteFunctions, settings: ResultsWaitSettings, requestId: string, options: { deadline: number; timeoutMs: number }): Promise<StatusRow[]> {
	const action = `Reading the results of request ${requestId} with ${settings.queryId}`;
	const response = await nexthinkRequest<AsyncIterable<Uint8Array>>(ctx, {
		method: 'POST',
		path: '/api/v2/nql/execute',
		body: { queryId: settings.queryId, parameters: { [settings.requestIdParameter]: requestId } },
		responseType: 'stream',
		idempotent: true,
		deadline: options.deadline,
		timeoutMs: options.timeoutMs,
		action,
		hints: STATUS_QUERY_HINTS,
	});
	const text = await answerText(boundedAnswer(response.body, DEFAULT_MAX_ANSWER_BYTES));
	if (jsonHasMoreValuesThan(text, EXECUTE_MAX_VALUES)) throw new StatusRowsError(tooManyValues().message);
	let rows: StatusRow[];
	try {
		rows = readExecuteV2(text).rows;
	} catch (error) {
		throw new StatusRowsError(`${action} failed: the answer is not an execute answer (${(error as Error).message}). A proxy or login page may be answering instead of Nexthink.`);
	}
	return rows;
}

/** A failed status query, in words that say the run itself went out and is not sent again. */
function describeFailure(error: unknown): { message: string; description?: string; httpCode?: string } {
	const described = describeError(error);
	const httpCode = typeof (error as { httpCode?: unknown }).httpCode === 'string' ? (error as { httpCode: string }).httpCode : undefined;
	const sent = 'The run itself was sent and is not sent again: its request ID is in the output. Fix the status query, then read the results with Execute Query (Nexthink Export node) and the request ID.';
	return {
		message: `Waiting for results stopped: ${described.message}`,
		description: [described.description, sent].filter((part) => part !== undefined && part !== '').join(' '),
		...(httpCode !== undefined ? { httpCode } : {}),
	};
}
