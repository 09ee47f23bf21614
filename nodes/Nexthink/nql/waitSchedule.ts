/**
 * The wait of an export (or of Wait for Results): its panel fields, their checks and the schedule:
 * first poll after `firstDelayMs`, each following interval `factor` times the previous one, never
 * longer than `maxIntervalMs`, and never past the deadline. Defaults: docs/decisions.md, "Default poll growth".
 *
 * Contract: two status calls are never less than `MIN_POLL_GAP_MS` apart, whatever the settings;
 * only the first poll may come sooner. When the deadline is closer than that gap, the wait ends
 * (timed out) instead (docs/decisions.md, "Polling floor").
 */
import type { INodeProperties } from 'n8n-workflow';

import { InputError } from '../shared/inputError';
import { numberOf } from '../shared/parameterValues';
import { nodeErrorOf } from '../shared/nodeErrors';
import { cancelSignalOf, isNoAnswerError, sleepUnlessCancelled, throwIfCancelled, type NexthinkContext } from '../transport';

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

/** The wait settings: label, bounds and default (DEFAULT_WAIT_SETTINGS, as literals for n8n's lint). */
const WAIT_FIELDS = {
	firstPollSeconds: ['First Poll After (Seconds)', { minValue: 0 }, 2],
	maxPollIntervalSeconds: ['Longest Poll Interval (Seconds)', { minValue: 1 }, 30],
	maxWaitSeconds: ['Maximum Wait (Seconds)', { minValue: 0 }, 1800],
	pollGrowthFactor: ['Poll Interval Growth', { minValue: 1, numberPrecision: 2 }, 2],
} as const;

/** One wait setting's field (Export, Wait for Results), with what it means for the caller. */
export function waitField(name: keyof typeof WAIT_FIELDS, description: string): INodeProperties {
	const [displayName, typeOptions, defaultValue] = WAIT_FIELDS[name];
	return { displayName, name, type: 'number', typeOptions: { ...typeOptions }, default: defaultValue, description };
}

/** The shortest time between two status calls of one wait, whatever the settings. */
export const MIN_POLL_GAP_MS = 1_000;

/** Longest single wait: Node's timers fire at once above 2^31 - 1 ms, a tight loop for a huge setting. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The wait options as the panels name them, in seconds; absent ones keep the defaults. Checked (checkWaitSettings) before any request. */
export function readWaitOptions(options: { firstPollSeconds?: unknown; pollGrowthFactor?: unknown; maxPollIntervalSeconds?: unknown; maxWaitSeconds?: unknown }): WaitSettings {
	return checkWaitSettings({
		firstDelayMs: (numberOf(options.firstPollSeconds) ?? DEFAULT_WAIT_SETTINGS.firstDelayMs / 1000) * 1000,
		factor: numberOf(options.pollGrowthFactor) ?? DEFAULT_WAIT_SETTINGS.factor,
		maxIntervalMs: (numberOf(options.maxPollIntervalSeconds) ?? DEFAULT_WAIT_SETTINGS.maxIntervalMs / 1000) * 1000,
		maxWaitMs: (numberOf(options.maxWaitSeconds) ?? DEFAULT_WAIT_SETTINGS.maxWaitMs / 1000) * 1000,
	});
}

/** Checks settings before any request (docs/decisions.md, "Wait settings"). */
export function checkWaitSettings(settings: WaitSettings): WaitSettings {
	const seconds = (ms: number) => ms / 1000;
	const { firstDelayMs, factor, maxIntervalMs, maxWaitMs } = settings;
	if (!(Number.isFinite(firstDelayMs) && firstDelayMs >= 0 && firstDelayMs <= MAX_TIMER_MS)) {
		throw new InputError(`First Poll After must be a number of seconds from 0 to ${Math.floor(seconds(MAX_TIMER_MS))}, got ${seconds(firstDelayMs)}.`);
	}
	if (!(Number.isFinite(factor) && factor >= 1)) {
		throw new InputError(`Poll Interval Growth must be a number of 1 or more, got ${factor}.`);
	}
	if (!(Number.isFinite(maxIntervalMs) && maxIntervalMs > 0 && maxIntervalMs <= MAX_TIMER_MS)) {
		throw new InputError(
			`Longest Poll Interval must be a number of seconds above 0 and at most ${Math.floor(seconds(MAX_TIMER_MS))}, got ${seconds(maxIntervalMs)}.`,
		);
	}
	if (!(Number.isFinite(maxWaitMs) && maxWaitMs >= 0)) {
		throw new InputError(`Maximum Wait must be a number of seconds of 0 or more, got ${seconds(maxWaitMs)}.`);
	}
	return settings;
}

/** Interval to wait before poll number `poll` (0-based): at least `MIN_POLL_GAP_MS` after the first. */
export function pollInterval(poll: number, settings: WaitSettings): number {
	// 0 × an overflowing growth would be NaN: a first delay of 0 simply never grows
	const grown = settings.firstDelayMs === 0 ? 0 : Math.min(settings.maxIntervalMs, settings.firstDelayMs * settings.factor ** poll);
	return poll === 0 ? grown : Math.max(MIN_POLL_GAP_MS, grown);
}

/** How long to wait before the next poll, or undefined when no further poll fits before the deadline. */
export function nextWaitMs(poll: number, now: number, deadline: number, settings: WaitSettings): number | undefined {
	const remaining = deadline - now;
	if (remaining <= 0) return undefined;
	if (poll > 0 && remaining < MIN_POLL_GAP_MS) return undefined;
	return Math.min(pollInterval(poll, settings), remaining);
}

/**
 * Runs `poll` (given the deadline its calls must keep) on the schedule until it says it is done or
 * Maximum Wait runs out (docs/decisions.md, "Maximum Wait is a hard bound"). A call that got no
 * answer as the wait ran out ends it as timed out (`lastCallUnanswered`); a cancel is thrown, and
 * any other error as n8n's (`nodeErrorOf`).
 */
export async function pollOnSchedule(
	ctx: NexthinkContext,
	settings: WaitSettings,
	poll: (deadline: number) => Promise<boolean>,
	itemIndex?: number,
): Promise<{ timedOut: boolean; lastCallUnanswered: boolean; polls: number }> {
	const signal = cancelSignalOf(ctx);
	const deadline = Date.now() + settings.maxWaitMs;
	for (let polls = 0; ; polls++) {
		const waitMs = nextWaitMs(polls, Date.now(), deadline, settings);
		if (waitMs === undefined) return { timedOut: true, lastCallUnanswered: false, polls };
		await sleepUnlessCancelled(ctx, waitMs, signal, itemIndex);
		try {
			if (await poll(deadline)) return { timedOut: false, lastCallUnanswered: false, polls: polls + 1 };
		} catch (error) {
			throwIfCancelled(ctx, signal, itemIndex);
			// with less than the gap between two calls left, no further poll could come anyway
			if (isNoAnswerError(error) && deadline - Date.now() < MIN_POLL_GAP_MS) {
				return { timedOut: true, lastCallUnanswered: true, polls: polls + 1 };
			}
			throw nodeErrorOf(ctx.getNode(), error, itemIndex);
		}
	}
}
