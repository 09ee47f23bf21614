/** Cancelling an execution: every wait and request of the transport ends at once with "The execution was cancelled". */
import { NodeOperationError } from 'n8n-workflow';

import { cancellableSleep } from './hostCompat';
import type { NexthinkContext } from './types';

/** The cancel signal of the running execution; undefined in contexts that have none. */
export function cancelSignalOf(ctx: NexthinkContext): AbortSignal | undefined {
	return typeof ctx.getExecutionCancelSignal === 'function' ? ctx.getExecutionCancelSignal() : undefined;
}

export function throwIfCancelled(ctx: NexthinkContext, signal: AbortSignal | undefined, itemIndex?: number): void {
	if (signal?.aborted === true) {
		throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled', { itemIndex });
	}
}

/** Waits, ending at once on cancel with our message rather than the host sleep's own abort reason. */
export async function sleepUnlessCancelled(
	ctx: NexthinkContext,
	ms: number,
	signal: AbortSignal | undefined,
	itemIndex?: number,
): Promise<void> {
	try {
		await cancellableSleep(ms, signal);
	} catch (error) {
		throwIfCancelled(ctx, signal, itemIndex);
		throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	}
	throwIfCancelled(ctx, signal, itemIndex);
}
