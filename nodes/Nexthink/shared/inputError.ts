/**
 * The one error for "this input is wrong": a parameter, an option or an input item's value that
 * the node refuses before any request. `field` names the parameter or option it is about (as the
 * editor shows it) when there is one; `code` is a machine-readable kind for the outcomes that carry
 * one (the Enrichment node's INVALID_VALUE and the like, enrichment/itemErrors.ts).
 *
 * Pure (no n8n imports): the checks that throw it run in unit tests; shared/runItems.ts turns it
 * into n8n's error of the item, or into the item's outcome. Errors of an answer, of a limit or of
 * the transport are other classes: they are not about the user's input.
 */
export class InputError extends Error {
	constructor(
		message: string,
		readonly field?: string,
		readonly code?: string,
	) {
		super(message);
		this.name = 'InputError';
	}
}

/** A wrong value as an input error shows it: quoted text (cut at 60 characters), or its kind. */
export function describeValue(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') return `"${value.slice(0, 60)}"`;
	return `${typeof value} ${String(value)}`;
}
