/**
 * Finding a column by the name a user (or the node) gives it, however Nexthink spells it (exports
 * write `device.uid` for `uid`; execute answers' spelling is not documented). Pure (no n8n imports).
 * Rules, each tried for every wanted name in the order given, names compared without case: a column
 * that equals the name; else the one column that ends with `.` + the name (two or more is an error
 * that lists them: the node never guesses between two columns).
 */

/** A wanted column is missing or ambiguous; the message names what was wanted and what arrived. */
export class ColumnNameError extends Error {}

/** How many of the columns that arrived an error message lists. */
const LISTED_COLUMNS = 20;

/** The column `wanted` designates (see the file comment), or undefined; ColumnNameError when ambiguous. */
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

/** Like findColumn, but a missing column is an error too, naming `what` (`The key column`) and the columns that arrived. */
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
