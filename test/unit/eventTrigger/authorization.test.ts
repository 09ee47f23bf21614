/**
 * Who may call the Event Trigger: the Basic or Bearer value of the Nexthink connector credential,
 * compared in constant time, in every plausible spelling, and nothing else.
 */
import * as crypto from 'crypto';

import { checkAuthorization, credentialProblem, REFUSAL_TEXTS, sameSecret } from '../../../nodes/Nexthink/eventTrigger/authorization';

jest.mock('crypto', () => {
	const actual = jest.requireActual('crypto');
	return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});
const timingSafeEqual = crypto.timingSafeEqual as jest.MockedFunction<typeof crypto.timingSafeEqual>;

const basic = { type: 'basic' as const, user: 'nexthink', password: 'correct horse battery staple' };
const bearer = { type: 'bearer' as const, token: 'tok_9f8e7d6c5b4a39281706' };
const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('checkAuthorization, Basic', () => {
	it.each([
		['the standard form', `Basic ${encode('nexthink:correct horse battery staple')}`],
		['the scheme in other letter cases', `BASIC ${encode('nexthink:correct horse battery staple')}`],
		['several spaces after the scheme', `basic   ${encode('nexthink:correct horse battery staple')}`],
	])('accepts %s', (_, header) => {
		expect(checkAuthorization(header, basic)).toEqual({ ok: true });
	});

	it('accepts a password that contains a colon (only the first colon separates)', () => {
		const expected = { type: 'basic' as const, user: 'nx', password: 'a:b:c-0123456789abcdef' };
		expect(checkAuthorization(`Basic ${encode('nx:a:b:c-0123456789abcdef')}`, expected)).toEqual({ ok: true });
	});

	it.each([
		['no header', undefined, 'missing'],
		['an empty header', '   ', 'missing'],
		['a wrong password', `Basic ${encode('nexthink:wrong')}`, 'wrongValue'],
		['a wrong user', `Basic ${encode('other:correct horse battery staple')}`, 'wrongValue'],
		['the password with a trailing space', `Basic ${encode('nexthink:correct horse battery staple ')}`, 'wrongValue'],
		['no colon', `Basic ${encode('nexthinkcorrect horse battery staple')}`, 'malformed'],
		['not base64', 'Basic !!!', 'malformed'],
		['a Bearer token', 'Bearer correct horse battery staple', 'wrongScheme'],
		['the value without a scheme', encode('nexthink:correct horse battery staple'), 'malformed'],
		['the header twice', [`Basic ${encode('nexthink:correct horse battery staple')}`, 'Basic x'], 'malformed'],
	])('refuses %s', (_, header, reason) => {
		expect(checkAuthorization(header as string | string[] | undefined, basic)).toEqual({ ok: false, reason });
	});

	it('refuses everything when the credential has no password', () => {
		expect(checkAuthorization(`Basic ${encode('nexthink:')}`, { ...basic, password: '' })).toEqual({ ok: false, reason: 'notConfigured' });
	});
});

describe('checkAuthorization, Bearer', () => {
	it.each([
		['the standard form', 'Bearer tok_9f8e7d6c5b4a39281706'],
		['a lower-case scheme', 'bearer tok_9f8e7d6c5b4a39281706'],
		['the bare token', 'tok_9f8e7d6c5b4a39281706'],
		['trailing spaces', 'Bearer tok_9f8e7d6c5b4a39281706  '],
	])('accepts %s', (_, header) => {
		expect(checkAuthorization(header, bearer)).toEqual({ ok: true });
	});

	it.each([
		['no header', undefined, 'missing'],
		['a wrong token', 'Bearer tok_9f8e7d6c5b4a39281707', 'wrongValue'],
		['a prefix of the token', 'Bearer tok_9f8e7d6c5b4a3928170', 'wrongValue'],
		['the token with more after it', 'Bearer tok_9f8e7d6c5b4a39281706x', 'wrongValue'],
		['a Basic value', `Basic ${encode('a:tok_9f8e7d6c5b4a39281706')}`, 'wrongScheme'],
		['another scheme with the token', 'Token tok_9f8e7d6c5b4a39281706', 'wrongValue'],
	])('refuses %s', (_, header, reason) => {
		expect(checkAuthorization(header, bearer)).toEqual({ ok: false, reason });
	});

	it('lets every call in only with None', () => {
		expect(checkAuthorization(undefined, { type: 'none' })).toEqual({ ok: true });
		expect(checkAuthorization(undefined, { type: 'bearer', token: '' })).toEqual({ ok: false, reason: 'notConfigured' });
	});
});

describe('sameSecret', () => {
	it('compares digests of equal length with timingSafeEqual, whatever the lengths of the inputs', () => {
		timingSafeEqual.mockClear();
		expect(sameSecret('short', 'a much longer secret value')).toBe(false);
		expect(sameSecret('same', 'same')).toBe(true);
		expect(timingSafeEqual).toHaveBeenCalledTimes(2);
		for (const [a, b] of timingSafeEqual.mock.calls) expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
	});

	it('checks user and password both, even when the user is already wrong', () => {
		timingSafeEqual.mockClear();
		checkAuthorization(`Basic ${encode('wrong:wrong')}`, basic);
		expect(timingSafeEqual).toHaveBeenCalledTimes(2);
	});
});

describe('REFUSAL_TEXTS and credentialProblem', () => {
	it('never repeats what arrived', () => {
		for (const reason of ['missing', 'malformed', 'wrongScheme', 'wrongValue', 'notConfigured'] as const) {
			expect(REFUSAL_TEXTS[reason]).not.toMatch(/tok_|horse/);
			expect(REFUSAL_TEXTS[reason].length).toBeGreaterThan(20);
		}
	});

	it('asks for a secret that is hard to guess', () => {
		expect(credentialProblem({ authType: 'bearer', token: 'short' })).toMatch(/at least 16 characters/);
		expect(credentialProblem({ authType: 'bearer', token: 'a token with spaces in it' })).toMatch(/spaces/);
		expect(credentialProblem({ authType: 'bearer', token: 'tok_9f8e7d6c5b4a39281706' })).toBeUndefined();
		expect(credentialProblem({ authType: 'basic', user: '', password: 'x'.repeat(20) })).toMatch(/user name is empty/);
		expect(credentialProblem({ authType: 'basic', user: 'a:b', password: 'x'.repeat(20) })).toMatch(/":"/);
		expect(credentialProblem({ authType: 'basic', user: 'nx', password: 'x'.repeat(20) })).toBeUndefined();
	});
});
