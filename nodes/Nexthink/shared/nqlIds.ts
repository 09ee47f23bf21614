/**
 * NQL IDs (`#name`) and $parameter names as users type them, for every node: the `#` may be left
 * out and the case is kept. What an ID may hold depends on what it names, so each kind has its own
 * rule under its own name (why: docs/decisions.md, "Lighter code, fourth pass: across folders"). Pure.
 */
import { describeValue, InputError } from './inputError';

/** A stored query's ID, as the NQL API declares `queryId`. */
export const QUERY_ID_PATTERN = /^#[a-z0-9_]{2,255}$/;

/** An NQL $parameter's name, without its `$`. */
export const PARAMETER_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The ID trimmed, with its `#` (added when missing). Not checked. */
export function withHash(raw: string): string {
	const text = raw.trim();
	return text.startsWith('#') ? text : `#${text}`;
}

/**
 * The NQL ID of a remote action, workflow or campaign: text, not empty (`empty` says what to do),
 * without spaces. The Actions APIs declare no pattern for these IDs, so a stricter rule could refuse
 * a real one.
 */
export function objectNqlId(raw: unknown, object: { name: string; field: string; example: string; empty: string; copyFrom: string }): string {
	if (raw !== null && raw !== undefined && typeof raw !== 'string') {
		throw new InputError(`The ${object.name} must be an NQL ID such as ${object.example}, got ${describeValue(raw)}`, object.field);
	}
	const text = (raw ?? '').trim();
	if (text === '' || text === '#') throw new InputError(object.empty, object.field);
	if (/\s/.test(text)) throw new InputError(`The ${object.name} ID "${text.slice(0, 80)}" contains spaces. Use its NQL ID${object.copyFrom}, e.g. ${object.example}`, object.field);
	return withHash(text);
}

/**
 * The NQL ID of a custom field or organization level, as NQL writes it in a field's name
 * (`user/user/#tier`): `#`, then letters, digits and underscores; undefined for anything else. Strict,
 * because an input key is read as a field only when it names one.
 */
export function fieldNqlId(raw: string): string | undefined {
	const id = withHash(raw);
	return /^#[A-Za-z0-9_]+$/.test(id) ? id : undefined;
}
