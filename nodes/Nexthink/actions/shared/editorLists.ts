/** What the editor helpers of Remote Action and Workflow (methods.ts) share: the locator's list and a mapper field. */
import type { INodeListSearchResult, ResourceMapperField } from 'n8n-workflow';

import { DEFAULT_REQUEST_TIMEOUT_SECONDS } from './panelFields';

/** The options of the editor's calls (no item). */
export const EDITOR_CALL = { timeoutMs: DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000 };

/** A resource locator's list: each entry's label and ID, those whose label holds `filter` (without case), sorted by label. */
export function searchResults<T extends { id: string }>(list: readonly T[], label: (entry: T) => string, filter?: string): INodeListSearchResult {
	const needle = (filter ?? '').trim().toLowerCase();
	const results = list
		.map((entry) => ({ name: label(entry), value: entry.id }))
		.filter((entry) => needle === '' || entry.name.toLowerCase().includes(needle))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

/** A mapper field: a dropdown when only its options are allowed, else text that names them as examples. */
export function mapperField(id: string, name: string, input: { options: string[]; allowCustomValue: boolean }, required: boolean): ResourceMapperField {
	const fixed = !input.allowCustomValue && input.options.length > 0;
	const suggested = !fixed && input.options.length > 0 ? ` (e.g. ${input.options.join(', ')})` : '';
	return {
		id,
		displayName: `${name}${suggested}`,
		required,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type: fixed ? 'options' : 'string',
		...(fixed ? { options: input.options.map((option) => ({ name: option, value: option })) } : {}),
	};
}
