/**
 * When to retry a request and how long to wait: pure functions, so the policy is tested without
 * a clock or a network. The transport (request.ts) is the only caller; docs/decisions.md says why
 * each status is or is not retried.
 */

export interface RetryPolicy {
	/** Retries after the first attempt. */
	maxRetries: number;
	/** Delay before the first retry; doubles with each further retry. */
	baseDelayMs: number;
	/** No single backoff delay is longer than this. */
	maxDelayMs: number;
	/** A `retry-after` longer than this fails at once, even without a deadline. */
	maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxRetries: 4,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
	maxRetryAfterMs: 10 * 60_000,
};

/** Statuses that say "try again later" for a request that is safe to repeat. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * Statuses that refuse a request before it runs: 429 (rate limit) and 503 (service unavailable).
 * Only these may be resent for a request that is not idempotent: nothing has run yet.
 */
export const REFUSED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Error codes of a connection that failed or broke before an answer arrived. */
const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
]);

/** Error codes of a connection that was never made, so the request cannot have reached the server. */
const NEVER_SENT_NETWORK_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

export function isNeverSentNetworkCode(code: string | undefined): boolean {
	return code !== undefined && NEVER_SENT_NETWORK_CODES.has(code);
}

export function isRetryableNetworkCode(code: string | undefined): boolean {
	return code !== undefined && RETRYABLE_NETWORK_CODES.has(code);
}

/**
 * Capped exponential backoff with jitter: the delay for retry `retry` (0-based) lies between half
 * and all of `min(maxDelay, base * 2^retry)`, so clients that failed together do not retry together.
 */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * The shortest wait before a request refused with 429 goes out again, whatever `retry-after` or the
 * backoff say: a rate limit is the service asking for fewer calls, and a `retry-after` of `0`, a date
 * in the past or an unreadable value (which falls back to the backoff, 250 ms on the first retry)
 * must not make the calls come faster than normal polling does (at most one a second, as the
 * Export's status calls: nql/waitSchedule.ts).
 */
export const RATE_LIMITED_MIN_WAIT_MS = 1_000;

/**
 * How long to wait before retry `retry` (0-based) of a request answered `statusCode`: the
 * `retry-after` when the answer had a usable one, else the backoff; after a 429 never less than
 * `RATE_LIMITED_MIN_WAIT_MS`.
 */
export function retryWaitMs(statusCode: number, retryAfterMs: number | undefined, retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
	const wait = retryAfterMs ?? backoffDelayMs(retry, policy, random);
	return statusCode === 429 ? Math.max(RATE_LIMITED_MIN_WAIT_MS, wait) : wait;
}

/** The longest delta-seconds read literally (about 31 years); longer values are clamped to it. */
const MAX_RETRY_AFTER_SECONDS = 999_999_999;

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/**
 * The three HTTP-date forms a recipient must accept (RFC 9110 section 5.6.7): IMF-fixdate
 * `Sun, 06 Nov 1994 08:49:37 GMT`, obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime
 * `Sun Nov  6 08:49:37 1994`. Anything else is not handed to `Date.parse`, whose leniency reads
 * "-5" as May 2001 and "3000.5" as May 3000.
 */
const HTTP_DATE = new RegExp(
	`^(?:${DAY}, \\d{2} ${MONTH} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT` +
		`|(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT` +
		`|${DAY} ${MONTH} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4})$`,
);

/**
 * Milliseconds to wait according to a `retry-after` header, which is either delta-seconds (a
 * non-negative whole number) or an HTTP-date (RFC 9110 section 10.2.3). Undefined when absent or not
 * one of these forms (negative, fractional, any other text), so the caller falls back to its normal
 * backoff; never negative (a date in the past means "now").
 */
export function parseRetryAfterMs(value: string | undefined, now: number): number | undefined {
	if (value === undefined) return undefined;
	const text = value.trim();
	if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_SECONDS) * 1000;
	if (!HTTP_DATE.test(text)) return undefined;
	// RFC 850 dates use dashes; asctime dates carry no zone but are GMT too
	const at = Date.parse(text.endsWith('GMT') ? text.replace(/-/g, ' ') : `${text} GMT`);
	if (Number.isNaN(at)) return undefined;
	return Math.max(0, at - now);
}
