/** A streamed answer bounded in time as a whole, headers and body. */
import { NodeOperationError } from 'n8n-workflow';

import { markedNoAnswer } from './apiErrors';
import { cancellableSleep, errorChain, networkCodeOf, throwIfCancelled } from './hostCompat';
import type { NexthinkContext, NexthinkRequest } from './types';

type AnswerTimer = ReturnType<typeof answerTimer>;

/**
 * Bounds a streamed answer's whole time, headers and body: n8n's request timeout ends only the wait
 * for the headers, and a body that stalls or trickles would otherwise keep the item running forever.
 * The wait is n8n's own sleep (nodes may not start timers themselves). `signal` aborts the request
 * (which ends its body stream) when the time is up or the execution is cancelled; `stop` ends the
 * wait once the answer is complete (or abandoned).
 */
export function answerTimer(ms: number, cancel: AbortSignal | undefined) {
	const timeUp = new AbortController();
	const done = new AbortController();
	void cancellableSleep(ms, done.signal).then(
		() => timeUp.abort(),
		() => undefined,
	);
	return {
		signal: cancel === undefined ? timeUp.signal : AbortSignal.any([cancel, timeUp.signal]),
		expired: () => timeUp.signal.aborted,
		stop: () => done.abort(),
	};
}

/**
 * The body as it arrives; a stream that fails says why (time up, cancelled, broken off). Each read
 * races the timer: a body n8n 2.x wraps in its own stream may never settle a pending read on abort.
 */
export async function* timedBody(
	ctx: NexthinkContext,
	body: AsyncIterable<Uint8Array>,
	timer: AnswerTimer,
	cancel: AbortSignal | undefined,
	request: NexthinkRequest,
	action: string,
): AsyncGenerator<Uint8Array, void, undefined> {
	const iterator = body[Symbol.asyncIterator]();
	const stopped = new Promise<never>((_resolve, reject) => {
		if (timer.signal.aborted) reject(new Error('aborted'));
		else timer.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
	});
	stopped.catch(() => undefined); // read only through the race below
	let ended = false;
	try {
		for (;;) {
			const step = await Promise.race([iterator.next(), stopped]);
			if (step.done === true) {
				ended = true;
				return;
			}
			yield step.value;
		}
	} catch (error) {
		throwIfCancelled(ctx, cancel, request.itemIndex);
		const reason = networkCodeOf(errorChain(error)) ?? (error as Error)?.message ?? String(error);
		const timeout = request.timeoutMs === undefined ? '' : ` (now ${request.timeoutMs / 1000} s)`;
		throw markedNoAnswer(new NodeOperationError(
			ctx.getNode(),
			timer.expired()
				? `${action} failed: the answer was still arriving when the Request Timeout ran out`
				: `${action} failed: the connection broke before the answer was complete (${reason})`,
			{
				itemIndex: request.itemIndex,
				description: `Nothing was output for this item. Run it again; if it keeps failing, raise "Request Timeout"${timeout}, or use the Export operation for large results.`,
			},
		));
	} finally {
		timer.stop();
		// closes the body when the reader stopped early; not awaited, as a read may still be pending
		if (!ended) void Promise.resolve(iterator.return?.()).catch(() => undefined);
	}
}
