/**
 * Reads the trigger's parameters and checks them before any request (the query's with nql/'s
 * checks, the rest with the pure checks at the end of this file), and the lock's expiry.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { checkQueryFields, readQueryFields, validateLogTag } from '../nql/queryInput';
import { readWaitOptions } from '../nql/waitSchedule';
import { readBoolean, readChoice, requestTimeoutMs } from '../shared/parameterValues';
import { CHANGE_KINDS, type ChangeKind } from './changeDetection';
import { DEFAULT_EXECUTE_TIMEOUT_SECONDS, DEFAULT_EXPORT_TIMEOUT_SECONDS } from './description';
import { readRemovalLimit } from './resultCheck';
import { InputError } from '../shared/inputError';
import { nodeErrorOf } from '../shared/nodeErrors';

export type TriggerSettings = ReturnType<typeof readTriggerSettings>;

/** Reads and checks every parameter; a bad one fails the poll before any request, naming it. */
export function readTriggerSettings(ctx: IPollFunctions) {
	const get = (name: string, fallback: unknown) => ctx.getNodeParameter(name, fallback) as unknown;
	const options = (get('options', {}) ?? {}) as IDataObject;
	try {
		const method = readChoice(get('queryMethod', 'export'), 'Run Query Through', ['export', 'execute'], 'export');
		const { queryId, parameters } = checkQueryFields(readQueryFields(get));
		return {
			queryId,
			parameters,
			method,
			compare: {
				keyColumns: parseColumnList(get('keyColumns', ''), 'Key Columns', true),
				compareColumns: parseColumnList(options.compareColumns, 'Compare Columns', false),
			},
			emit: parseEmit(get('emit', [...CHANGE_KINDS])),
			emitAllOnFirstPoll: readBoolean(options.emitAllOnFirstPoll, 'Trigger on All Rows at First Poll', false),
			removalLimit: readRemovalLimit(options.maxRemoved, options.maxRemovedPercent),
			logTag: validateLogTag(options.logTag),
			wait: readWaitOptions({ maxWaitSeconds: options.maxWaitSeconds }),
			timeoutMs: requestTimeoutMs(
				options.requestTimeoutSeconds,
				method === 'execute' ? DEFAULT_EXECUTE_TIMEOUT_SECONDS : DEFAULT_EXPORT_TIMEOUT_SECONDS,
			),
		};
	} catch (error) {
		throw nodeErrorOf(ctx.getNode(), error);
	}
}

/** "device.uid, device.name" → ['device.uid', 'device.name']; each name once. */
export function parseColumnList(raw: unknown, label: string, required: boolean): string[] {
	if (raw !== undefined && raw !== null && typeof raw !== 'string') {
		throw new InputError(`${label} must be text: column names separated by commas.`, label);
	}
	const columns = (raw ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
	if (required && columns.length === 0) {
		throw new InputError(`${label} is empty. Enter the column(s) that identify a row, as named in the result, e.g. device.uid.`, label);
	}
	const seen = new Set<string>();
	for (const column of columns) {
		if (seen.has(column)) throw new InputError(`${label} names "${column}" twice.`, label);
		seen.add(column);
	}
	return columns;
}

export function parseEmit(raw: unknown): Set<ChangeKind> {
	const values = Array.isArray(raw) ? raw : [];
	const kinds = new Set<ChangeKind>();
	for (const value of values) {
		if (!(CHANGE_KINDS as readonly unknown[]).includes(value)) throw new InputError(`Trigger On: "${String(value)}" is not one of ${CHANGE_KINDS.join(', ')}.`, 'Trigger On');
		kinds.add(value as ChangeKind);
	}
	if (kinds.size === 0) throw new InputError('Trigger On is empty: choose at least one kind of change to output (row added, changed or removed, or duplicate key).', 'Trigger On');
	return kinds;
}

/** Room for token exchanges (30 s each, transport/tokenExchange.ts; one before a request, one on a renewal) and scheduling. */
const LOCK_MARGIN_MS = 5 * 60_000;

/**
 * How long a poll holds its lock: longer than the longest a poll can take, yet freed by itself after
 * a poll cut short. The formula per method: docs/decisions.md, "Overlapping polls".
 */
export function lockDurationMs(
	settings: { method: 'export' | 'execute'; wait: { maxWaitMs: number }; timeoutMs: number },
	policy: { maxRetries: number; maxDelayMs: number; maxRetryAfterMs: number },
): number {
	const timeout = settings.timeoutMs;
	if (settings.method === 'export') return settings.wait.maxWaitMs + 9 * timeout + LOCK_MARGIN_MS;
	const attempts = policy.maxRetries + 1;
	return attempts * 2 * timeout + policy.maxRetries * Math.max(policy.maxDelayMs, policy.maxRetryAfterMs) + LOCK_MARGIN_MS;
}
