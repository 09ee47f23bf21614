/**
 * Whether an AI agent runs the node as a tool.
 *
 * For every node marked `usableAsTool`, n8n offers a tool variant whose type name is the node's
 * with `Tool` appended (`n8n-nodes-nexthink.nexthinkExportTool`); it runs the node's own `execute`
 * with that node in the workflow. n8n itself recognises tool types by this suffix on 1.x and 2.x
 * (its `NodeTypes.getByNameAndVersion` builds the tool variant for a type ending in `Tool`, and the
 * `@tool` display option is true for such types), whether the agent calls the tool directly
 * (n8n-core's `createNodeAsTool`) or, with n8n 2.x's newer agents, asks the engine to run the node.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readBoolean } from './booleanParameter';
import { ALLOW_WRITES_LABEL } from './optionFields';
import { checkAllowed, readAllowList, type AllowListKind } from './writeAllowList';

/**
 * What a write operation (Run Remote Action, Run Workflow, Resume, Trigger Campaign, Device Delete)
 * tells the model when it ran as a tool without "Allow Writes When Used as a Tool": it checked the
 * input and sent nothing. Under `note` in each item's outcome, so the model can tell the user
 * instead of reporting the action as done.
 */
export const WRITES_OFF_NOTE =
	'Nothing was sent to Nexthink: as an AI agent\'s tool this node only checks the input and reports what it would send, unless "Allow Writes When Used as a Tool" is on in its options. Tell the user that nothing was done; the workflow\'s author can switch that option on.';

/**
 * Whether a write operation sends nothing because it runs as a tool and its options' "Allow Writes
 * When Used as a Tool" (`allowWritesAsTool`) is not on. The option is read (booleanParameter.ts)
 * in every run, so a value that is not clearly on or off stops the node before any request.
 */
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
