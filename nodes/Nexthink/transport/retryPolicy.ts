/** When to retry a request and how long to wait, for request.ts. Why: docs/decisions.md, "Retry policy". */

export const DEFAULT_RETRY_POLICY = {
	/** Retries after the first attempt. */
	maxRetries: 4,
	/** Delay before the first retry; doubles with each further retry. */
	baseDelayMs: 500,
	/** No single backoff delay is longer than this. */
	maxDelayMs: 30_000,
	/** A `retry-after` longer than this fails at once, even without a deadline. */
	maxRetryAfterMs: 10 * 60_000,
};

export type RetryPolicy = typeof DEFAULT_RETRY_POLICY;

/** Statuses that say "try again later" for a request that is safe to repeat. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Statuses that refuse a request before it runs: the only ones a request that is not idempotent is resent after. */
export const REFUSED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Error codes of a connection that failed or broke before an answer arrived. */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
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
export const NEVER_SENT_NETWORK_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** Capped exponential backoff with jitter: between half and all of `min(maxDelay, base * 2^retry)`. */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The shortest wait after a 429, whatever `retry-after` says (docs/decisions.md, "A 429 never speeds calls up"). */
export const RATE_LIMITED_MIN_WAIT_MS = 1_000;

/** The wait before retry `retry` (0-based): `retry-after` if usable, else the backoff; after a 429 at least 1 s. */
export function retryWaitMs(statusCode: number, retryAfterMs: number | undefined, retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
	const wait = retryAfterMs ?? backoffDelayMs(retry, policy, random);
	return statusCode === 429 ? Math.max(RATE_LIMITED_MIN_WAIT_MS, wait) : wait;
}

/** The longest delta-seconds read literally (about 31 years); longer values are clamped to it. */
const MAX_RETRY_AFTER_SECONDS = 999_999_999;

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/**
 * The three HTTP-date forms of RFC 9110 section 5.6.7 (IMF-fixdate, RFC 850, asctime); anything else
 * is not handed to the lenient `Date.parse` (docs/decisions.md, "`retry-after` forms").
 */
const HTTP_DATE = new RegExp(
	`^(?:${DAY}, \\d{2} ${MONTH} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT` +
		`|(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT` +
		`|${DAY} ${MONTH} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4})$`,
);

/**
 * Milliseconds a `retry-after` (delta-seconds or HTTP-date) asks for, never negative; undefined when
 * absent or of another form, so the caller falls back to its backoff.
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
