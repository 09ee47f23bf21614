/**
 * Checks the `Authorization` header a Nexthink connector credential sends (Basic or Bearer: the only
 * proof that Nexthink made the call). Secrets are compared as SHA-256 digests with `timingSafeEqual`
 * (Basic: user and password both, before the result is read); the result names why a call was
 * refused, never the value that arrived. Accepted spellings: docs/decisions.md, "Nexthink Event Trigger".
 */
import { createHash, timingSafeEqual } from 'crypto';

export type ExpectedAuthorization =
	| { type: 'basic'; user: string; password: string }
	| { type: 'bearer'; token: string }
	| { type: 'none' };

export type RefusalReason = 'missing' | 'malformed' | 'wrongScheme' | 'wrongValue' | 'notConfigured';

export type AuthorizationResult = { ok: true } | { ok: false; reason: RefusalReason };

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time equality of two strings of any lengths. */
export function sameSecret(received: string, expected: string): boolean {
	return timingSafeEqual(digest(received), digest(expected));
}

/** The header as one string: n8n gives a repeated header as an array, which is never valid here. */
function headerValue(header: string | string[] | undefined): string | undefined | null {
	if (header === undefined) return undefined;
	if (Array.isArray(header)) return header.length === 1 ? header[0] : null;
	return header;
}

const SCHEME = /^([A-Za-z]+) +(\S.*)$/;

function checkBasic(value: string, user: string, password: string): AuthorizationResult {
	const match = SCHEME.exec(value);
	if (!match) return { ok: false, reason: 'malformed' };
	if (match[1].toLowerCase() !== 'basic') return { ok: false, reason: 'wrongScheme' };
	const encoded = match[2].trim();
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return { ok: false, reason: 'malformed' };
	const decoded = Buffer.from(encoded, 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	if (colon < 0) return { ok: false, reason: 'malformed' };
	const userMatches = sameSecret(decoded.slice(0, colon), user);
	const passwordMatches = sameSecret(decoded.slice(colon + 1), password);
	return userMatches && passwordMatches ? { ok: true } : { ok: false, reason: 'wrongValue' };
}

function checkBearer(value: string, token: string): AuthorizationResult {
	const match = SCHEME.exec(value);
	if (match?.[1].toLowerCase() === 'basic') return { ok: false, reason: 'wrongScheme' };
	// `Bearer <token>` in any case, or the bare token without a scheme
	const received = match?.[1].toLowerCase() === 'bearer' ? match[2] : value;
	return sameSecret(received.trim(), token) ? { ok: true } : { ok: false, reason: 'wrongValue' };
}

/** Whether the call's `Authorization` header proves the expected credential. */
export function checkAuthorization(header: string | string[] | undefined, expected: ExpectedAuthorization): AuthorizationResult {
	if (expected.type === 'none') return { ok: true };
	if (expected.type === 'basic' && (expected.user === '' || expected.password === '')) return { ok: false, reason: 'notConfigured' };
	if (expected.type === 'bearer' && expected.token === '') return { ok: false, reason: 'notConfigured' };
	const value = headerValue(header);
	if (value === null) return { ok: false, reason: 'malformed' };
	if (value === undefined || value.trim() === '') return { ok: false, reason: 'missing' };
	return expected.type === 'basic' ? checkBasic(value, expected.user, expected.password) : checkBearer(value, expected.token);
}

/** The text of a 401 answer: says what is wrong, never echoes what arrived. */
export const REFUSAL_TEXTS: Record<RefusalReason, string> = {
	missing: 'Authorization is required: set the Nexthink connector credential of this webhook',
	malformed: 'The Authorization header is not a single Basic or Bearer value',
	wrongScheme: 'The Authorization header uses another scheme than the one this trigger expects',
	wrongValue: 'The credentials sent are not the ones this trigger expects',
	notConfigured: 'This trigger has no complete credential to check calls against',
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** What a call must prove, from the connector credential's values. */
export function expectedOf(credential: Record<string, unknown>): ExpectedAuthorization {
	if (credential.authType === 'basic') return { type: 'basic', user: text(credential.user), password: text(credential.password) };
	return { type: 'bearer', token: text(credential.token) };
}

/** Shortest token or password the credential test accepts: the only thing that keeps strangers out. */
const MINIMUM_SECRET_LENGTH = 16;

/** What is wrong with a connector credential's values, or undefined when they are usable. */
export function credentialProblem(values: Record<string, unknown>): string | undefined {
	if (values.authType === 'basic') {
		if (text(values.user) === '') return 'The user name is empty';
		if (text(values.user).includes(':')) return 'A Basic user name cannot contain ":"';
		if (text(values.password).length < MINIMUM_SECRET_LENGTH) return `Use a password of at least ${MINIMUM_SECRET_LENGTH} characters: it is all that keeps strangers out`;
		return undefined;
	}
	if (text(values.token).length < MINIMUM_SECRET_LENGTH) return `Use a token of at least ${MINIMUM_SECRET_LENGTH} characters: it is all that keeps strangers out`;
	if (/\s/.test(text(values.token))) return 'The token cannot contain spaces';
	return undefined;
}
