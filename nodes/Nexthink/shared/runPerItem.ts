/**
 * The per-item loop of n8n's programmatic nodes: each input item runs on its own; with
 * "continue on fail" a failed item becomes an error item (paired to its input) and the others go on.
 */
import type { IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export type ItemOperation = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;

export async function runPerItem(ctx: IExecuteFunctions, operation: ItemOperation): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	const count = ctx.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const items = await operation.call(ctx, itemIndex);
			for (const item of items) output.push(item);
		} catch (error) {
			if (ctx.continueOnFail()) {
				output.push({
					json: { error: (error as Error).message, description: (error as { description?: string }).description ?? null },
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			// both constructors hand back an error that already is of their class, untouched
			if (error instanceof NodeApiError) throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
			throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
		}
	}
	return output;
}
