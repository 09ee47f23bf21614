/**
 * Whether an AI agent runs the node as a tool: its type name ends in `Tool`, as n8n's own tool
 * variants do (docs/decisions.md, "AI tool mode"); and what a write may do then: Allow Writes, the
 * allow-list of the objects it may act on, and the report of what it sent.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { readBoolean } from './parameterValues';
import { ALLOW_WRITES_LABEL } from './optionFields';
import { describeValue, InputError } from './inputError';
import { withHash } from './nqlIds';

/** What a write operation's outcome says (`note`) when it ran as a tool without "Allow Writes When Used as a Tool". */
export const WRITES_OFF_NOTE =
	'Nothing was sent to Nexthink: as an AI agent\'s tool this node only checks the input and reports what it would send, unless "Allow Writes When Used as a Tool" is on in its options. Tell the user that nothing was done; the workflow\'s author can switch that option on.';

/** Whether a write sends nothing: a tool run without `allowWritesAsTool` (read in every run, so a bad value stops the node). */
export function toolWritesOff(ctx: Pick<IExecuteFunctions, 'getNode'>, options: IDataObject): boolean {
	const allowed = readBoolean(options.allowWritesAsTool, ALLOW_WRITES_LABEL, false);
	return runsAsTool(ctx) && !allowed;
}

/**
 * Refuses, before any request, an `id` (with its `#`) that the options' allow-list (`allowedIdsAsTool`)
 * does not name, when the node runs as a tool. The list is read and checked in every run.
 */
export function checkToolAllowList(ctx: Pick<IExecuteFunctions, 'getNode'>, options: IDataObject, id: string, kind: AllowListKind): void {
	const allowed = readAllowList(options.allowedIdsAsTool, kind);
	if (runsAsTool(ctx)) checkAllowed(id, allowed, kind);
}

export function runsAsTool(ctx: Pick<IExecuteFunctions, 'getNode'>): boolean {
	return isToolTypeName(ctx.getNode().type);
}

/** `package.nameTool`: the part after the last dot ends in `Tool`. */
export function isToolTypeName(type: string): boolean {
	return (type.split('.').pop() ?? '').endsWith('Tool');
}

/**
 * Which objects a write tool may act on: per node, the NQL IDs of the remote actions, workflows or
 * campaigns an AI agent or MCP client may run through it ("Allowed … When Used as a Tool"); any
 * other is refused before any request. Empty: no list. Why: docs/decisions.md, "Allow-lists are per
 * node, by NQL ID, empty meaning none". A kind: what the list holds, as its refusal (`noun`) and the
 * option (`label`) name it.
 */
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

/**
 * What a write tool tells the model it did: the last item of a write's tool run, `nexthinkToolWrites`,
 * lists each request sent, the object it acted on and its request IDs, or that nothing was sent
 * (docs/decisions.md, "The write report is the last item").
 */
export interface SentRequestReport {
	/** The object the request acted on (a remote action's, workflow's or campaign's NQL ID), when there is one. */
	target?: string;
	/** The request IDs it got; empty when the API gives none. */
	requestIds: string[];
	/** The input items it carried. */
	items: number[];
	ok: boolean;
	/** Why it failed, when it did. */
	error?: string;
}

export function toolWriteReport(requests: readonly SentRequestReport[]): { summary: string; requestsSent: number; requests: SentRequestReport[] } {
	if (requests.length === 0) return { summary: 'Nothing was sent to Nexthink by this tool call.', requestsSent: 0, requests: [] };
	const sent = requests.filter((request) => request.ok).length;
	const lines = requests.map((request) => {
		const target = request.target !== undefined ? `${request.target}, ` : '';
		const items = `item${request.items.length === 1 ? '' : 's'} ${request.items.join(', ')}`;
		if (!request.ok) return `${target}${items}: not done (${request.error ?? 'no answer'})`;
		const ids = request.requestIds.length > 0 ? `request ID${request.requestIds.length === 1 ? '' : 's'} ${request.requestIds.join(', ')}` : items;
		return `${target}${ids}`;
	});
	const failed = requests.length - sent;
	const counts = `${sent} request${sent === 1 ? '' : 's'} sent to Nexthink${failed > 0 ? ` (${failed} failed or not sent)` : ''}`;
	return { summary: `${counts} by this tool call: ${lines.join('; ')}.`, requestsSent: sent, requests: requests.map((request) => ({ ...request })) };
}

/** The write report as a tool run's last item, paired with `itemIndex`. */
export function toolWritesItem(requests: readonly SentRequestReport[], itemIndex: number): INodeExecutionData {
	return { json: { nexthinkToolWrites: toolWriteReport(requests) as unknown as IDataObject }, pairedItem: { item: itemIndex } };
}
