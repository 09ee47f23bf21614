/**
 * What of a call's headers (names in lower case, as n8n gives them) or query may go into items:
 * everything but secrets. A value is replaced by `[redacted]` when its name says it carries a
 * credential (Authorization, cookies, API keys, tokens, passwords, secrets, signatures) or when it
 * contains one of the secrets the trigger knows (a credential sent in a custom header, or in the query).
 */
import { REDACTED } from '../transport';

const SECRET_NAME = /(auth|cookie|token|secret|passw|api[-_]?key|apikey|signature|session|credential|x-api)/i;

type Values = Record<string, unknown>;

function containsSecret(value: unknown, secrets: string[]): boolean {
	if (typeof value === 'string') return secrets.some((secret) => secret.length > 0 && value.includes(secret));
	if (Array.isArray(value)) return value.some((member) => containsSecret(member, secrets));
	return false;
}

export function redact(values: Values | undefined, secrets: string[] = []): Values {
	const copy: Values = {};
	for (const [name, value] of Object.entries(values ?? {})) {
		copy[name] = SECRET_NAME.test(name) || containsSecret(value, secrets) ? REDACTED : value;
	}
	return copy;
}
