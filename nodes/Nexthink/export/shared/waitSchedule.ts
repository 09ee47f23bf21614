/**
 * The wait behaviour of the Export operation as a pure schedule: first poll after `firstDelayMs`,
 * each following interval `factor` times the previous one, never longer than `maxIntervalMs`, and
 * never past the deadline (the last wait is shortened so one poll happens at the deadline).
 *
 * The defaults poll 2, 6, 14, 30 and 60 s after the start, then every 30 s. Status calls count
 * against a daily limit, so for exports of a minute and more this makes at most half the calls of a
 * fixed 5 s poll, while the result arrives no later than 1.5 × the export's duration + 2 s (issue 8;
 * growing by 1.5 instead makes 7 calls for a 60 s export where a fixed 5 s poll makes 12).
 */
export interface WaitSettings {
	firstDelayMs: number;
	factor: number;
	maxIntervalMs: number;
	maxWaitMs: number;
}

export const DEFAULT_WAIT_SETTINGS: WaitSettings = {
	firstDelayMs: 2_000,
	factor: 2,
	maxIntervalMs: 30_000,
	maxWaitMs: 30 * 60_000,
};

/** Interval to wait before poll number `poll` (0-based). */
export function pollInterval(poll: number, settings: WaitSettings): number {
	return Math.min(settings.maxIntervalMs, settings.firstDelayMs * settings.factor ** poll);
}

/** How long to wait before the next poll, or undefined when the deadline has passed. */
export function nextWaitMs(poll: number, now: number, deadline: number, settings: WaitSettings): number | undefined {
	const remaining = deadline - now;
	if (remaining <= 0) return undefined;
	return Math.min(pollInterval(poll, settings), remaining);
}
