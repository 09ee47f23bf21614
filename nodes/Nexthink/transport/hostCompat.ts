/**
 * Where n8n 1.x and 2.x differ for this package (design.md section 3), detected at run time rather
 * than assumed from a version number.
 */
import * as n8nWorkflow from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

type AbortableSleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * 1.x exports `sleepWithAbort` because its `sleep(ms)` ignores a signal; 2.x dropped it and its
 * `sleep(ms, signal)` rejects as soon as the signal aborts. Either way the wait ends on cancel.
 */
const legacySleepWithAbort = (n8nWorkflow as unknown as { sleepWithAbort?: AbortableSleep }).sleepWithAbort;

export async function cancellableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
	if (ms <= 0) return;
	if (signal !== undefined && typeof legacySleepWithAbort === 'function') {
		await legacySleepWithAbort(ms, signal);
		return;
	}
	await (sleep as AbortableSleep)(ms, signal);
}
