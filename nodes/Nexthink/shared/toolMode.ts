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
import type { IExecuteFunctions } from 'n8n-workflow';

export function runsAsTool(ctx: Pick<IExecuteFunctions, 'getNode'>): boolean {
	return isToolTypeName(ctx.getNode().type);
}

/** `package.nameTool`: the part after the last dot ends in `Tool`. */
export function isToolTypeName(type: string): boolean {
	return (type.split('.').pop() ?? '').endsWith('Tool');
}
