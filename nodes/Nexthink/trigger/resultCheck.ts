/**
 * The checks a poll's answer passes before anything is reported: it is the query's result, and no
 * more rows vanish than Maximum Removed per Poll allows. Pure (no n8n imports). Why: docs/decisions.md,
 * "A poll counts only when its answer is the query's result" and "Maximum Removed per Poll".
 */
import { arrivedColumns, findColumn } from '../nql/columnNames';
import { readWholeNumber } from '../shared/parameterValues';
import { plural, upperFirst } from '../shared/wording';
import type { CompareSettings, Row } from './changeDetection';

/** The answer is not the query's result (or a column is ambiguous): the poll compares nothing. */
export class ResultCheckError extends Error {}

/** One poll's answer, as read: its columns in order (none when it named none) and its rows. */
export interface QueryAnswer {
	columns: string[];
	rows: Row[];
	/** What the answer was, for messages: e.g. `the results file of export 1234`. */
	source: string;
}

/** Longest column name an error message shows (a "column" may be a whole line of an HTML page). */
const SHOWN_NAME_CHARS = 100;

/**
 * The Key and Compare Columns as this answer spells them (`uid` finds `device.uid`), after checking
 * that it is the query's result; `previousKeys`: the keys of the state it is compared with. Throws
 * ResultCheckError, saying what arrived, or ColumnNameError when a name fits two columns.
 */
export function checkAnswer(answer: QueryAnswer, settings: CompareSettings, previousKeys: number): CompareSettings {
	if (answer.columns.length === 0) {
		if (answer.rows.length === 0 && previousKeys === 0) return settings;
		throw new ResultCheckError(
			`${upperFirst(answer.source)} names no columns (no header row) and holds ${plural(answer.rows.length, 'row')}: it does not show the query's result, and comparing it would report ${plural(previousKeys, 'row')} as removed. Nothing was compared.`,
		);
	}
	return {
		keyColumns: settings.keyColumns.map((name) => answerColumn(name, 'Key Column', answer)),
		compareColumns: settings.compareColumns.map((name) => answerColumn(name, 'Compare Column', answer)),
	};
}

/** The column `name` designates; a name two columns end with throws ColumnNameError (nql/columnNames.ts). */
function answerColumn(name: string, label: string, answer: QueryAnswer): string {
	const found = findColumn(name, answer.columns);
	if (found !== undefined) return found;
	throw new ResultCheckError(
		`${label} "${name}" is not among the columns of ${answer.source}, so it is not the query's result (${plural(answer.rows.length, 'row')}). ${arrivedColumns(answer.columns.map(shownName))} Nothing was compared.`,
	);
}

function shownName(column: string): string {
	return column.length > SHOWN_NAME_CHARS ? `${column.slice(0, SHOWN_NAME_CHARS)}…` : column;
}

export type RemovalLimit = ReturnType<typeof readRemovalLimit>;

/** More rows vanished than the limit allows: the poll fails and keeps the state. */
export class RemovalLimitError extends Error {}

/** The most removed rows (keys) per poll, and their most share in percent of the previous result's; empty: 0, no limit. */
export function readRemovalLimit(maxRemoved: unknown, maxRemovedPercent: unknown) {
	return {
		maxRemoved: readWholeNumber(maxRemoved, 'Maximum Removed per Poll', 0, 0, Number.MAX_SAFE_INTEGER, ' (0: no limit)'),
		maxRemovedPercent: readWholeNumber(maxRemovedPercent, 'Maximum Removed per Poll (%)', 0, 0, 100, ' (0: no limit)'),
	};
}

/**
 * Throws RemovalLimitError when `removed` of `previousKeys` rows is more than the limit allows.
 * A limit in percent allows at least one row, so that it never refuses every removal from a small result.
 */
export function checkRemovals(removed: number, previousKeys: number, limit: RemovalLimit): void {
	if (removed === 0) return;
	const share = previousKeys === 0 ? 100 : (removed / previousKeys) * 100;
	const overCount = limit.maxRemoved > 0 && removed > limit.maxRemoved;
	const overShare = limit.maxRemovedPercent > 0 && removed > 1 && share > limit.maxRemovedPercent;
	if (!overCount && !overShare) return;
	const allowed = [
		...(limit.maxRemoved > 0 ? [`Maximum Removed per Poll: ${limit.maxRemoved.toLocaleString('en-US')}`] : []),
		...(limit.maxRemovedPercent > 0 ? [`Maximum Removed per Poll (%): ${limit.maxRemovedPercent}`] : []),
	].join(', ');
	throw new RemovalLimitError(
		`${removed.toLocaleString('en-US')} of the previous ${previousKeys.toLocaleString('en-US')} rows (${formatShare(share)} %) vanished at once, more than the trigger may report as removed in one poll (${allowed}). Nothing was reported.`,
	);
}

function formatShare(share: number): string {
	return share >= 10 || share === 0 ? share.toFixed(0) : share.toFixed(1);
}
