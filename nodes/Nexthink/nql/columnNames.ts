/**
 * Finding a column by the name a user (or the node) gives it, however Nexthink spells it. Pure (no
 * n8n imports).
 *
 * Why: Nexthink's exports write fully-qualified column names (`device.uid` for a query that wrote
 * `uid`, `remote_action.execution.status` for `status` on `remote_action.executions`), and whether
 * the NQL API's execute answers use the same spelling is not documented (https://docs.nexthink.com/api
 * shows neither for these tables). So every reader of a column by name (the Trigger's key and Compare
 * Columns, Wait for Results) resolves it here, the same way:
 *
 * 1. a column that equals a wanted name;
 * 2. else a column that ends with `.` + the wanted name, when exactly one does (two or more is an
 *    error that lists them: the node never guesses between two columns);
 * each rule tried for every wanted name in turn, in the order given (so a caller can list its
 * preferred spelling first and a shorter fallback after it). Names are compared without case: NQL
 * names are lower case, and a user may type them otherwise.
 */

/** A wanted column is missing or ambiguous; the message names what was wanted and what arrived. */
export class ColumnNameError extends Error {}

/** How many of the columns that arrived an error message lists. */
const LISTED_COLUMNS = 20;

/**
 * The column of `columns` that `wanted` designates (see the file comment), or undefined when none
 * does. Throws ColumnNameError when several columns end with a wanted name and none equals it.
 */
export function findColumn(wanted: string | readonly string[], columns: readonly string[]): string | undefined {
	const names = typeof wanted === 'string' ? [wanted] : wanted;
	for (const name of names) {
		const lower = name.toLowerCase();
		const exact = columns.find((column) => column.toLowerCase() === lower);
		if (exact !== undefined) return exact;
	}
	for (const name of names) {
		const suffix = `.${name.toLowerCase()}`;
		const candidates = columns.filter((column) => column.toLowerCase().endsWith(suffix));
		if (candidates.length === 1) return candidates[0];
		if (candidates.length > 1) {
			throw new ColumnNameError(
				`Column "${name}" is ambiguous: ${candidates.map((column) => `"${column}"`).join(', ')} all end with it. Give the full name of the one you mean.`,
			);
		}
	}
	return undefined;
}

/**
 * Like findColumn, but a missing column is an error too: `what` says whose column it is (e.g.
 * `The key column`), and the message lists the columns that did arrive.
 */
export function requireColumn(wanted: string | readonly string[], columns: readonly string[], what: string): string {
	const found = findColumn(wanted, columns);
	if (found !== undefined) return found;
	const names = typeof wanted === 'string' ? [wanted] : wanted;
	throw new ColumnNameError(`${what} "${names[0]}" is not in the result. ${arrivedColumns(columns)}`);
}

/** "The columns that arrived: a, b, c" (at most LISTED_COLUMNS of them), for error messages. */
export function arrivedColumns(columns: readonly string[]): string {
	if (columns.length === 0) return 'No columns arrived.';
	const listed = columns.slice(0, LISTED_COLUMNS).map((column) => `"${column}"`).join(', ');
	const more = columns.length > LISTED_COLUMNS ? ` and ${columns.length - LISTED_COLUMNS} more` : '';
	return `The columns that arrived: ${listed}${more}.`;
}
