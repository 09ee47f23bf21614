/**
 * The one way text a server sent back is cleaned of the credential's secrets (every form an echo
 * could carry) before it goes into an error, an item or a log. Pure: the callers pass the
 * credential's values. What and why: docs/decisions.md, "Text a server sends back".
 */
import { setOwn } from '../shared/ownKeys';

export const REDACTED = '[redacted]';

/** Shorter values are left alone: replacing every "a" would make the text unreadable. */
export const MIN_SECRET_LENGTH = 4;

/** The credential's values that must never be shown; any may be absent. */
type CredentialSecretValues = Partial<Record<'clientId' | 'clientSecret' | 'accessToken', unknown>>;

/** The texts to look for, longest first, built once per scrub from the credential's values. */
export type SecretForms = readonly string[];

/** `Bearer`/`Basic` values of at least 16 characters ("Bearer authentication" stays readable), and JWTs. */
const AUTHORIZATION_VALUE = /\b(Bearer|Basic)(\s+|%20|\+)[A-Za-z0-9._~+/=-]{16,}/gi;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

export function secretForms(values: CredentialSecretValues): SecretForms {
	const clientId = typeof values.clientId === 'string' ? values.clientId.trim() : '';
	const clientSecret = typeof values.clientSecret === 'string' ? values.clientSecret : '';
	const raw: string[] = [clientSecret, typeof values.accessToken === 'string' ? values.accessToken : ''];
	if (clientSecret !== '') {
		const basic = Buffer.from(`${clientId}:${clientSecret}`, 'utf8');
		raw.push(basic.toString('base64'), basic.toString('base64url'));
	}
	const forms = new Set<string>();
	for (const value of raw) {
		if (value.length < MIN_SECRET_LENGTH) continue;
		const percent = encodeURIComponent(value);
		for (const form of [
			value,
			percent,
			percent.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
			percent.replace(/%20/g, '+'),
			JSON.stringify(value).slice(1, -1),
			htmlEscaped(value),
		]) {
			if (form.length >= MIN_SECRET_LENGTH) forms.add(form);
		}
	}
	return [...forms].sort((a, b) => b.length - a.length);
}

/** The text with every secret form, authorization value and JWT replaced by `[redacted]`. */
export function scrubText(text: string, forms: SecretForms): string {
	let out = text;
	for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
	return out.replace(AUTHORIZATION_VALUE, `$1 ${REDACTED}`).replace(JWT, REDACTED);
}

/** A JSON value with every string scrubbed, keys included; the same object when nothing changed. */
export function scrubValue<T>(value: T, forms: SecretForms): T {
	if (typeof value === 'string') return scrubText(value, forms) as T;
	if (Array.isArray(value)) {
		const out = value.map((entry: unknown) => scrubValue(entry, forms));
		return (out.some((entry, index) => entry !== value[index]) ? out : value) as T;
	}
	if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
		let changed = false;
		const out: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) {
			const cleanKey = scrubText(key, forms);
			const scrubbed = scrubValue(entry, forms);
			if (cleanKey !== key || scrubbed !== entry) changed = true;
			setOwn(out, cleanKey, scrubbed);
		}
		return (changed ? out : value) as T;
	}
	return value;
}

function htmlEscaped(value: string): string {
	return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
