/**
 * The Request Timeout option of every node, checked the same way before any request: seconds above 0
 * and at most one day (why: docs/decisions.md, "Request timeout").
 */
import { describeValue, InputError } from './inputError';
import { numberOf } from './numberParameter';

export const MAX_REQUEST_TIMEOUT_SECONDS = 86_400;
const REQUEST_TIMEOUT_LABEL = 'Request Timeout (Seconds)';

/** Milliseconds for a Request Timeout given in seconds; `undefined`/`null` mean the default. */
export function requestTimeoutMs(value: unknown, defaultSeconds: number): number {
	// empty text is refused here, not read as the default: a timeout is never silently changed
	const seconds = value === undefined || value === null ? defaultSeconds : (numberOf(value) ?? Number.NaN);
	if (!(Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_REQUEST_TIMEOUT_SECONDS)) {
		throw new InputError(
			`Request Timeout must be a number of seconds above 0 and at most ${MAX_REQUEST_TIMEOUT_SECONDS} (one day), got ${describeValue(value)}.`,
			REQUEST_TIMEOUT_LABEL,
		);
	}
	return seconds * 1000;
}
