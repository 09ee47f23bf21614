/**
 * The input checks every Actions resource shares (no resource imports): how a wrong value is shown
 * in an input error (shared/inputError.ts).
 */

/** A value in an input error: quoted text (cut at 60 characters), or its kind. */
export function describeValue(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') return `"${value.slice(0, 60)}"`;
	return `${typeof value} ${String(value)}`;
}
