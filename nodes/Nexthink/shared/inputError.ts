/**
 * The one error for "this input is wrong", thrown before any request (docs/decisions.md, "One input
 * error"). `field`: the parameter or option as the editor shows it; `code`: the outcome's kind where
 * one is carried (Enrichment's INVALID_VALUE, enrichment/itemOutcome.ts). Pure (no n8n imports).
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
