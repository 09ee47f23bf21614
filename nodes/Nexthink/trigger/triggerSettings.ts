/**
 * The Nexthink Trigger's parameters and their checks before any request (the query's with nql/'s
 * checks, the rest with the pure checks below), and the lock's expiry. The query fields are the
 * Export node's, so a query is written the same way in both nodes; n8n adds *Poll Times* itself to
 * every node with `polling: true`.
 */
import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { checkQueryFields, logTagOption, queryIdField, queryParameterFields, readQueryFields, validateLogTag } from '../nql/queryInput';
import { readWaitOptions, waitField } from '../nql/waitSchedule';
import { readBoolean, readChoice, requestTimeoutMs } from '../shared/parameterValues';
import { CHANGE_KINDS, type ChangeKind } from './changeDetection';
import { readRemovalLimit } from './resultCheck';
import { InputError } from '../shared/inputError';
import { nodeErrorOf } from '../shared/nodeErrors';
import { OPTIONS_COLLECTION, requestTimeoutOption } from '../shared/optionFields';

const DEFAULT_EXPORT_TIMEOUT_SECONDS = 300;
const DEFAULT_EXECUTE_TIMEOUT_SECONDS = 60;

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Each poll runs the query and compares its rows with the previous poll\'s, by the key column(s). The first poll after activation records what is there and starts nothing (unless "Trigger on All Rows at First Poll" is on). "Fetch Test Event" shows a few current rows and changes nothing.',
		name: 'triggerNotice',
		type: 'notice',
		default: '',
	},
	queryIdField,
	...queryParameterFields,
	{
		displayName: 'Run Query Through',
		name: 'queryMethod',
		type: 'options',
		default: 'export',
		options: [
			{
				name: 'Export',
				value: 'export',
				description: 'Any number of rows: start an export, wait for it, read the file (takes from seconds to minutes)',
			},
			{
				name: 'Execute Query',
				value: 'execute',
				description: 'Fast, for results of fewer than 1,000 rows: a poll that reaches 1,000 rows fails rather than report rows as removed',
			},
		],
		description: 'How each poll runs the query',
	},
	{
		displayName: 'Key Columns',
		name: 'keyColumns',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'device.uid',
		description:
			'The column(s) that identify a row, separated by commas (e.g. device.uid, or device.name). A short name also finds the fully-qualified column that ends with it (uid finds device.uid). Rows with the same key in one result are reported as duplicates, never merged.',
	},
	{
		// labels in n8n's trigger wording ("Trigger On", "Row Added"); the values are the saved ones
		displayName: 'Trigger On',
		name: 'emit',
		type: 'multiOptions',
		default: [...CHANGE_KINDS],
		options: [
			{ name: 'Duplicate Key', value: 'duplicate', description: 'A key is on several rows of the result (reported when it happens and when those rows change)' },
			{ name: 'Row Added', value: 'new', description: 'A key that was not there at the previous poll' },
			{ name: 'Row Changed', value: 'changed', description: 'A compared column changed; with Compare Columns named, the item carries their previous values' },
			{ name: 'Row Removed', value: 'removed', description: 'A key that is no longer there (the item holds its key columns)' },
		],
		description: 'Which changes start the workflow, one item each. Each item says which it is in nexthinkTrigger.change (new, changed, removed or duplicate).',
	},
	{
		...OPTIONS_COLLECTION,
		options: [
			{
				displayName: 'Compare Columns',
				name: 'compareColumns',
				type: 'string',
				default: '',
				placeholder: 'device.operating_system.name, device.operating_system.build',
				description:
					'The columns whose change makes a row "changed", separated by commas; empty: every column. Named columns keep their previous values between polls, so changed items show what they were.',
			},
			logTagOption,
			{
				displayName: 'Maximum Removed per Poll',
				name: 'maxRemoved',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description:
					'Fail the poll, reporting nothing and keeping the state, when more rows than this vanish at once (0 = no limit). Recommended when the workflow acts on removed rows.',
			},
			{
				displayName: 'Maximum Removed per Poll (%)',
				name: 'maxRemovedPercent',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 },
				default: 0,
				description:
					"Fail the poll, reporting nothing and keeping the state, when more than this share of the previous poll's rows vanish at once (0 = no limit; one row is always allowed)",
			},
			{
				...waitField('maxWaitSeconds', 'Export only: how long a poll waits for its export to complete before it fails (1800 = 30 minutes). Keep it below the time between polls.'),
				displayOptions: { show: { '/queryMethod': ['export'] } },
			},
			requestTimeoutOption(DEFAULT_EXPORT_TIMEOUT_SECONDS, 'Longest time one HTTP request (including the download) may take, at most 86400 (one day). Default: 300 for Export, 60 for Execute Query.'),
			{
				displayName: 'Trigger on All Rows at First Poll',
				name: 'emitAllOnFirstPoll',
				type: 'boolean',
				default: false,
				description: 'Whether the first poll (after activation, or after the query or key changed) outputs every row as added instead of only recording them',
			},
		],
	},
];

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
