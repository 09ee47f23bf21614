/**
 * The items the trigger outputs, one per change (or per sample row): the row's columns as they came,
 * and `nexthinkTrigger` saying what happened. Pure (no n8n imports).
 */
import type { Change, Row } from './changeDetection';

/** Rows a Fetch Test Event shows. */
export const SAMPLE_ROWS = 5;

export const TRIGGER_KEY = 'nexthinkTrigger';

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
