/**
 * Whether one poll's answer proves it is the query's result (it names the Key and Compare Columns),
 * and how those columns are spelled in it. Pure (no n8n imports). An answer that names no columns
 * and has no rows counts as empty only where it cannot report a removal. Why: docs/decisions.md,
 * "A poll counts only when its answer is the query's result".
 */
import { arrivedColumns, findColumn } from '../nql/columnNames';
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
		`${label} "${name}" is not among the columns of ${answer.source}, so it is not the query's result (${plural(answer.rows.length, 'row')}). ${whatArrived(answer.columns)} Nothing was compared.`,
	);
}

/** The columns that arrived, each name cut to SHOWN_NAME_CHARS (a proxy's HTML page is one long "column"). */
export function whatArrived(columns: readonly string[]): string {
	return arrivedColumns(columns.map((column) => (column.length > SHOWN_NAME_CHARS ? `${column.slice(0, SHOWN_NAME_CHARS)}…` : column)));
}
