/** Return All and Limit, as every Get Many operation of the Actions node reads them. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** How many entries to output: Infinity under Return All, else Limit (a whole number from 1). */
export function readGetManyLimit(ctx: IExecuteFunctions, itemIndex: number): number {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) === true;
	const limit = returnAll ? Infinity : Number(ctx.getNodeParameter('limit', itemIndex, 50));
	if (!returnAll && !(Number.isSafeInteger(limit) && limit >= 1)) {
		throw new NodeOperationError(ctx.getNode(), `Limit must be a whole number from 1, got ${String(limit)}`, { itemIndex });
	}
	return limit;
}
