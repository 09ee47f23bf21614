/**
 * Whether an AI agent runs the node as a tool: its type name ends in `Tool`, as n8n's own tool
 * variants do (docs/decisions.md, "AI tool mode").
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readBoolean } from './parameterValues';
import { ALLOW_WRITES_LABEL } from './optionFields';
import { checkAllowed, readAllowList, type AllowListKind } from './writeAllowList';

/** What a write operation's outcome says (`note`) when it ran as a tool without "Allow Writes When Used as a Tool". */
export const WRITES_OFF_NOTE =
	'Nothing was sent to Nexthink: as an AI agent\'s tool this node only checks the input and reports what it would send, unless "Allow Writes When Used as a Tool" is on in its options. Tell the user that nothing was done; the workflow\'s author can switch that option on.';

/** Whether a write sends nothing: a tool run without `allowWritesAsTool` (read in every run, so a bad value stops the node). */
export function toolWritesOff(ctx: Pick<IExecuteFunctions, 'getNode'>, options: IDataObject): boolean {
	const allowed = readBoolean(options.allowWritesAsTool, ALLOW_WRITES_LABEL, false);
	return runsAsTool(ctx) && !allowed;
}

/**
 * Refuses, before any request, an `id` (with its `#`) that the options' allow-list
 * (`allowedIdsAsTool`, writeAllowList.ts) does not name, when the node runs as a tool. The list is
 * read and checked in every run.
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
