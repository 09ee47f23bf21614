/**
 * The one reading of an options parameter (a choice), for every node: an expression may hand over any
 * value, and a value the panel does not offer would otherwise fall back to a default or go on the wire
 * unchecked. docs/decisions.md, "How a choice is read".
 */
import { describeValue, InputError } from './inputError';

/**
 * `label`: the parameter as the editor shows it; `choices`: the values its panel offers (exactly, no
 * trimming or case folding: what is returned is what is sent); `fallback`: its default when absent.
 */
export function readChoice<T extends string>(raw: unknown, label: string, choices: readonly T[], fallback: T): T {
	if (raw === undefined) return fallback;
	if ((choices as readonly unknown[]).includes(raw)) return raw as T;
	const listed = choices.map((choice) => `"${choice}"`);
	const offered = listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(', ')} or ${listed[listed.length - 1]}`;
	throw new InputError(`"${label}" must be ${listed.length === 1 ? '' : 'one of '}${offered}, got ${describeValue(raw)}.`, label);
}
