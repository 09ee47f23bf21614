// @ts-check
'use strict';

const crypto = require('node:crypto');

/**
 * Pre-signed results URLs, in the spirit of object-storage query-string authentication: the path and
 * the expiry time (unix seconds) are signed with a server-only HMAC key, so the URL alone grants
 * access until it expires, and no Authorization header is involved.
 */
class UrlSigner {
	constructor() {
		this.key = crypto.randomBytes(32);
	}

	/**
	 * @param {string} path
	 * @param {number} expires unix seconds
	 */
	signature(path, expires) {
		return crypto.createHmac('sha256', this.key).update(`GET\n${path}\n${expires}`).digest('hex');
	}

	/**
	 * @param {string} baseUrl
	 * @param {string} path
	 * @param {number} nowMs
	 * @param {number} lifetimeSeconds
	 */
	sign(baseUrl, path, nowMs, lifetimeSeconds) {
		const expires = Math.floor(nowMs / 1000) + lifetimeSeconds;
		return `${baseUrl}${path}?expires=${expires}&signature=${this.signature(path, expires)}`;
	}

	/**
	 * @param {string} path
	 * @param {URLSearchParams} search
	 * @param {number} nowMs
	 * @returns {'valid' | 'missing' | 'bad-signature' | 'expired'}
	 */
	check(path, search, nowMs) {
		const expires = search.get('expires');
		const signature = search.get('signature');
		if (!expires || !signature) return 'missing';
		if (!/^\d+$/.test(expires)) return 'bad-signature';
		const expected = Buffer.from(this.signature(path, Number(expires)));
		const given = Buffer.from(signature);
		if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return 'bad-signature';
		return Number(expires) * 1000 <= nowMs ? 'expired' : 'valid';
	}
}

module.exports = { UrlSigner };
