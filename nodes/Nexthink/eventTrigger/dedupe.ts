/**
 * Remembers the calls seen in a time window so that a repeat does not start the workflow twice (keys,
 * window and bound: docs/decisions.md, "Nexthink Event Trigger", "Repeats"). A state of another shape
 * is started afresh; only a call that starts the workflow is remembered, never a refused one.
 */
import { createHash } from 'crypto';

import { hasOwnKey } from '../shared/ownKeys';

export interface DedupeState {
	/** key → time first seen (ms since the epoch) */
	seen: Record<string, number>;
}

const DEDUPE_MAX_ENTRIES = 10_000;

/** The JSON text of a value with object keys sorted, so two equal bodies give one text. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const keys = Object.keys(value).sort();
		return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
	}
	return JSON.stringify(value ?? null);
}

/** A field of a body: the literal key first, then the dotted path. */
export function readField(body: unknown, path: string): unknown {
	if (typeof body === 'object' && body !== null && hasOwnKey(body, path)) return (body as Record<string, unknown>)[path];
	let current: unknown = body;
	for (const part of path.split('.')) {
		if (typeof current !== 'object' || current === null || !hasOwnKey(current, part)) return undefined;
		current = (current as Record<string, unknown>)[part];
	}
	return current;
}

const hash = (text: string | Uint8Array): string => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** The key of a body: of the chosen fields, or of the whole body when no field is chosen. */
export function dedupeKey(body: unknown, fields: string[]): string {
	if (fields.length === 0) return hash(canonicalJson(body));
	return hash(canonicalJson(fields.map((field) => readField(body, field) ?? null)));
}

/** The key of a raw body's bytes (an exporter batch: hashing the bytes avoids a second pass over the rows). */
export function dedupeKeyOfBytes(bytes: Uint8Array): string {
	return hash(bytes);
}

/** A state read from static data: anything but a `{ seen: { key: number } }` starts empty. */
export function readDedupeState(stored: unknown): DedupeState {
	const seen: Record<string, number> = {};
	if (typeof stored === 'object' && stored !== null && typeof (stored as DedupeState).seen === 'object' && (stored as DedupeState).seen !== null) {
		for (const [key, at] of Object.entries((stored as DedupeState).seen)) if (typeof at === 'number' && Number.isFinite(at)) seen[key] = at;
	}
	return { seen };
}

/**
 * Checks keys against the state at `nowMs` and records the new ones. Returns, per key, whether it
 * was already seen in the window (a key repeated within one call counts as a duplicate from its
 * second occurrence), and the new state, which keeps the latest `maxEntries` keys (10,000 unless given).
 */
export function checkDuplicates(state: DedupeState, keys: string[], nowMs: number, settings: { windowMs: number; maxEntries?: number }): { duplicate: boolean[]; state: DedupeState } {
	const oldest = nowMs - settings.windowMs;
	const kept = Object.entries(state.seen).filter(([, at]) => at > oldest && at <= nowMs);
	const seen = new Map<string, number>(kept);
	const duplicate = keys.map((key) => {
		if (seen.has(key)) return true;
		seen.set(key, nowMs);
		return false;
	});
	const entries = [...seen.entries()].sort((a, b) => a[1] - b[1]);
	const bounded = entries.slice(Math.max(0, entries.length - Math.max(1, settings.maxEntries ?? DEDUPE_MAX_ENTRIES)));
	return { duplicate, state: { seen: Object.fromEntries(bounded) } };
}
