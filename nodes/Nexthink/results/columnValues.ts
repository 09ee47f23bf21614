/**
 * Turns the values the CSV parser slices out of a decoded text chunk into the strings that row
 * objects keep: copies that do not hold on to the chunk, and one shared string per value that a
 * column repeats. With a million rows these strings are most of an export's memory.
 *
 * Copies: V8 returns a slice of 13 or more characters as a small view (a "sliced string") into the
 * original string. Row objects live until n8n is done with the items, so views would keep every
 * chunk of the whole file alive next to the values. `detachedCopy` builds the value as the
 * concatenation of two parts and calls `trim()`, which must see the whole text, so V8 first copies
 * the concatenation into one new string and returns that string when there is nothing to trim;
 * values with white space at either end are copied by `join` instead. Both copy on Node 20 and 24
 * alike (measured: merely reading a character of the concatenation copies on Node 20, not on 24).
 *
 * Sharing: inventory exports repeat most of their columns (operating system, manufacturer, model,
 * site, versions). Each column keeps a map of the distinct values seen so far, up to
 * `MAX_SHARED_VALUES`; a column with more distinct values than that (names, UIDs, timestamps) stops
 * sharing and drops its map, so unique columns cost one map lookup for their first values only.
 */

/** Below this length V8 copies a slice instead of making a view (V8's SlicedString::kMinLength). */
const SHORTEST_VIEW = 13;

/**
 * Distinct values a column may have and still share them. Columns a little past a thousand values
 * are common (agent versions, hardware models, a percentage with one decimal has 1,001); a map of
 * this size costs well under a megabyte, and unique columns pay its lookups for their first rows only.
 */
export const MAX_SHARED_VALUES = 4096;

/** Longer values are rarely repeated; they are copied, not looked up. */
const LONGEST_SHARED_VALUE = 100;

export function detachedCopy(value: string): string {
	if (value.length < SHORTEST_VIEW) return value;
	const head = value.slice(0, -1);
	const last = value[value.length - 1];
	const copy = (head + last).trim();
	return copy.length === value.length ? copy : [head, last].join('');
}

export class ColumnValues {
	/** Per column: its distinct values so far, or undefined once it has too many to share. */
	private readonly shared: Array<Map<string, string> | undefined>;

	constructor(columnCount: number) {
		this.shared = Array.from({ length: columnCount }, () => new Map<string, string>());
	}

	/** The string to keep for `value` found in `column`: a shared or a fresh copy, never a view. */
	keep(column: number, value: string): string {
		const shared = this.shared[column];
		if (shared === undefined || value.length > LONGEST_SHARED_VALUE) return detachedCopy(value);
		const known = shared.get(value);
		if (known !== undefined) return known;
		const copy = detachedCopy(value);
		if (shared.size < MAX_SHARED_VALUES) shared.set(copy, copy);
		else this.shared[column] = undefined;
		return copy;
	}

	/** Whether `column` still shares its values (for tests and benchmarks). */
	isSharing(column: number): boolean {
		return this.shared[column] !== undefined;
	}
}
