import { NexthinkHostError, resolveNexthinkHosts } from '../../../nodes/Nexthink/transport/hosts';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, parseRetryAfterMs } from '../../../nodes/Nexthink/transport/retryPolicy';

describe('resolveNexthinkHosts', () => {
	it.each([
		['us', 'https://acme.api.us.nexthink.cloud', 'https://acme-login.us.nexthink.cloud/oauth2/default/v1/token'],
		['eu', 'https://acme.api.eu.nexthink.cloud', 'https://acme-login.eu.nexthink.cloud/oauth2/default/v1/token'],
		['pac', 'https://acme.api.pac.nexthink.cloud', 'https://acme-login.pac.nexthink.cloud/oauth2/default/v1/token'],
		['meta', 'https://acme.api.meta.nexthink.cloud', 'https://acme-login.meta.nexthink.cloud/oauth2/default/v1/token'],
	])('maps region %s to its API and login hosts', (region, apiBaseUrl, tokenUrl) => {
		expect(resolveNexthinkHosts({ instance: 'acme', region })).toEqual({ apiBaseUrl, tokenUrl });
	});

	it('tolerates whitespace, a trailing slash and capitals in the instance name', () => {
		expect(resolveNexthinkHosts({ instance: '  Acme/ ', region: 'eu' }).apiBaseUrl).toBe('https://acme.api.eu.nexthink.cloud');
	});

	it.each(['https://acme.eu.nexthink.cloud', 'acme.eu.nexthink.cloud', 'acme.api'])(
		'rejects an instance name that is a URL or host name (%s) with a hint',
		(instance) => {
			expect(() => resolveNexthinkHosts({ instance, region: 'eu' })).toThrow(/looks like a URL or host name.*"acme"/);
		},
	);

	it('rejects an empty instance, odd characters and an unknown region', () => {
		expect(() => resolveNexthinkHosts({ instance: ' ', region: 'eu' })).toThrow(NexthinkHostError);
		expect(() => resolveNexthinkHosts({ instance: 'ac me', region: 'eu' })).toThrow(/letters, digits and hyphens/);
		expect(() => resolveNexthinkHosts({ instance: 'acme', region: 'ca' })).toThrow(/Unknown region "ca".*us, eu, pac, meta/);
	});

	it('uses custom URLs as given, minus whitespace and trailing slashes', () => {
		expect(
			resolveNexthinkHosts({
				useCustomUrls: true,
				apiBaseUrl: ' http://127.0.0.1:8080/proxy/// ',
				tokenUrl: 'https://login.example.test/api/v1/token/ ',
			}),
		).toEqual({ apiBaseUrl: 'http://127.0.0.1:8080/proxy', tokenUrl: 'https://login.example.test/api/v1/token' });
	});

	it('rejects custom URLs that are not http(s) URLs', () => {
		expect(() => resolveNexthinkHosts({ useCustomUrls: true, apiBaseUrl: 'acme.example', tokenUrl: 'https://x.test' })).toThrow(
			/"API Base URL" must be a full URL/,
		);
		expect(() => resolveNexthinkHosts({ useCustomUrls: true, apiBaseUrl: 'https://x.test', tokenUrl: '' })).toThrow(/"Token URL" is empty/);
	});
});

describe('retry policy', () => {
	it('reads retry-after as delta-seconds and as an HTTP-date', () => {
		const now = Date.parse('2026-11-23T10:00:00Z');
		expect(parseRetryAfterMs('7', now)).toBe(7000);
		expect(parseRetryAfterMs('Mon, 23 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
		expect(parseRetryAfterMs('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
		expect(parseRetryAfterMs('soon', now)).toBeUndefined();
		expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
	});

	it('backs off exponentially with jitter between half and all of a capped ceiling', () => {
		const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
		expect(backoffDelayMs(0, policy, () => 0)).toBe(50);
		expect(backoffDelayMs(0, policy, () => 1)).toBe(100);
		expect(backoffDelayMs(3, policy, () => 1)).toBe(800);
		expect(backoffDelayMs(10, policy, () => 1)).toBe(1000);
		expect(backoffDelayMs(10, policy, () => 0)).toBe(500);
	});
});
