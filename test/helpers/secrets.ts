/**
 * What a test of echoed secrets needs: every secret the local server saw (bearer tokens, Basic
 * credentials and the client secret, with the forms an echo may carry them in), and a run's whole
 * output serialised, errors with their message, description, stack and causes.
 */
import { basicAuthorization } from '../../nodes/Nexthink/transport/tokenExchange';

/** Every bearer token and Basic credential the server received, and the client secret(s) behind them. */
export function secretsSeenBy(server: { requests: Array<{ headers: Record<string, string | undefined> }> }, clientSecrets: string[]): string[] {
	const secrets = new Set<string>();
	for (const request of server.requests) {
		const match = /^(?:Bearer|Basic)\s+(\S+)/i.exec(request.headers.authorization ?? '');
		if (match !== null) secrets.add(match[1]);
	}
	for (const secret of clientSecrets) secrets.add(secret);
	return [...secrets].flatMap((secret) => [secret, encodeURIComponent(secret)]);
}

/** The Basic credential's base64 value for this client, as the token exchange sends it. */
export function basicCredential(clientId: string, clientSecret: string): string {
	return basicAuthorization(clientId, clientSecret).slice('Basic '.length);
}

/** Anything (a run, an error, items) as one text: errors with message, description, stack and cause; cycles cut. */
export function serialised(value: unknown): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(value, (_key, entry: unknown) => {
		if (typeof entry === 'object' && entry !== null) {
			if (seen.has(entry)) return undefined;
			seen.add(entry);
			if (entry instanceof Error) {
				const { message, stack } = entry;
				const { description, cause, context, messages } = entry as Error & Record<string, unknown>;
				return { ...entry, message, stack, description, cause, context, messages };
			}
		}
		return entry;
	});
}

/** Fails naming the secret that is in `text` (its first characters only). */
export function expectNoSecret(text: string, secrets: string[]): void {
	const leaked = secrets.filter((secret) => secret.length >= 4 && text.includes(secret));
	expect(leaked.map((secret) => `${secret.slice(0, 6)}…`)).toEqual([]);
}
