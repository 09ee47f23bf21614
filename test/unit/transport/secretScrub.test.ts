/**
 * The one scrubbing of server text (transport/secretScrub.ts): every form an echo may carry the
 * client secret, the token or the Basic credential in, and any bearer value or JWT, becomes
 * `[redacted]`; the rest of the text stays readable. Over real HTTP:
 * test/integration/transport/echoedSecrets.test.ts and test/integration/actions/runRequestFailures.test.ts.
 */
import { REDACTED, scrubText, scrubValue, secretForms } from '../../../nodes/Nexthink/transport/secretScrub';

const VALUES = { clientId: 'n8n-client', clientSecret: 'p@ss word/+&=ü"<x>', accessToken: 'opaque-token-0123456789' };
const FORMS = secretForms(VALUES);
const BASIC = Buffer.from(`${VALUES.clientId}:${VALUES.clientSecret}`).toString('base64');

describe('scrubText', () => {
	it.each([
		['the secret as sent', VALUES.clientSecret],
		['percent-encoded', encodeURIComponent(VALUES.clientSecret)],
		['percent-encoded with lower-case hex', encodeURIComponent(VALUES.clientSecret).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
		['form-encoded', `client_secret=${encodeURIComponent(VALUES.clientSecret).replace(/%20/g, '+')}`],
		['JSON-escaped', JSON.stringify(VALUES.clientSecret)],
		['HTML-escaped', VALUES.clientSecret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')],
		['the token alone', `token ${VALUES.accessToken} expired`],
		['the Basic credential', `authorization: Basic ${BASIC}`],
		['the Basic credential, base64url', Buffer.from(`${VALUES.clientId}:${VALUES.clientSecret}`).toString('base64url')],
		['the Basic credential, percent-encoded', encodeURIComponent(BASIC)],
	])('removes %s', (_form, text) => {
		const scrubbed = scrubText(`before ${text} after`, FORMS);
		expect(scrubbed).toContain(REDACTED);
		expect(scrubbed).toMatch(/^before .*after$/);
		for (const secret of [VALUES.clientSecret, VALUES.accessToken, BASIC, encodeURIComponent(VALUES.clientSecret)]) expect(scrubbed).not.toContain(secret);
	});

	it('removes any bearer value and any JWT, also one this process does not know (renewed meanwhile)', () => {
		const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXZhbHVl';
		expect(scrubText(`Authorization: Bearer someoneElsesToken1234567890`, [])).toBe(`Authorization: Bearer ${REDACTED}`);
		expect(scrubText(`authorization=Bearer%20someoneElsesToken1234567890`, [])).toBe(`authorization=Bearer ${REDACTED}`);
		expect(scrubText(`the token ${jwt} is not valid`, [])).toBe(`the token ${REDACTED} is not valid`);
		expect(scrubText(`Basic ${Buffer.from('other:credential-value').toString('base64')}`, [])).toBe(`Basic ${REDACTED}`);
	});

	it('keeps ordinary words readable', () => {
		const text = 'Bearer authentication required; Basic settings; the NQL API permission is missing';
		expect(scrubText(text, FORMS)).toBe(text);
	});

	it('leaves values too short to be a secret alone, so a text is not shredded', () => {
		const forms = secretForms({ clientId: 'a', clientSecret: 'abc', accessToken: '' });
		// only the Basic credential (base64 of "a:abc", in its forms) is long enough to be searched for
		expect(forms).not.toContain('abc');
		for (const form of forms) expect(form.startsWith(Buffer.from('a:abc').toString('base64url'))).toBe(true);
		expect(scrubText('a cab abc', forms)).toBe('a cab abc');
	});

	it('knows nothing without values and then applies the patterns only', () => {
		expect(secretForms({})).toEqual([]);
		expect(secretForms({ clientSecret: 42, accessToken: null })).toEqual([]);
	});
});

describe('scrubValue', () => {
	it('scrubs every string of a parsed answer, keys included, and leaves other values', () => {
		const answer = JSON.parse(
			JSON.stringify({ message: `bad ${VALUES.accessToken}`, code: 401, list: [VALUES.clientSecret, true, null], [VALUES.accessToken]: { deep: BASIC } }),
		);
		expect(scrubValue(answer, FORMS)).toEqual({ message: `bad ${REDACTED}`, code: 401, list: [REDACTED, true, null], [REDACTED]: { deep: REDACTED } });
	});

	it('returns the same object when nothing changed', () => {
		const answer = { status: 'COMPLETED', rows: [{ a: 1 }] };
		expect(scrubValue(answer, FORMS)).toBe(answer);
	});

	it('keeps a key named __proto__ an ordinary key', () => {
		const answer = JSON.parse(`{"__proto__": {"polluted": "${VALUES.accessToken}"}}`);
		const scrubbed = scrubValue(answer, FORMS) as Record<string, unknown>;
		expect(Object.getPrototypeOf(scrubbed)).toBe(Object.prototype);
		expect(Object.getOwnPropertyDescriptor(scrubbed, '__proto__')?.value).toEqual({ polluted: REDACTED });
	});
});
