/**
 * Wait for Results, the pure part (no n8n imports): the status query's columns, the final statuses, what
 * each target came to. Why: docs/decisions.md, "Actions node: Wait for Results and script-input checks".
 */
import { arrivedColumns, ColumnNameError, findColumn } from '../../nql/columnNames';

export type ResultKind = 'remote_action' | 'workflow' | 'campaign';

const TABLE_OF: Record<ResultKind, string> = {
	remote_action: 'remote_action.executions',
	workflow: 'workflow.executions',
	campaign: 'campaign.responses',
};

/** The columns Wait for Results reads, by their short names (the README's NQL lists them so). */
const STATUS_QUERY_COLUMNS: Record<ResultKind, { requestId: string; target: string; status: string; details: string }> = {
	remote_action: { requestId: 'request_id', target: 'device.collector.uid', status: 'status', details: 'status_details' },
	workflow: { requestId: 'request_id', target: 'execution_id', status: 'status', details: 'status_details' },
	campaign: { requestId: 'request_id', target: 'user.sid', status: 'state', details: 'state_details' },
};

/** Targets that are a linked object's field are also matched by its last part (`collector.uid`, `sid`). */
const LINKED_TARGET_TAIL: Partial<Record<ResultKind, string>> = { remote_action: 'collector.uid', campaign: 'sid' };

/** A column's names for findColumn: short first (messages show it), then fully qualified (`remote_action.execution.status`) or a linked field's tail. */
function namesOf(kind: ResultKind, column: keyof (typeof STATUS_QUERY_COLUMNS)[ResultKind]): string[] {
	const short = STATUS_QUERY_COLUMNS[kind][column];
	const tail = column === 'target' ? LINKED_TARGET_TAIL[kind] : undefined;
	return tail !== undefined ? [short, tail] : [short, `${TABLE_OF[kind].slice(0, -1)}.${short}`];
}

/** Statuses that end a target (compared by `statusKey`). */
export const FINAL_STATUSES: readonly string[] = ['success', 'failure', 'failed', 'expired', 'cancelled', 'canceled', 'declined', 'answered', 'fully_answered', 'partially_answered'];

/** Statuses of a target that has not finished yet (an empty or missing status is one too). */
export const WAITING_STATUSES: readonly string[] = [
	'waiting',
	'in_progress',
	'pending',
	'postponed',
	'not_answered',
	'unanswered',
	'sent',
	'queued',
	'running',
	'created',
	'started',
	'submitted',
];

/** A status without case and separators: `In Progress`, `in-progress` and `inprogress` are one. */
function statusKey(status: string): string {
	return status.toLowerCase().replace(/[\s_-]+/g, '');
}

const FINAL_KEYS = new Set(FINAL_STATUSES.map(statusKey));
const WAITING_KEYS = new Set(WAITING_STATUSES.map(statusKey));

/** Whether a status is known as final, known as not final yet, or neither (then the target is not final). */
export function classifyStatus(status: unknown): 'final' | 'waiting' | 'unknown' {
	if (status === null || status === undefined) return 'waiting';
	if (typeof status !== 'string') return 'unknown';
	const key = statusKey(status);
	if (key === '' || WAITING_KEYS.has(key)) return 'waiting';
	return FINAL_KEYS.has(key) ? 'final' : 'unknown';
}

/** A status query's answer that cannot be read as status rows; the message says what to change. */
export class StatusRowsError extends Error {}

/** One row of a status query, as execute returns it (v2: an object keyed by column name). */
export type StatusRow = Record<string, unknown>;

/** A target's row of one request, with the values Wait for Results reads from it. */
export interface TargetRow {
	row: StatusRow;
	status: unknown;
	/** Undefined when the query does not list a status details column. */
	details?: unknown;
}

/**
 * The rows of one request ID by target, in lower case; other request IDs' rows are left out. A target
 * with several rows keeps the last final one, else the last one. `StatusRowsError` when the request
 * ID, target or status column is missing or a name fits two columns: no later poll could tell then.
 */
export function rowsByTarget(kind: ResultKind, queryId: string, requestId: string, rows: readonly StatusRow[]): Map<string, TargetRow> {
	const byTarget = new Map<string, TargetRow>();
	if (rows.length === 0) return byTarget;
	const columns = statusQueryColumns(kind, queryId, rows);
	const wanted = requestId.toLowerCase();
	for (const row of rows) {
		const rowRequestId = row[columns.requestId];
		if (typeof rowRequestId !== 'string' || rowRequestId.toLowerCase() !== wanted) continue;
		const target = row[columns.target];
		if (typeof target !== 'string' || target === '') continue;
		const read: TargetRow = { row, status: row[columns.status], ...(columns.details !== undefined ? { details: row[columns.details] } : {}) };
		const key = target.toLowerCase();
		const earlier = byTarget.get(key);
		if (earlier !== undefined && classifyStatus(earlier.status) === 'final' && classifyStatus(read.status) !== 'final') continue;
		byTarget.set(key, read);
	}
	return byTarget;
}

/** The columns of a status query's rows that Wait for Results reads. */
function statusQueryColumns(kind: ResultKind, queryId: string, rows: readonly StatusRow[]): { requestId: string; target: string; status: string; details?: string } {
	const arrived = [...new Set(rows.flatMap((row) => Object.keys(row)))];
	const advice = `Create it over ${TABLE_OF[kind]} with the NQL the README gives (section "Wait for Results").`;
	const found: Partial<Record<keyof (typeof STATUS_QUERY_COLUMNS)[ResultKind], string>> = {};
	for (const column of ['requestId', 'target', 'status', 'details'] as const) {
		let resolved: string | ColumnNameError | undefined;
		try {
			resolved = findColumn(namesOf(kind, column), arrived);
		} catch (error) {
			resolved = error as ColumnNameError;
		}
		if (resolved instanceof ColumnNameError) throw new StatusRowsError(`The status query ${queryId}: ${resolved.message} ${advice}`);
		if (resolved !== undefined) found[column] = resolved;
	}
	const { requestId, target, status, details } = found;
	if (requestId === undefined || target === undefined || status === undefined) {
		const missing = (['requestId', 'target', 'status'] as const).filter((column) => found[column] === undefined).map((column) => `"${STATUS_QUERY_COLUMNS[kind][column]}"`);
		throw new StatusRowsError(`The status query ${queryId} does not list ${missing.join(' and ')} (short or fully-qualified). ${arrivedColumns(arrived)} ${advice}`);
	}
	return { requestId, target, status, ...(details !== undefined ? { details } : {}) };
}

/** A target of a run to wait for: the request that carried it and its identifier in the status table. */
export interface WaitTarget {
	requestId: string;
	/** Collector UID (remote actions), execution ID (workflows) or user SID (campaigns). */
	target: string;
}

/** What an item's run reached: its targets followed by ID and request ID, in the item's order, and how many were sent but cannot be followed. */
export interface ReachedTargets {
	followed: Array<{ id: string; requestId: string }>;
	unfollowed: number;
}

/**
 * The targets of an item's outcome that were sent (they have a request ID), followed by their `idKey`
 * (Collector UID, user SID, execution ID); a sent one without it (a workflow target without an
 * execution ID) is counted as unfollowed.
 */
export function reachedTargets<T extends { requestId?: string }>(targets: readonly T[], idKey: string): ReachedTargets {
	const reached: ReachedTargets = { followed: [], unfollowed: 0 };
	for (const target of targets) {
		if (target.requestId === undefined) continue;
		const id = (target as Record<string, unknown>)[idKey];
		if (typeof id === 'string') reached.followed.push({ id, requestId: target.requestId });
		else reached.unfollowed += 1;
	}
	return reached;
}

export function targetKey(target: WaitTarget): string {
	return `${target.requestId}\u0000${target.target.toLowerCase()}`;
}

const asText = (value: unknown): string | null => (typeof value === 'string' ? value : value === null || value === undefined ? null : String(value));

/**
 * What one target came to, from the last rows read for its request (undefined: never read; docs/actions.md):
 * `status` null while the query has no row for it, `unknownStatus` when neither known final nor waiting.
 */
export function targetResult(target: WaitTarget, rows: ReadonlyMap<string, TargetRow> | undefined) {
	const read = rows?.get(target.target.toLowerCase());
	if (read === undefined) return { requestId: target.requestId, status: null, final: false };
	const status = classifyStatus(read.status);
	return {
		requestId: target.requestId,
		status: asText(read.status),
		...('details' in read ? { statusDetails: asText(read.details) } : {}),
		final: status === 'final',
		...(status === 'unknown' ? { unknownStatus: true as const } : {}),
		row: read.row,
	};
}

export type TargetResult = ReturnType<typeof targetResult>;

/** Request IDs that still have a target without a final status (in first-seen order). */
export function pendingRequestIds(targets: readonly WaitTarget[], rowsByRequest: ReadonlyMap<string, ReadonlyMap<string, TargetRow>>): string[] {
	const pending: string[] = [];
	for (const target of targets) {
		if (pending.includes(target.requestId)) continue;
		if (!targetResult(target, rowsByRequest.get(target.requestId)).final) pending.push(target.requestId);
	}
	return pending;
}

/** How a wait ended, for the item's `results`: poll rounds made, time waited, whether Maximum Wait ran out, a failed status query. */
export interface WaitEnd {
	queryId: string;
	maxWaitMs: number;
	timedOut: boolean;
	polls: number;
	waitedMs: number;
	error?: { message: string; description?: string; httpCode?: string };
}

/**
 * An item's `results` after the wait (docs/actions.md): a summary, a sentence when not every target is
 * final, the unknown statuses, and one entry per target (`targetField`: its identifier), in the item's order.
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
	const finished = entries.filter((entry) => entry.final).length;
	const complete = finished === entries.length;
	const pending = entries.length - finished;
	const unknown = entries.filter((entry) => 'unknownStatus' in entry);
	const unknownStates = [...new Set(unknown.map((entry) => String(entry.status)))];
	const results: Record<string, unknown> = {
		complete,
		finished,
		pending,
		timedOut: end.timedOut && !complete,
		statusQueryId: end.queryId,
		polls: end.polls,
		waitedSeconds: Math.round(end.waitedMs / 100) / 10,
	};
	if (unknownStates.length > 0) results.unknownStates = unknownStates;
	if (end.error !== undefined) {
		results.error = end.error;
	} else if (!complete) {
		const seconds = end.maxWaitMs / 1000;
		const sentences = [
			`${pending} of ${entries.length} target${entries.length === 1 ? '' : 's'} had no final status when Maximum Wait (${seconds} s) ran out. They may still finish: nothing was sent again; read them later with ${end.queryId} and the request ID.`,
		];
		if (unknown.length > 0) {
			sentences.push(
				`${unknown.length} of them ${unknown.length === 1 ? 'has a status' : 'have statuses'} the node does not know as final or waiting (${unknownStates.map((state) => `"${state}"`).join(', ')}), so ${unknown.length === 1 ? 'it was' : 'they were'} not counted as finished: check in Nexthink what ${unknownStates.length === 1 ? 'it means' : 'they mean'}.`,
			);
		}
		results.message = sentences.join(' ');
	}
	results.targets = entries;
	return results;
}
