/**
 * Wait for Results, the pure part (no n8n imports): which column of a status query's rows names the
 * target and which its status, which statuses are final, and what each target of a run came to
 * after the last poll.
 *
 * Nexthink reports the outcome of remote actions, workflows and campaigns only through NQL
 * (`remote_action.executions`, `workflow.executions`, `campaign.responses`). The user creates a
 * stored NQL API query over the table that takes the request ID as a parameter (README, "Wait for
 * Results", gives the exact NQL); the node runs it once per request ID and poll, and pairs each row
 * with a target by the table's target column:
 *
 * | Kind | Target column | Status column |
 * |---|---|---|
 * | remote action | `device.collector.uid` (what Run sends) | `status` |
 * | workflow | `execution_id` (the API returns one execution ID per target) | `status` |
 * | campaign | `user.sid` (what Trigger sends; one request ID per user) | `state` |
 *
 * Final statuses. Nexthink documents `success` and `failure` (executions) and `answered`
 * (responses) without listing the rest. A status is **waiting** when it is one of
 * `WAITING_STATUSES` (compared case-insensitively, spaces and hyphens read as `_`), and final
 * otherwise: an unexpected final status then shows at once in the output (the row is output as
 * it is) instead of holding the run until Maximum Wait. docs/decisions.md records this choice.
 */

export type ResultKind = 'remote_action' | 'workflow' | 'campaign';

export const TARGET_COLUMN: Record<ResultKind, string> = {
	remote_action: 'device.collector.uid',
	workflow: 'execution_id',
	campaign: 'user.sid',
};

export const STATUS_COLUMN: Record<ResultKind, string> = {
	remote_action: 'status',
	workflow: 'status',
	campaign: 'state',
};

export const TABLE_OF: Record<ResultKind, string> = {
	remote_action: 'remote_action.executions',
	workflow: 'workflow.executions',
	campaign: 'campaign.responses',
};

/** Statuses of a target that has not finished yet; any other non-empty status is final. */
export const WAITING_STATUSES: ReadonlySet<string> = new Set([
	'pending',
	'in_progress',
	'inprogress',
	'waiting',
	'queued',
	'created',
	'started',
	'running',
	'submitted',
	'postponed',
]);

/** Whether a status read from a status query is final. An empty or missing status is not. */
export function isFinalStatus(status: unknown): boolean {
	if (typeof status !== 'string') return false;
	const normalised = status.trim().toLowerCase().replace(/[\s-]+/g, '_');
	return normalised !== '' && !WAITING_STATUSES.has(normalised);
}

/** A status query's answer that cannot be read as status rows; the message says what to change. */
export class StatusRowsError extends Error {}

/** One row of a status query, as execute returns it (v2: an object keyed by column name). */
export type StatusRow = Record<string, unknown>;

/**
 * The rows of one request ID by target (lower case: Collector UIDs and execution IDs are UUIDs,
 * compared without case; SIDs have no letters to fold but `S`). A target with several rows (the
 * same device twice in the table) keeps the last final one, or else the last one.
 * Throws `StatusRowsError` when a row lacks the target or status column: the query does not list
 * them, and no later poll can tell a final status.
 */
export function rowsByTarget(kind: ResultKind, queryId: string, rows: readonly StatusRow[]): Map<string, StatusRow> {
	const byTarget = new Map<string, StatusRow>();
	const targetColumn = TARGET_COLUMN[kind];
	const statusColumn = STATUS_COLUMN[kind];
	for (const row of rows) {
		const missing = [targetColumn, statusColumn].filter((column) => !Object.prototype.hasOwnProperty.call(row, column));
		if (missing.length > 0) {
			throw new StatusRowsError(
				`The status query ${queryId} does not list ${missing.map((column) => `"${column}"`).join(' and ')}; its rows have ${Object.keys(row).slice(0, 12).join(', ') || 'no columns'}. Create it over ${TABLE_OF[kind]} with the NQL the README gives (section "Wait for Results").`,
			);
		}
		const target = row[targetColumn];
		if (typeof target !== 'string' || target === '') continue;
		const key = target.toLowerCase();
		const earlier = byTarget.get(key);
		if (earlier !== undefined && isFinalStatus(earlier[statusColumn]) && !isFinalStatus(row[statusColumn])) continue;
		byTarget.set(key, row);
	}
	return byTarget;
}

/** A target of a run to wait for: the request that carried it and its identifier in the status table. */
export interface WaitTarget {
	requestId: string;
	/** Collector UID (remote actions), execution ID (workflows) or user SID (campaigns). */
	target: string;
}

/** What one target came to when the wait ended. */
export interface TargetResult {
	requestId: string;
	/** The status column's value; null while the query has no row for the target yet. */
	status: string | null;
	final: boolean;
	/** The query's row for the target, every column as Nexthink answered it. */
	row?: StatusRow;
}

export function targetKey(target: WaitTarget): string {
	return `${target.requestId}\u0000${target.target.toLowerCase()}`;
}

/** The result of one target from the last rows read for its request (undefined: never read). */
export function targetResult(kind: ResultKind, target: WaitTarget, rows: ReadonlyMap<string, StatusRow> | undefined): TargetResult {
	const row = rows?.get(target.target.toLowerCase());
	if (row === undefined) return { requestId: target.requestId, status: null, final: false };
	const status = row[STATUS_COLUMN[kind]];
	return { requestId: target.requestId, status: typeof status === 'string' ? status : status === null || status === undefined ? null : String(status), final: isFinalStatus(status), row };
}

/** Request IDs that still have a target without a final status (in first-seen order). */
export function pendingRequestIds(kind: ResultKind, targets: readonly WaitTarget[], rowsByRequest: ReadonlyMap<string, ReadonlyMap<string, StatusRow>>): string[] {
	const pending: string[] = [];
	for (const target of targets) {
		if (pending.includes(target.requestId)) continue;
		if (!targetResult(kind, target, rowsByRequest.get(target.requestId)).final) pending.push(target.requestId);
	}
	return pending;
}

/** The summary of an item's targets after the wait (what the node outputs as `results`). */
export interface ItemResults<T> {
	/** Every target of the item has a final status. */
	complete: boolean;
	/** How many targets have a final status, and how many do not. */
	finished: number;
	pending: number;
	targets: T[];
}

export function summarise<T extends { final: boolean }>(targets: T[]): ItemResults<T> {
	const finished = targets.filter((target) => target.final).length;
	return { complete: finished === targets.length, finished, pending: targets.length - finished, targets };
}

/** How a wait ended, for the item's `results`. */
export interface WaitEnd {
	queryId: string;
	maxWaitMs: number;
	timedOut: boolean;
	polls: number;
	waitedMs: number;
	error?: { message: string; description?: string; httpCode?: string };
}

/**
 * An item's `results` after the wait: a summary, a sentence when not every target is final, and one
 * entry per target (`targetField` names its identifier: collectorUid, userSid, executionId), in
 * the item's order. A target's `row` is the status query's row as Nexthink answered it.
 */
export function itemResults(
	targetField: string,
	targets: ReadonlyArray<{ id: string; requestId: string }>,
	resultOf: (target: WaitTarget) => TargetResult,
	end: WaitEnd,
): Record<string, unknown> {
	const entries = targets.map((target) => {
		const result = resultOf({ requestId: target.requestId, target: target.id });
		return { [targetField]: target.id, ...result };
	});
	const summary = summarise(entries);
	const results: Record<string, unknown> = {
		complete: summary.complete,
		finished: summary.finished,
		pending: summary.pending,
		timedOut: end.timedOut && !summary.complete,
		statusQueryId: end.queryId,
		polls: end.polls,
		waitedSeconds: Math.round(end.waitedMs / 100) / 10,
	};
	if (end.error !== undefined) {
		results.error = end.error;
	} else if (!summary.complete) {
		const seconds = end.maxWaitMs / 1000;
		results.message = `${summary.pending} of ${entries.length} target${entries.length === 1 ? '' : 's'} had no final status when Maximum Wait (${seconds} s) ran out. They may still finish: nothing was sent again; read them later with ${end.queryId} and the request ID.`;
	}
	results.targets = summary.targets;
	return results;
}
