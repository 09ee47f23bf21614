/**
 * Turns the values the CSV parser slices out of a decoded text chunk into the strings row objects
 * keep (docs/decisions.md, "Memory of row values"): copies that do not hold on to the chunk (V8
 * makes a slice of 13 or more characters a view into it), and one shared string per value a column
 * repeats, while the column has at most `MAX_SHARED_VALUES` distinct values.
 */

/** Below this length V8 copies a slice instead of making a view (V8's SlicedString::kMinLength). */
const SHORTEST_VIEW = 13;

/** Distinct values a column may have and still share them (a percentage with one decimal has 1,001). */
export const MAX_SHARED_VALUES = 4096;

/** Longer values are rarely repeated; they are copied, not looked up. */
const LONGEST_SHARED_VALUE = 100;

/** A copy, never a view: `trim()` must see the whole concatenation, so V8 flattens it into a new string (Node 20 and 24). */
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
