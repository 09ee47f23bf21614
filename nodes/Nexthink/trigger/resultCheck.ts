/**
 * Whether one poll's answer proves it is the query's result, and how the user's Key and Compare
 * Columns are spelled in it. Pure (no n8n imports).
 *
 * Why: what the trigger reports as `removed` is what a workflow acts on, and an answer that is not
 * the query's result (an empty file, a proxy's one-line HTML login page, a CSV without the key
 * column) would otherwise read as a result without rows: every row `removed`, then every row `new`
 * at the next good poll, and the real changes in between never reported. So a poll counts only when
 * its answer names the key column(s) and the Compare Columns among its columns (the header row of
 * an export file, the `headers` of an Execute Query v1 answer).
 *
 * One exception, because Nexthink does not document what an empty result looks like (reference:
 * "an empty result is a header-only file" is a client's assumption, the CSV dialect is not
 * documented): an answer that names no columns at all and has no rows (a compressed file of no
 * text, an execute answer without headers) may be an empty result written without a header. It
 * counts as empty only where it cannot report a removal: on the first poll (no state, or a state of
 * other settings) or when the previous result was empty too. After a result with rows it fails the
 * poll. docs/decisions.md, "Nexthink Trigger: a poll counts only when its answer is the query's result".
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
 * The Key and Compare Columns as this answer spells them (a configured `uid` finds
 * `device.uid`: nql/columnNames.ts), after checking that the answer is the query's result.
 * `previousKeys`: how many keys the state this poll compares with holds (0 without a state).
 * Throws ResultCheckError, saying what arrived, when the answer does not prove it is the result, and
 * ColumnNameError when a name fits two columns.
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
