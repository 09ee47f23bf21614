/**
 * The one reading of each kind of parameter or option value, for every node: an expression may hand
 * over any JSON value, and what is returned is what was checked. Why, per kind: docs/decisions.md,
 * "How a switch is read", "How a choice is read", "How a number is read", "How free text is read",
 * "Request timeout". `label`: the parameter as the editor shows it; `fallback`: its default when absent.
 */
import { describeValue, InputError } from './inputError';

const ON = new Set(['true', '1', 'yes', 'on']);
const OFF = new Set(['false', '0', 'no', 'off']);

/** A switch: n8n's `ensureType: 'boolean'` would read `"false"` as on. */
export function readBoolean(raw: unknown, label: string, fallback: boolean): boolean {
	if (raw === undefined) return fallback;
	if (typeof raw === 'boolean') return raw;
	if (typeof raw === 'number' || typeof raw === 'string') {
		const word = String(raw).trim().toLowerCase();
		if (ON.has(word)) return true;
		if (OFF.has(word)) return false;
	}
	throw new InputError(
		`"${label}" must be true or false, got ${describeValue(raw)}. Give true or false (or 1 / 0, "yes" / "no").`,
		label,
	);
}

/** A choice: `choices` are the values its panel offers (exactly, no trimming or case folding: what is returned is what is sent). */
export function readChoice<T extends string>(raw: unknown, label: string, choices: readonly T[], fallback: T): T {
	if (raw === undefined) return fallback;
	if ((choices as readonly unknown[]).includes(raw)) return raw as T;
	const listed = choices.map((choice) => `"${choice}"`);
	const offered = listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(', ')} or ${listed[listed.length - 1]}`;
	throw new InputError(`"${label}" must be ${listed.length === 1 ? '' : 'one of '}${offered}, got ${describeValue(raw)}.`, label);
}

/**
 * Free text that goes into a request or names a field as it is (`String(["a"])` would be `a`): text
 * as given, a number as its text, absent as ''; anything else an input error.
 */
export function readText(raw: unknown, label: string): string {
	if (raw === undefined || raw === null) return '';
	if (typeof raw === 'string') return raw;
	if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
	throw new InputError(`"${label}" must be text, got ${describeValue(raw)}.`, label);
}

const NUMERIC_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|^[+-]?Infinity$/;

/**
 * A value as a number (`Number()` reads `true` as 1, `[5]` as 5, `"0x10"` as 16): `undefined` when
 * absent (`undefined`, `null` or empty text, what an expression of a missing value gives); a number,
 * or decimal text of one (blanks around allowed), as that number; anything else NaN, which each
 * caller's range check fails with its own message.
 */
export function numberOf(raw: unknown): number | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	if (typeof raw === 'number') return raw;
	if (typeof raw === 'string' && NUMERIC_TEXT.test(raw.trim())) return Number(raw);
	return Number.NaN;
}

/** A count or a limit: a whole number from `min` (to `max` when given; `span` adds e.g. " (7 days)"). */
export function readWholeNumber(raw: unknown, label: string, fallback: number, min: number, max?: number, span = ''): number {
	const value = numberOf(raw);
	if (value === undefined) return fallback;
	if (!Number.isInteger(value) || value < min || (max !== undefined && value > max)) {
		throw new InputError(`${label} must be a whole number from ${min}${max !== undefined ? ` to ${max}` : ' up'}${span}, got ${describeValue(raw)}.`, label);
	}
	return value;
}

const MAX_REQUEST_TIMEOUT_SECONDS = 86_400;

/** Milliseconds for the Request Timeout option of every node, in seconds above 0 and at most one day; `undefined`/`null` mean the default. */
export function requestTimeoutMs(value: unknown, defaultSeconds: number): number {
	// empty text is refused here, not read as the default: a timeout is never silently changed
	const seconds = value === undefined || value === null ? defaultSeconds : (numberOf(value) ?? Number.NaN);
	if (!(Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_REQUEST_TIMEOUT_SECONDS)) {
		throw new InputError(
			`Request Timeout must be a number of seconds above 0 and at most ${MAX_REQUEST_TIMEOUT_SECONDS} (one day), got ${describeValue(value)}.`,
			'Request Timeout (Seconds)',
		);
	}
	return seconds * 1000;
}
