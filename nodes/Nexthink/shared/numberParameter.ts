/**
 * The one conversion of a number parameter or option, for every node: an expression may hand over
 * text (a CSV column, `$vars`) or any other value, and JavaScript's `Number()` reads `true` as 1,
 * `[5]` as 5, `"0x10"` as 16 and `" "` as 0. Each caller checks the range with its own message, which
 * a NaN always fails, or uses `readWholeNumber`. Why: docs/decisions.md, "How a number is read".
 */
import { describeValue, InputError } from './inputError';

const NUMERIC_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|^[+-]?Infinity$/;

/**
 * A value as a number: `undefined` when absent (`undefined`, `null` or empty text, which is what an
 * expression of a missing value gives); a number, or decimal text of one (blanks around allowed), as
 * that number; anything else (a boolean, a list, an object, other text) NaN.
 */
export function numberOf(raw: unknown): number | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	if (typeof raw === 'number') return raw;
	if (typeof raw === 'string' && NUMERIC_TEXT.test(raw.trim())) return Number(raw);
	return Number.NaN;
}

/**
 * A count or a limit: a whole number from `min` (to `max` when given; `span` adds e.g. " (7 days)");
 * absent gives `fallback`; anything else an input error naming `label`, the parameter as the editor shows it.
 */
export function readWholeNumber(raw: unknown, label: string, fallback: number, min: number, max?: number, span = ''): number {
	const value = numberOf(raw);
	if (value === undefined) return fallback;
	if (!Number.isInteger(value) || value < min || (max !== undefined && value > max)) {
		throw new InputError(`${label} must be a whole number from ${min}${max !== undefined ? ` to ${max}` : ' up'}${span}, got ${describeValue(raw)}.`, label);
	}
	return value;
}
