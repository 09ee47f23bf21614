/**
 * The one reading of a boolean parameter or option (a switch), for every node. n8n hands an
 * expression's result over unchanged, so a switch may arrive as text (`{{ $vars.DRY_RUN }}`, a CSV
 * column, a Set node) or as a number; n8n's own `getNodeParameter(…, { ensureType: 'boolean' })`
 * is `Boolean(value)` on n8n-core 1.x and 2.x alike (utils/ensure-type.js), which reads `"false"`
 * and `"0"` as on, so it is not used.
 *
 * On: `true`, `1`, and the text `true`, `1`, `yes`, `on` (any letter case, blanks around). Off:
 * `false`, `0`, and the text `false`, `0`, `no`, `off`. Absent (`undefined`: the parameter is not
 * set) is the switch's default. Anything else (empty text, null, another number or word, a list, an
 * object) is an input error naming the switch and the value, before any request: a switch that
 * makes a node send nothing (Preview, Validate Only) is never read as off, and one that allows more
 * (Allow Writes When Used as a Tool, Return All) never as on, from a value nobody clearly meant.
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
