// @ts-check
'use strict';

/**
 * The daily limit on status calls, per client. The window ends at the next UTC midnight; once the
 * limit is hit, `retryAfterSeconds` (when set) shortens the window to that many seconds from then, so
 * tests can see a limit lift without waiting a day.
 *
 * @typedef {{ count: number, resetAt: number, limited: boolean }} Window
 */

/** @param {number} nowMs */
function nextUtcMidnight(nowMs) {
	const date = new Date(nowMs);
	return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
}

class StatusQuota {
	/**
	 * @param {object} options
	 * @param {() => number} options.now
	 * @param {() => number} options.limit  read per call, so tests may change it live
	 * @param {() => number | undefined} options.retryAfterSeconds
	 */
	constructor({ now, limit, retryAfterSeconds }) {
		this.now = now;
		this.limit = limit;
		this.retryAfterSeconds = retryAfterSeconds;
		/** @type {Map<string, Window>} */
		this.windows = new Map();
	}

	/**
	 * Counts one call; returns when the client may retry if it is over the limit.
	 * @param {string} clientId
	 * @returns {{ allowed: true } | { allowed: false, resetAt: number }}
	 */
	take(clientId) {
		const now = this.now();
		let window = this.windows.get(clientId);
		if (!window || now >= window.resetAt) {
			window = { count: 0, resetAt: nextUtcMidnight(now), limited: false };
			this.windows.set(clientId, window);
		}
		if (window.count >= this.limit()) {
			const seconds = this.retryAfterSeconds();
			if (!window.limited && seconds !== undefined) window.resetAt = now + seconds * 1000;
			window.limited = true;
			return { allowed: false, resetAt: window.resetAt };
		}
		window.count += 1;
		return { allowed: true };
	}

	reset() {
		this.windows.clear();
	}
}

/**
 * The `retry-after` header value for a reset time: delta-seconds (at least 1) or an IMF-fixdate.
 * @param {number} resetAt
 * @param {number} now
 * @param {'seconds' | 'http-date'} format
 */
function retryAfterValue(resetAt, now, format) {
	if (format === 'http-date') return new Date(Math.ceil(resetAt / 1000) * 1000).toUTCString();
	return String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
}

module.exports = { StatusQuota, retryAfterValue };
