// @ts-check
'use strict';

/**
 * The server's notion of "now". Everything time-based (token and URL expiry, time-based export
 * completion, the status quota window, execution timestamps) reads it, so a test can jump ahead with
 * `advance()` instead of sleeping.
 */
class Clock {
	constructor() {
		this.offsetMs = 0;
	}

	/** @returns {number} milliseconds since the epoch */
	now() {
		return Date.now() + this.offsetMs;
	}

	/** @param {number} ms */
	advance(ms) {
		this.offsetMs += ms;
	}
}

module.exports = { Clock };
