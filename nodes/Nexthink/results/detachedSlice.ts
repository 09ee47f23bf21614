/**
 * `text.slice(start, end)` that does not keep `text` alive.
 *
 * Why: V8 returns a slice of 13 or more characters as a small view (a "sliced string") that points
 * into the original string instead of copying it. The CSV parser slices every value out of a decoded
 * text chunk, and the row objects live until n8n is done with the items, so a million rows would keep
 * every chunk of the whole file (hundreds of MB) alive next to the values themselves.
 *
 * How: the value is built as the concatenation of two parts, and `trim()` (which must see the whole
 * text, so V8 first copies the concatenation into one new string) returns that new string when there
 * is nothing to trim. Values with white space at either end are copied by `join` instead (slower).
 * Both are what V8 does in Node 20 and 24 alike (measured); merely reading a character of the
 * concatenation, for example, copies on Node 20 but not on Node 24. Shorter slices are copies already.
 */

/** Below this length V8 copies a slice instead of making a view (V8's SlicedString::kMinLength). */
const SHORTEST_VIEW = 13;

export function detachedSlice(text: string, start: number, end: number): string {
	if (end - start < SHORTEST_VIEW) return text.slice(start, end);
	const head = text.slice(start, end - 1);
	const last = text[end - 1];
	const copy = (head + last).trim();
	return copy.length === end - start ? copy : [head, last].join('');
}
