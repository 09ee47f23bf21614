/**
 * Which objects a write tool may act on: per node, the NQL IDs of the remote actions, workflows or
 * campaigns an AI agent or MCP client may run through it ("Allowed … When Used as a Tool"); any
 * other is refused before any request. Empty: no list. Why: docs/decisions.md, "Allow-lists are per
 * node, by NQL ID, empty meaning none". Pure, apart from the option's description (type-only import).
 */
import type { INodeProperties } from 'n8n-workflow';

import { describeValue, InputError } from './inputError';
import { withHash } from './queryCatalogue';

/** What the list holds, as its refusal (`noun`) and the option (`label`) name it: see the three below. */
export interface AllowListKind {
	noun: string;
	label: string;
}

export const ALLOWED_REMOTE_ACTIONS: AllowListKind = { noun: 'remote action', label: 'Allowed Remote Actions When Used as a Tool' };
export const ALLOWED_WORKFLOWS: AllowListKind = { noun: 'workflow', label: 'Allowed Workflows When Used as a Tool' };
export const ALLOWED_CAMPAIGNS: AllowListKind = { noun: 'campaign', label: 'Allowed Campaigns When Used as a Tool' };

/**
 * The list as NQL IDs with their `#`, or `undefined` when it is empty. Entries are separated by
 * commas or line breaks (or given as a list from an expression); NQL IDs are case-sensitive.
 */
export function readAllowList(raw: unknown, kind: AllowListKind): string[] | undefined {
	if (raw === undefined || raw === null) return undefined;
	let entries: string[];
	if (typeof raw === 'string') entries = raw.split(/[,\n]/);
	else if (Array.isArray(raw) && raw.every((entry) => typeof entry === 'string')) entries = raw as string[];
	else throw new InputError(`"${kind.label}" must be NQL IDs separated by commas, got ${describeValue(raw)}.`, kind.label);
	const ids = [...new Set(entries.map((entry) => entry.trim()).filter((entry) => entry !== '' && entry !== '#').map(withHash))];
	const bad = ids.find((id) => /\s/.test(id));
	if (bad !== undefined) throw new InputError(`"${kind.label}" has "${bad.slice(0, 60)}", which is not an NQL ID: separate the IDs with commas.`, kind.label);
	return ids.length === 0 ? undefined : ids;
}

/** Throws an input error, before any request, when `id` (normalised, with its `#`) is not in the list. */
export function checkAllowed(id: string, allowed: readonly string[] | undefined, kind: AllowListKind): void {
	if (allowed === undefined || allowed.includes(id)) return;
	throw new InputError(
		`The ${kind.noun} ${id.slice(0, 80)} is not one this tool may run: nothing was sent. It may run ${allowed.join(', ')} ("${kind.label}", set by the workflow's author). Tell the user.`,
		kind.label,
	);
}

/** The option, in the write operation's `options`. */
export function allowListOption(kind: AllowListKind, placeholder: string): INodeProperties {
	return {
		displayName: kind.label,
		name: 'allowedIdsAsTool',
		type: 'string',
		default: '',
		placeholder,
		description: `The NQL IDs of the ${kind.noun}s an AI agent or MCP client may run through this node as a tool, separated by commas; any other is refused before any request. Empty: any that the node is given.`,
	};
}
