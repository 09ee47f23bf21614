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

/**
 * How to read non-2xx answers as data without losing the 401 token renewal.
 *
 * 2.x understands `ignoreHttpStatusErrors: { ignore: true, except: [401] }`: every status comes
 * back as data but a 401 still throws, which is what makes n8n renew the token and retry. 1.x only
 * tests the option for truthiness, so the same object also swallows the 401 and no renewal happens.
 * The transport starts with the object form and, the first time a 401 comes back as data, learns
 * that this host is 1.x-like: from then on it sends no option and reads statuses from thrown errors.
 */
let hostIgnoresExceptList = false;

export function statusErrorOptions(): { ignoreHttpStatusErrors?: { ignore: true; except: number[] } } {
	return hostIgnoresExceptList ? {} : { ignoreHttpStatusErrors: { ignore: true, except: [401] } };
}

/** Call when a 401 arrived as data although the request asked for it to throw. */
export function noteHostIgnoresExceptList(): void {
	hostIgnoresExceptList = true;
}
