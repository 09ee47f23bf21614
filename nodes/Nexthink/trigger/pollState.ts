/**
 * What the Nexthink Trigger keeps between polls in n8n's workflow static data, and its limits. Pure
 * (no n8n imports). The format, its ceilings and why: docs/decisions.md, "Nexthink Trigger".
 */

export const STATE_FORMAT = 1;

/** Most keys one state holds (the query's distinct keys). */
export const MAX_KEYS = 250_000;

/** Longest key text, in characters (a key is an ID or a name, not free text). */
export const MAX_KEY_CHARS = 1_000;

/** Most characters of a stored state (keys, digests and previous values). */
export const MAX_STATE_CHARS = 16 * 1024 * 1024;

export const DIGEST_BYTES = 8;

export interface PollState {
	format: typeof STATE_FORMAT;
	/** Digest of what the state is about (query, parameters, key and compared columns): see settingsFingerprint. */
	fingerprint: string;
	/** When the poll that recorded it ran (ISO 8601). */
	recordedAt: string;
	/** Key texts (keyText in changeDetection.ts), one per distinct key of the result. */
	keys: string[];
	/** `keys.length` × DIGEST_BYTES bytes, base64: the digest of each key's compared values. */
	digests: string;
	/** Per key, the JSON text of its compared values; only with named Compare Columns. */
	previous?: string[];
	/** Keys that were duplicated in the result (their digest covers all their rows). */
	duplicates?: string[];
}

/** The state is beyond a limit (the poll fails; the previous state stays). */
export class StateLimitError extends Error {}

/** Reads a stored state; anything that is not a state of this format is no state (a new baseline). */
export function readState(stored: unknown): PollState | undefined {
	if (typeof stored !== 'object' || stored === null) return undefined;
	const state = stored as Partial<PollState>;
	if (state.format !== STATE_FORMAT || typeof state.fingerprint !== 'string' || !Array.isArray(state.keys)) return undefined;
	if (typeof state.digests !== 'string') return undefined;
	const digestLength = Math.ceil((state.keys.length * DIGEST_BYTES) / 3) * 4;
	if (state.digests.length !== digestLength) return undefined;
	if (state.previous !== undefined && (!Array.isArray(state.previous) || state.previous.length !== state.keys.length)) return undefined;
	return state as PollState;
}

/** Characters the state takes once stored, close to its JSON size. */
export function stateChars(state: PollState): number {
	let chars = state.digests.length + state.fingerprint.length + 100;
	for (const key of state.keys) chars += key.length + 3;
	for (const text of state.previous ?? []) chars += text.length + 3;
	for (const key of state.duplicates ?? []) chars += key.length + 3;
	return chars;
}

/** Throws StateLimitError when the state is beyond MAX_KEYS or MAX_STATE_CHARS. */
export function checkStateLimits(state: PollState): void {
	if (state.keys.length > MAX_KEYS) {
		throw new StateLimitError(
			`The query returned ${state.keys.length.toLocaleString('en-US')} distinct keys; the trigger compares at most ${MAX_KEYS.toLocaleString('en-US')}. Narrow the query (e.g. with a query parameter) or split it over several triggers.`,
		);
	}
	const chars = stateChars(state);
	if (chars > MAX_STATE_CHARS) {
		const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
		throw new StateLimitError(
			`The state the trigger would keep is ${mb(chars)} MB, more than the ${mb(MAX_STATE_CHARS)} MB it may keep in the workflow's static data. ` +
				(state.previous !== undefined
					? 'Name fewer or shorter Compare Columns (their previous values are kept per key), or choose a shorter Key Column.'
					: 'Choose a shorter Key Column (e.g. device.uid rather than a long name), or narrow the query.'),
		);
	}
}

export function unpackDigests(digests: string, count: number): Buffer {
	const bytes = Buffer.from(digests, 'base64');
	if (bytes.length !== count * DIGEST_BYTES) throw new StateLimitError('The stored state is damaged (its digests do not match its keys).');
	return bytes;
}

/**
 * How many times polls wrote the state: a poll writes and emits only if it is unchanged since it
 * started (docs/decisions.md, "A stale poll never writes"). Missing or damaged: 0.
 */
export function readGeneration(stored: unknown): number {
	return typeof stored === 'number' && Number.isSafeInteger(stored) && stored >= 0 ? stored : 0;
}

/** A lock that keeps a second poll from starting while one runs; it expires so that a crash cannot keep it. */
export interface PollLock {
	/** Epoch milliseconds after which the lock no longer holds. */
	until: number;
	/** When the poll holding it started (ISO 8601), for messages. */
	since: string;
}

export function readLock(stored: unknown): PollLock | undefined {
	if (typeof stored !== 'object' || stored === null) return undefined;
	const lock = stored as Partial<PollLock>;
	if (typeof lock.until !== 'number' || !Number.isFinite(lock.until) || typeof lock.since !== 'string') return undefined;
	return lock as PollLock;
}

/** True while a lock taken by another poll still holds at `nowMs`. */
export function lockHolds(lock: PollLock | undefined, nowMs: number): boolean {
	return lock !== undefined && lock.until > nowMs;
}
