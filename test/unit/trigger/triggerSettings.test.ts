/**
 * What the user types in the trigger, checked before any request, and how long a poll's lock holds.
 */
import { lockDurationMs, parseColumnList, parseEmit } from '../../../nodes/Nexthink/trigger/triggerSettings';
import { changeJson, emptySampleJson, sampleJson } from '../../../nodes/Nexthink/trigger/changeDetection';
import { DEFAULT_RETRY_POLICY } from '../../../nodes/Nexthink/transport/retryPolicy';
import { InputError } from '../../../nodes/Nexthink/shared/inputError';

describe('parseColumnList', () => {
	it('splits on commas and trims', () => {
		expect(parseColumnList(' device.uid , device.name,', 'Key Columns', true)).toEqual(['device.uid', 'device.name']);
		expect(parseColumnList('', 'Compare Columns', false)).toEqual([]);
		expect(parseColumnList(undefined, 'Compare Columns', false)).toEqual([]);
	});

	it('refuses an empty key, a column named twice and a value that is not text', () => {
		expect(() => parseColumnList(' , ', 'Key Columns', true)).toThrow(
			'Key Columns is empty. Enter the column(s) that identify a row, as named in the result, e.g. device.uid.',
		);
		expect(() => parseColumnList('a, b, a', 'Key Columns', true)).toThrow('Key Columns names "a" twice.');
		expect(() => parseColumnList(['a'], 'Compare Columns', false)).toThrow(InputError);
	});
});

describe('parseEmit', () => {
	it('takes the chosen kinds and refuses none or an unknown one', () => {
		expect([...parseEmit(['new', 'removed'])]).toEqual(['new', 'removed']);
		expect(() => parseEmit([])).toThrow(/Trigger On is empty/);
		expect(() => parseEmit(['moved'])).toThrow('Trigger On: "moved" is not one of new, changed, removed, duplicate.');
	});
});

describe('lockDurationMs', () => {
	const policy = { maxRetries: 4, maxDelayMs: 30_000, maxRetryAfterMs: 600_000 };
	it('outlasts the longest poll: Maximum Wait plus the requests of an export, or an execute with its retries and their waits', () => {
		// export: Maximum Wait, five requests of T (start, last status call, download, fresh URL, download), each possibly sent twice (401), a margin
		expect(lockDurationMs({ method: 'export', wait: { maxWaitMs: 1_800_000 }, timeoutMs: 300_000 }, policy)).toBe(1_800_000 + 9 * 300_000 + 300_000);
		// execute: 5 attempts of T, each possibly sent twice, 4 waits of up to a 10-minute retry-after on 429, a margin
		expect(lockDurationMs({ method: 'execute', wait: { maxWaitMs: 1_800_000 }, timeoutMs: 60_000 }, policy)).toBe(10 * 60_000 + 4 * 600_000 + 300_000);
	});

	it("follows the transport's retry policy", () => {
		const settings = { method: 'execute' as const, wait: { maxWaitMs: 0 }, timeoutMs: 60_000 };
		expect(lockDurationMs(settings, DEFAULT_RETRY_POLICY)).toBeGreaterThanOrEqual(
			(DEFAULT_RETRY_POLICY.maxRetries + 1) * 60_000 + DEFAULT_RETRY_POLICY.maxRetries * DEFAULT_RETRY_POLICY.maxRetryAfterMs,
		);
	});
});

describe('items', () => {
	const info = { queryId: '#q', polledAt: '2026-11-26T10:00:00.000Z' };
	it('say which change they are, with the row, or the key alone for a removed row', () => {
		expect(changeJson({ kind: 'new', key: { id: 'a' }, row: { id: 'a', os: 'x' } }, info, true)).toEqual({
			id: 'a',
			os: 'x',
			nexthinkTrigger: { change: 'new', key: { id: 'a' }, queryId: '#q', polledAt: info.polledAt, firstPoll: true },
		});
		expect(changeJson({ kind: 'removed', key: { id: 'b' }, previous: { os: 'y' } }, info, false)).toEqual({
			id: 'b',
			nexthinkTrigger: { change: 'removed', key: { id: 'b' }, previous: { os: 'y' }, queryId: '#q', polledAt: info.polledAt },
		});
		const duplicate = changeJson({ kind: 'duplicate', key: { id: 'c' }, row: { id: 'c', n: 1 }, rows: [{ id: 'c', n: 1 }, { id: 'c', n: 2 }] }, info, false);
		expect(duplicate.nexthinkTrigger).toMatchObject({ change: 'duplicate', rowCount: 2 });
		expect(sampleJson({ id: 'a' }, info).nexthinkTrigger).toMatchObject({ change: 'sample' });
		expect(emptySampleJson(info).nexthinkTrigger).toMatchObject({ change: 'sample', note: expect.stringContaining('no rows') });
	});
});
