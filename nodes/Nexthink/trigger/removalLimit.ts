/**
 * Maximum Removed per Poll: a poll in which more rows vanish at once than the user allows fails,
 * keeping the state, instead of reporting them as `removed`. Pure (no n8n imports). Why:
 * docs/decisions.md, "Maximum Removed per Poll".
 */
import { InputError } from '../shared/inputError';

export interface RemovalLimit {
	/** Most removed rows (keys) per poll; 0: no limit (the default: docs/decisions.md says why). */
	maxRemoved: number;
	/** Most removed rows as a share of the previous result's rows, in percent; 0: no limit. */
	maxRemovedPercent: number;
}

/** More rows vanished than the limit allows: the poll fails and keeps the state. */
export class RemovalLimitError extends Error {}

/** Reads the two options (empty: 0, no limit); a bad value is an error naming the option. */
export function readRemovalLimit(maxRemoved: unknown, maxRemovedPercent: unknown): RemovalLimit {
	const read = (value: unknown, label: string, max: number) => {
		if (value === undefined || value === null || value === '') return 0;
		const number = typeof value === 'number' ? value : Number(value);
		if (!Number.isInteger(number) || number < 0 || number > max) {
			throw new InputError(`${label} must be a whole number from 0 (no limit) to ${max.toLocaleString('en-US')}, not ${JSON.stringify(value)}.`);
		}
		return number;
	};
	return {
		maxRemoved: read(maxRemoved, 'Maximum Removed per Poll', Number.MAX_SAFE_INTEGER),
		maxRemovedPercent: read(maxRemovedPercent, 'Maximum Removed per Poll (%)', 100),
	};
}

/**
 * Throws RemovalLimitError when `removed` of `previousKeys` rows is more than the limit allows.
 * A limit in percent allows at least one row, so that it never refuses every removal from a small result.
 */
export function checkRemovals(removed: number, previousKeys: number, limit: RemovalLimit): void {
	if (removed === 0) return;
	const share = previousKeys === 0 ? 100 : (removed / previousKeys) * 100;
	const overCount = limit.maxRemoved > 0 && removed > limit.maxRemoved;
	const overShare = limit.maxRemovedPercent > 0 && removed > 1 && share > limit.maxRemovedPercent;
	if (!overCount && !overShare) return;
	const allowed = [
		...(limit.maxRemoved > 0 ? [`Maximum Removed per Poll: ${limit.maxRemoved.toLocaleString('en-US')}`] : []),
		...(limit.maxRemovedPercent > 0 ? [`Maximum Removed per Poll (%): ${limit.maxRemovedPercent}`] : []),
	].join(', ');
	throw new RemovalLimitError(
		`${removed.toLocaleString('en-US')} of the previous ${previousKeys.toLocaleString('en-US')} rows (${formatShare(share)} %) vanished at once, more than the trigger may report as removed in one poll (${allowed}). Nothing was reported.`,
	);
}

function formatShare(share: number): string {
	return share >= 10 || share === 0 ? share.toFixed(0) : share.toFixed(1);
}
