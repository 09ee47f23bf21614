/**
 * The reading of a free-text parameter whose value goes into a request or names a field as it is (an
 * export ID in a URL path, a URL, a binary field name): an expression may hand over a list or an
 * object, which `String()` would turn into `a` (from `["a"]`) or `[object Object]`.
 */
import { describeValue, InputError } from './inputError';

/** `label`: the parameter as the editor shows it. Text as given, a number as its text, absent as ''; anything else an input error naming it. */
export function readText(raw: unknown, label: string): string {
	if (raw === undefined || raw === null) return '';
	if (typeof raw === 'string') return raw;
	if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
	throw new InputError(`"${label}" must be text, got ${describeValue(raw)}.`, label);
}
