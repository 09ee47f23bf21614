/**
 * The Request Timeout option of every node, checked the same way before any request: seconds above 0
 * and at most one day (why: docs/decisions.md, "Request timeout").
 */
import { InputError } from './inputError';

export const MAX_REQUEST_TIMEOUT_SECONDS = 86_400;

/** Milliseconds for a Request Timeout given in seconds; `undefined`/`null` mean the default. */
export function requestTimeoutMs(value: unknown, defaultSeconds: number): number {
	const seconds = value === undefined || value === null ? defaultSeconds : toNumber(value);
	if (!(Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_REQUEST_TIMEOUT_SECONDS)) {
		const shown = typeof value === 'string' ? `"${value.slice(0, 40)}"` : String(value);
		throw new InputError(
			`Request Timeout must be a number of seconds above 0 and at most ${MAX_REQUEST_TIMEOUT_SECONDS} (one day), got ${shown}.`,
			'Request Timeout (Seconds)',
		);
	}
	return seconds * 1000;
}

function toNumber(value: unknown): number {
	if (typeof value === 'number') return value;
	if (typeof value === 'string' && value.trim() !== '') return Number(value);
	return Number.NaN;
}
