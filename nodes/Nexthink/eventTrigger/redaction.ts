/**
 * What of a call's headers and query may go into items: everything but secrets. A header or query
 * parameter is replaced by `[redacted]` when its name says it carries a credential (Authorization,
 * cookies, API keys, tokens, passwords, secrets, signatures) or when its value contains one of the
 * secrets the trigger knows (a credential sent in a custom header, or in the Resource's query).
 */

export const REDACTED = '[redacted]';

const SECRET_NAME = /(auth|cookie|token|secret|passw|api[-_]?key|apikey|signature|session|credential|x-api)/i;

type Values = Record<string, unknown>;

function containsSecret(value: unknown, secrets: string[]): boolean {
	if (typeof value === 'string') return secrets.some((secret) => secret.length > 0 && value.includes(secret));
	if (Array.isArray(value)) return value.some((member) => containsSecret(member, secrets));
	return false;
}

function redact(values: Values | undefined, secrets: string[]): Values {
	const copy: Values = {};
	for (const [name, value] of Object.entries(values ?? {})) {
		copy[name] = SECRET_NAME.test(name) || containsSecret(value, secrets) ? REDACTED : value;
	}
	return copy;
}

/** The headers without their secrets (names as n8n gives them: lower case). */
export function redactHeaders(headers: Values | undefined, secrets: string[] = []): Values {
	return redact(headers, secrets);
}

/** The query parameters without their secrets. */
export function redactQuery(query: Values | undefined, secrets: string[] = []): Values {
	return redact(query, secrets);
}
