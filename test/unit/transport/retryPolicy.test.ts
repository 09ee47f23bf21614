/**
 * The retry-after reading of the transport's retry policy: only delta-seconds and the three
 * HTTP-date forms count; anything else falls back to the normal backoff (undefined); and the wait
 * after a 429, never under RATE_LIMITED_MIN_WAIT_MS.
 */
import {
	backoffDelayMs,
	DEFAULT_RETRY_POLICY,
	parseRetryAfterMs,
	RATE_LIMITED_MIN_WAIT_MS,
	retryWaitMs,
} from '../../../nodes/Nexthink/transport/retryPolicy';

const NOW = Date.UTC(2026, 10, 23, 10, 0, 0);

describe('parseRetryAfterMs', () => {
	it.each([
		['0', 0],
		['7', 7000],
		[' 120 ', 120_000],
		['Mon, 23 Nov 2026 10:00:30 GMT', 30_000],
		['Monday, 23-Nov-26 10:01:00 GMT', 60_000],
		['Mon Nov 23 10:00:05 2026', 5000],
		['Sun, 22 Nov 2026 10:00:00 GMT', 0],
	])('reads %j as %d ms', (value, expected) => {
		expect(parseRetryAfterMs(value, NOW)).toBe(expected);
	});

	it.each(['-5', '-1', '1.5', '3000.5', '1e3', '+5', 'soon', '', '2026-11-23T10:00:30Z', 'Mon, 23 Nov 2026 10:00:30'])(
		'falls back to the backoff for %j (negative, fractional or not a retry-after form)',
		(value) => {
			expect(parseRetryAfterMs(value, NOW)).toBeUndefined();
		},
	);

	it('is undefined when the header is absent', () => {
		expect(parseRetryAfterMs(undefined, NOW)).toBeUndefined();
	});

	it('clamps absurdly long delta-seconds so later date arithmetic stays valid', () => {
		const ms = parseRetryAfterMs('99999999999999999999', NOW)!;
		expect(Number.isFinite(new Date(NOW + ms).getTime())).toBe(true);
		expect(ms).toBeGreaterThan(10 * 365 * 24 * 3600 * 1000);
	});
});

describe('retryWaitMs: a 429 is never retried sooner than RATE_LIMITED_MIN_WAIT_MS', () => {
	const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 50 };
	const jitters = [() => 0, () => 0.5, () => 0.999];

	it.each(['1.5', 'abc', '-1', '', '0', 'Sun, 22 Nov 2026 10:00:00 GMT', undefined])('retry-after %j on 429: at least 1 s on every retry', (value) => {
		for (let retry = 0; retry < policy.maxRetries; retry++) {
			for (const random of jitters) {
				expect(retryWaitMs(429, parseRetryAfterMs(value, NOW), retry, policy, random)).toBeGreaterThanOrEqual(RATE_LIMITED_MIN_WAIT_MS);
			}
		}
	});

	it('an unusable retry-after falls back to the backoff, which counts when it is longer than the floor', () => {
		const wait = retryWaitMs(429, parseRetryAfterMs('abc', NOW), 6, policy, () => 0.999);
		expect(wait).toBe(backoffDelayMs(6, policy, () => 0.999));
		expect(wait).toBeGreaterThan(RATE_LIMITED_MIN_WAIT_MS);
	});

	it('a usable retry-after is waited for as given when longer than the floor', () => {
		expect(retryWaitMs(429, parseRetryAfterMs('7', NOW), 0, policy)).toBe(7000);
	});

	it('other statuses keep their retry-after or backoff (a 503 may ask for an immediate retry)', () => {
		expect(retryWaitMs(503, 0, 0, policy)).toBe(0);
		expect(retryWaitMs(503, undefined, 0, policy, () => 0)).toBe(25);
	});
});
