/**
 * When to retry a request and how long to wait: pure functions, so the policy is tested without
 * a clock or a network. The transport is the only caller (design.md section 4, "Retries").
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
 * Milliseconds to wait according to a `retry-after` header, which is either delta-seconds or an
 * HTTP-date (RFC 9110 section 10.2.3). Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfterMs(value: string | undefined, now: number): number | undefined {
	if (value === undefined) return undefined;
	const text = value.trim();
	if (/^\d+$/.test(text)) return Number(text) * 1000;
	const at = Date.parse(text);
	if (Number.isNaN(at)) return undefined;
	return Math.max(0, at - now);
}
