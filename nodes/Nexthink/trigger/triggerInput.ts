/**
 * Pure checks of what the user typed in the trigger (column lists, which changes to emit) and the
 * lock's expiry; no n8n imports.
 */
import { CHANGE_KINDS, type ChangeKind } from './changeDetection';

export class TriggerSettingError extends Error {}

/** "device.uid, device.name" → ['device.uid', 'device.name']; each name once. */
export function parseColumnList(raw: unknown, label: string, required: boolean): string[] {
	if (raw !== undefined && raw !== null && typeof raw !== 'string') {
		throw new TriggerSettingError(`${label} must be text: column names separated by commas.`);
	}
	const columns = (raw ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
	if (required && columns.length === 0) {
		throw new TriggerSettingError(`${label} is empty. Enter the column(s) that identify a row, as named in the result, e.g. device.uid.`);
	}
	const seen = new Set<string>();
	for (const column of columns) {
		if (seen.has(column)) throw new TriggerSettingError(`${label} names "${column}" twice.`);
		seen.add(column);
	}
	return columns;
}

export function parseEmit(raw: unknown): Set<ChangeKind> {
	const values = Array.isArray(raw) ? raw : [];
	const kinds = new Set<ChangeKind>();
	for (const value of values) {
		if (!(CHANGE_KINDS as readonly unknown[]).includes(value)) throw new TriggerSettingError(`Emit: "${String(value)}" is not one of ${CHANGE_KINDS.join(', ')}.`);
		kinds.add(value as ChangeKind);
	}
	if (kinds.size === 0) throw new TriggerSettingError('Emit is empty: choose at least one kind of change to output (new, changed, removed or duplicate rows).');
	return kinds;
}

/**
 * How long a poll holds its lock: longer than the poll itself can take, so a second poll never
 * starts while one runs, yet a poll that was cut short (n8n stopped) frees it by itself. An export
 * poll is its start, its wait and the download, each request within the Request Timeout (with a
 * status call's retries within the wait); Execute Query is one request with up to four retries and
 * their back-off (at most 30 s each).
 */
export function lockDurationMs(settings: { method: 'export' | 'execute'; wait: { maxWaitMs: number }; timeoutMs: number }): number {
	const margin = 2 * 60_000;
	if (settings.method === 'execute') return 5 * settings.timeoutMs + 4 * 30_000 + margin;
	return settings.wait.maxWaitMs + 3 * settings.timeoutMs + margin;
}
