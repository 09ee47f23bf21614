/** JSON text and what it holds, read without trusting it. Pure (no imports). */

/** A JSON object (not null, not a list), whose fields are still to be checked one by one. */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON text's value, or the parser's complaint. */
export function parseJson(text: string): { value?: unknown; problem?: string } {
	try {
		return { value: JSON.parse(text) };
	} catch (error) {
		return { problem: (error as Error).message };
	}
}
