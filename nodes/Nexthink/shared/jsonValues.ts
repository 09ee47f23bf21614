/** What a parsed JSON answer holds, read without trusting it. Pure (no imports). */

/** A JSON object (not null, not a list), whose fields are still to be checked one by one. */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
