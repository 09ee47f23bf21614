/** Checks several resources' `…Input.ts` make alike (no n8n imports); each throws `InputError` naming the field. */
import { describeValue, InputError } from '../../shared/inputError';

export const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** The SID pattern of the Campaigns and Workflows OpenAPI documents. */
export const SID = /^S(-\d+){2,10}$|^0$/;

/** A list of target IDs (Collector UIDs, user SIDs): its entry, field, pattern (`shape`: "a UUID"), limit and wordings. */
interface IdList {
	entry: string;
	field: string;
	shape: string;
	pattern: RegExp;
	foldCase: boolean;
	empty: string;
	/** The sentence after "not a UUID: …" (what the API takes). */
	takes: string;
	max: { count: number; targets: string; api: string };
}

/**
 * The IDs of one item (a text split on commas, semicolons, spaces and line breaks, or a list of such
 * texts), distinct in the order first given; `duplicates` are the entries given again, as spelt.
 */
export function parseIdList(raw: unknown, list: IdList): { ids: string[]; duplicates: string[] } {
	const entries: string[] = [];
	for (const value of raw === null || raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
		if (value === null || value === undefined) continue;
		if (typeof value !== 'string') throw new InputError(`A ${list.entry} must be text, got ${describeValue(value)}`, list.field);
		for (const part of value.split(/[\s,;]+/)) if (part !== '') entries.push(part);
	}
	if (entries.length === 0) throw new InputError(list.empty, list.field);
	const invalid = entries.filter((entry) => !list.pattern.test(entry));
	if (invalid.length > 0) {
		const shown = invalid.slice(0, 3).map((value) => `"${value.slice(0, 60)}"`).join(', ');
		const more = invalid.length > 3 ? ` and ${invalid.length - 3} more` : '';
		const which = invalid.length === 1 ? `A ${list.entry} is` : `${invalid.length} ${list.entry}s are`;
		throw new InputError(`${which} not ${list.shape}: ${shown}${more}. ${list.takes}`, list.field);
	}
	const seen = new Set<string>();
	const ids: string[] = [];
	const duplicates: string[] = [];
	for (const entry of entries) {
		const key = list.foldCase ? entry.toLowerCase() : entry;
		if (seen.has(key)) duplicates.push(entry);
		else ids.push(entry);
		seen.add(key);
	}
	if (ids.length > list.max.count) {
		throw new InputError(
			`One item names ${ids.length} ${list.max.targets}; the ${list.max.api} takes at most ${list.max.count} per request. Split the list over several items`,
			list.field,
		);
	}
	return { ids, duplicates };
}

/** A value sent as text: text as it is, a finite number or a boolean written out, nothing as ''; undefined for anything else. */
export function valueText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
	return value === undefined || value === null ? '' : undefined;
}
