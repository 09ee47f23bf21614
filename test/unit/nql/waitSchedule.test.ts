import {
	checkWaitSettings,
	DEFAULT_WAIT_SETTINGS,
	MIN_POLL_GAP_MS,
	nextWaitMs,
	pollInterval,
	type WaitSettings,
} from '../../../nodes/Nexthink/nql/waitSchedule';

/** Seconds after the start at which the schedule polls, up to `horizonS` (no deadline in the way). */
function pollTimes(settings: WaitSettings, horizonS: number): number[] {
	const times: number[] = [];
	let elapsedMs = 0;
	for (let poll = 0; elapsedMs < horizonS * 1000; poll++) {
		elapsedMs += nextWaitMs(poll, 0, Number.POSITIVE_INFINITY, settings)!;
		times.push(elapsedMs / 1000);
	}
	return times;
}

describe('wait schedule', () => {
	it('polls 2, 6, 14, 30 and 60 s after the start by default, then every 30 s', () => {
		expect(pollTimes(DEFAULT_WAIT_SETTINGS, 150)).toEqual([2, 6, 14, 30, 60, 90, 120, 150]);
	});

	it('for exports of 60 s and longer makes at most half the status calls of a fixed 5 s poll, with the result by 1.5 × duration + 2 s', () => {
		const times = pollTimes(DEFAULT_WAIT_SETTINGS, 3 * 3600);
		// One expectation over all 28,561 durations: an expect() per duration costs seconds.
		const tooManyCalls: number[] = [];
		const tooLate: number[] = [];
		for (let durationS = 60; durationS <= 2 * 3600; durationS += 0.25) {
			const completing = times.findIndex((time) => time >= durationS);
			const statusCalls = completing + 1;
			const fixedFiveSecondCalls = Math.ceil(durationS / 5);
			if (statusCalls > fixedFiveSecondCalls / 2) tooManyCalls.push(durationS);
			if (!(times[completing] <= 1.5 * durationS + 2)) tooLate.push(durationS);
		}
		expect({ tooManyCalls, tooLate }).toEqual({ tooManyCalls: [], tooLate: [] });
	});

	it('never waits longer than the longest interval, nor past the deadline', () => {
		const settings = { ...DEFAULT_WAIT_SETTINGS, firstDelayMs: 1000, factor: 3, maxIntervalMs: 5000 };
		expect([0, 1, 2, 3].map((poll) => pollInterval(poll, settings))).toEqual([1000, 3000, 5000, 5000]);
		expect(nextWaitMs(3, 10_000, 12_000, settings)).toBe(2000);
		expect(nextWaitMs(3, 12_000, 12_000, settings)).toBeUndefined();
	});

	it('keeps polls after the first at least 1 s apart, whatever the settings', () => {
		const eager = { firstDelayMs: 0, factor: 1, maxIntervalMs: 1, maxWaitMs: 60_000 };
		expect(MIN_POLL_GAP_MS).toBe(1000);
		expect([0, 1, 2, 50].map((poll) => pollInterval(poll, eager))).toEqual([0, 1000, 1000, 1000]);
		// a growth that overflows to Infinity never turns into NaN
		expect(pollInterval(5000, { ...eager, factor: 2 })).toBe(1000);
		expect(pollInterval(5000, { ...eager, firstDelayMs: 10, factor: 2, maxIntervalMs: 30_000 })).toBe(30_000);
	});

	it('makes no further poll when the deadline is closer than the minimum gap', () => {
		const settings = { ...DEFAULT_WAIT_SETTINGS, firstDelayMs: 100, maxIntervalMs: 5000 };
		expect(nextWaitMs(0, 0, 500, settings)).toBe(100);
		expect(nextWaitMs(1, 0, 999, settings)).toBeUndefined();
		expect(nextWaitMs(1, 0, 1000, settings)).toBe(1000);
	});

	it.each([
		[{ firstDelayMs: -1 }, /First Poll After/],
		[{ firstDelayMs: Number.NaN }, /First Poll After/],
		[{ firstDelayMs: 2 ** 31 }, /First Poll After/],
		[{ factor: 0.99 }, /Poll Interval Growth/],
		[{ factor: Number.POSITIVE_INFINITY }, /Poll Interval Growth/],
		[{ maxIntervalMs: 0 }, /Longest Poll Interval/],
		[{ maxIntervalMs: Number.NaN }, /Longest Poll Interval/],
		[{ maxIntervalMs: 2 ** 31 }, /Longest Poll Interval/],
		[{ maxWaitMs: -1 }, /Maximum Wait/],
		[{ maxWaitMs: Number.POSITIVE_INFINITY }, /Maximum Wait/],
	])('rejects %p, naming the field', (override, field) => {
		expect(() => checkWaitSettings({ ...DEFAULT_WAIT_SETTINGS, ...override })).toThrow(field);
	});

	it('accepts the defaults, a growth of exactly 1 and a maximum wait of 0', () => {
		expect(checkWaitSettings(DEFAULT_WAIT_SETTINGS)).toEqual(DEFAULT_WAIT_SETTINGS);
		expect(() => checkWaitSettings({ ...DEFAULT_WAIT_SETTINGS, factor: 1, maxWaitMs: 0, firstDelayMs: 0 })).not.toThrow();
	});
});
