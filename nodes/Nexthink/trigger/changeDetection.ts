/**
 * What changed between two polls of a query: rows keyed by the key column(s), compared through an
 * 8-byte digest per key of the compared columns. Pure (no n8n imports). Values compare as text;
 * a key on several rows is a "duplicate", never merged; a removed key is known by its key text only.
 * Why: docs/decisions.md, "Nexthink Trigger". Then the item of each change (or sample row): the
 * row's columns as they came, and `nexthinkTrigger` saying what happened.
 */
import { createHash } from 'crypto';

import {
	checkStateLimits,
	DIGEST_BYTES,
	MAX_KEY_CHARS,
	STATE_FORMAT,
	StateLimitError,
	unpackDigests,
	type PollState,
} from './pollState';

export type Row = Record<string, unknown>;
export const CHANGE_KINDS = ['new', 'changed', 'removed', 'duplicate'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface CompareSettings {
	keyColumns: string[];
	/** The columns whose change makes a row "changed"; empty: every column. */
	compareColumns: string[];
}

export interface Change {
	kind: ChangeKind;
	/** Key column → value (as text). */
	key: Record<string, string>;
	/** The current row (new, changed; the first of a duplicate's rows). */
	row?: Row;
	/** Every row of a duplicated key. */
	rows?: Row[];
	/** Changed and removed: the compared columns' previous values, or null when they were not kept. */
	previous?: Record<string, string> | null;
	/** Changed, with previous values: the compared columns whose value differs. */
	changedColumns?: string[];
}

export type DiffCounts = Record<'rows' | 'keys' | ChangeKind | 'unchanged', number>;

/** A value as compared and stored: text, null and missing as ''. */
export function comparedText(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value;
	if (typeof value === 'object') return JSON.stringify(value);
	return String(value);
}

/** The text a key is stored as: the value itself for one key column, a JSON list for several. */
export function keyText(row: Row, keyColumns: string[]): string {
	if (keyColumns.length === 1) return comparedText(row[keyColumns[0]]);
	return JSON.stringify(keyColumns.map((column) => comparedText(row[column])));
}

/** The key columns and their values, back from a key text. */
export function keyFromText(text: string, keyColumns: string[]): Record<string, string> {
	if (keyColumns.length === 1) return { [keyColumns[0]]: text };
	const values = JSON.parse(text) as string[];
	return Object.fromEntries(keyColumns.map((column, index) => [column, values[index] ?? '']));
}

function comparedEntries(row: Row, compareColumns: string[]): Array<[string, string]> {
	const columns = compareColumns.length > 0 ? compareColumns : Object.keys(row).sort();
	return columns.map((column) => [column, comparedText(row[column])]);
}

function digestOf(text: string): Buffer {
	return createHash('sha256').update(text).digest().subarray(0, DIGEST_BYTES);
}

function rowDigest(row: Row, compareColumns: string[]): Buffer {
	return digestOf(JSON.stringify(comparedEntries(row, compareColumns)));
}

/** One digest for all rows of a duplicated key, whatever their order. */
function duplicateDigest(rows: Row[], compareColumns: string[]): Buffer {
	const each = rows.map((row) => rowDigest(row, compareColumns).toString('hex')).sort();
	return digestOf(`duplicate:${each.join(',')}`);
}

/**
 * Compares the rows of this poll with the previous state (undefined: no state yet, every key is new):
 * the changes (current keys in the order of their first row, then removed keys in the previous
 * state's order), the new state and the counts. `settings` names the columns as the rows spell them
 * (resultCheck.ts resolved and checked them). Throws StateLimitError (a key too long, too many keys,
 * a state too large) before anything is decided.
 */
export function diffRows(
	previous: PollState | undefined,
	rows: Row[],
	settings: CompareSettings,
	meta: { fingerprint: string; recordedAt: string },
) {
	const { keyColumns, compareColumns } = settings;
	const keepPrevious = compareColumns.length > 0;

	// by key, in the order of each key's first row
	const groups = new Map<string, Row[]>();
	for (const row of rows) {
		const text = keyText(row, keyColumns);
		if (text.length > MAX_KEY_CHARS) {
			throw new StateLimitError(
				`A key is ${text.length.toLocaleString('en-US')} characters long ("${text.slice(0, 50)}…"); keys may have at most ${MAX_KEY_CHARS.toLocaleString('en-US')}. Choose an ID column as Key Column (e.g. device.uid).`,
			);
		}
		const group = groups.get(text);
		if (group === undefined) groups.set(text, [row]);
		else group.push(row);
	}

	const previousIndex = new Map<string, number>(previous?.keys.map((key, index) => [key, index]));
	const previousDigests = previous === undefined ? Buffer.alloc(0) : unpackDigests(previous.digests, previous.keys.length);
	const previousDuplicates = new Set(previous?.duplicates ?? []);

	const keys: string[] = [];
	const digests = Buffer.alloc(groups.size * DIGEST_BYTES);
	const previousTexts: string[] = [];
	const duplicates: string[] = [];
	const changes: Change[] = [];
	const counts: DiffCounts = { rows: rows.length, keys: groups.size, new: 0, changed: 0, removed: 0, duplicate: 0, unchanged: 0 };

	for (const [text, group] of groups) {
		const duplicated = group.length > 1;
		const digest = duplicated ? duplicateDigest(group, compareColumns) : rowDigest(group[0], compareColumns);
		digest.copy(digests, keys.length * DIGEST_BYTES);
		keys.push(text);
		if (keepPrevious) previousTexts.push(duplicated ? '' : JSON.stringify(comparedEntries(group[0], compareColumns).map(([, v]) => v)));
		if (duplicated) duplicates.push(text);

		const at = previousIndex.get(text);
		previousIndex.delete(text);
		const before = at === undefined ? undefined : previousDigests.subarray(at * DIGEST_BYTES, (at + 1) * DIGEST_BYTES);
		const same = before !== undefined && before.equals(digest);
		const key = keyFromText(text, keyColumns);
		if (duplicated) {
			if (same && previousDuplicates.has(text)) counts.unchanged++;
			else {
				counts.duplicate++;
				changes.push({ kind: 'duplicate', key, row: group[0], rows: group });
			}
			continue;
		}
		if (before === undefined) {
			counts.new++;
			changes.push({ kind: 'new', key, row: group[0] });
		} else if (same) {
			counts.unchanged++;
		} else {
			counts.changed++;
			const old = previousValues(previous, at as number, compareColumns);
			const change: Change = { kind: 'changed', key, row: group[0], previous: old };
			if (old !== null) change.changedColumns = compareColumns.filter((column) => old[column] !== comparedText(group[0][column]));
			changes.push(change);
		}
	}

	// what is left of the previous keys is gone
	for (const [text, at] of previousIndex) {
		counts.removed++;
		changes.push({ kind: 'removed', key: keyFromText(text, keyColumns), previous: previousValues(previous, at, compareColumns) });
	}

	const state: PollState = {
		format: STATE_FORMAT,
		fingerprint: meta.fingerprint,
		recordedAt: meta.recordedAt,
		keys,
		digests: digests.toString('base64'),
		...(keepPrevious ? { previous: previousTexts } : {}),
		...(duplicates.length > 0 ? { duplicates } : {}),
	};
	checkStateLimits(state);
	return { changes, state, counts };
}

/** The compared columns' values kept for the key at `at`, or null when none were kept for it. */
function previousValues(previous: PollState | undefined, at: number, compareColumns: string[]): Record<string, string> | null {
	const text = previous?.previous?.[at];
	if (text === undefined || text === '' || compareColumns.length === 0) return null;
	const values = JSON.parse(text) as unknown;
	if (!Array.isArray(values) || values.length !== compareColumns.length) return null;
	return Object.fromEntries(compareColumns.map((column, index) => [column, comparedText(values[index])]));
}

/**
 * What the state is about: the query, its parameters, the key and the compared columns. A stored
 * state with another fingerprint belongs to other settings and is replaced by a new baseline.
 */
export function settingsFingerprint(input: { queryId: string; parameters: Record<string, string> } & CompareSettings): string {
	const parameters = Object.entries(input.parameters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	const text = JSON.stringify([input.queryId, parameters, input.keyColumns, input.compareColumns]);
	return createHash('sha256').update(text).digest('base64').slice(0, 22);
}

/** Rows a Fetch Test Event shows. */
export const SAMPLE_ROWS = 5;

const TRIGGER_KEY = 'nexthinkTrigger';

export interface PollInfo {
	queryId: string;
	/** When the poll started (ISO 8601). */
	polledAt: string;
}

export function changeJson(change: Change, info: PollInfo, firstPoll: boolean): Row {
	const about: Row = { change: change.kind, key: change.key, queryId: info.queryId, polledAt: info.polledAt };
	if (firstPoll) about.firstPoll = true;
	switch (change.kind) {
		case 'new':
			return { ...change.row, [TRIGGER_KEY]: about };
		case 'changed':
			about.previous = change.previous ?? null;
			if (change.changedColumns !== undefined) about.changedColumns = change.changedColumns;
			return { ...change.row, [TRIGGER_KEY]: about };
		case 'removed':
			about.previous = change.previous ?? null;
			return { ...change.key, [TRIGGER_KEY]: about };
		case 'duplicate':
			about.rowCount = change.rows?.length ?? 0;
			about.rows = change.rows ?? [];
			return { ...change.row, [TRIGGER_KEY]: about };
	}
}

export function sampleJson(row: Row, info: PollInfo): Row {
	return { ...row, ...sampleAbout(info, 'A sample of the current rows, to map fields from. A test fetch changes nothing: once active, the trigger outputs new, changed, removed and duplicate rows.') };
}

/** The one item of a test fetch whose query returned no rows. */
export function emptySampleJson(info: PollInfo): Row {
	return sampleAbout(info, 'The query returned no rows now. A test fetch changes nothing: once active, the trigger outputs rows as they appear.');
}

function sampleAbout(info: PollInfo, note: string): Row {
	return { [TRIGGER_KEY]: { change: 'sample', queryId: info.queryId, polledAt: info.polledAt, note } };
}
