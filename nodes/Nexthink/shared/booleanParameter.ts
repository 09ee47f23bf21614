/**
 * The one reading of a boolean parameter or option (a switch), for every node: an expression may hand
 * over text or a number, and n8n's `ensureType: 'boolean'` reads `"false"` as on. What is on, off or
 * an input error: docs/decisions.md, "How a switch is read".
 */
import { describeValue, InputError } from './inputError';

const ON = new Set(['true', '1', 'yes', 'on']);
const OFF = new Set(['false', '0', 'no', 'off']);

/** `label`: the switch as the editor shows it (`Preview`); `fallback`: its default when absent. */
export function readBoolean(raw: unknown, label: string, fallback: boolean): boolean {
	if (raw === undefined) return fallback;
	if (typeof raw === 'boolean') return raw;
	if (typeof raw === 'number' || typeof raw === 'string') {
		const word = String(raw).trim().toLowerCase();
		if (ON.has(word)) return true;
		if (OFF.has(word)) return false;
	}
	throw new InputError(
		`"${label}" must be true or false, got ${describeValue(raw)}. Give true or false (or 1 / 0, "yes" / "no").`,
		label,
	);
}
