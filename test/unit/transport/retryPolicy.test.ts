/**
 * The retry-after reading of the transport's retry policy: only delta-seconds and the three
 * HTTP-date forms count; anything else falls back to the normal backoff (undefined).
 */
import { parseRetryAfterMs } from '../../../nodes/Nexthink/transport/retryPolicy';

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
