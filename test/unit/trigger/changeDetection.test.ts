/**
 * The trigger's comparison of two polls: new, changed, removed and duplicate keys, previous values,
 * and the compact state it keeps (a digest per key, not the rows).
 */
import { diffRows, keyFromText, keyText, settingsFingerprint, comparedText, type Row } from '../../../nodes/Nexthink/trigger/changeDetection';
import { DIGEST_BYTES, MAX_KEY_CHARS, MAX_STATE_CHARS, readState, StateLimitError, type PollState } from '../../../nodes/Nexthink/trigger/pollState';
import { DATA_WORK_TIMEOUT_MS } from '../../helpers/timeouts';

const meta = { fingerprint: 'f', recordedAt: '2026-11-26T10:00:00.000Z' };
const byUid = { keyColumns: ['device.uid'], compareColumns: [] as string[] };
const byUidOs = { keyColumns: ['device.uid'], compareColumns: ['device.operating_system.name'] };

function device(uid: string, name: string, os: string): Row {
	return { 'device.uid': uid, 'device.name': name, 'device.operating_system.name': os };
}

function poll(previous: PollState | undefined, rows: Row[], settings = byUid) {
	return diffRows(previous, rows, settings, meta);
}

describe('diffRows', () => {
	const first = [device('u1', 'PC-1', 'Windows 10'), device('u2', 'PC-2', 'Windows 11'), device('u3', 'PC-3', 'macOS 14')];

	it('reports every key as new when there is no state yet, and keeps one digest per key, not the rows', () => {
		const { changes, state, counts } = poll(undefined, first);
		expect(changes.map((c) => [c.kind, c.key])).toEqual([
			['new', { 'device.uid': 'u1' }],
			['new', { 'device.uid': 'u2' }],
			['new', { 'device.uid': 'u3' }],
		]);
		expect(counts).toMatchObject({ rows: 3, keys: 3, new: 3, changed: 0, removed: 0, duplicate: 0 });
		expect(state.keys).toEqual(['u1', 'u2', 'u3']);
		expect(Buffer.from(state.digests, 'base64')).toHaveLength(3 * DIGEST_BYTES);
		expect(state.previous).toBeUndefined();
		expect(JSON.stringify(state)).not.toContain('PC-1');
	});

	it('reports nothing when nothing changed, whatever the row order', () => {
		const { state } = poll(undefined, first);
		const again = poll(state, [...first].reverse());
		expect(again.changes).toEqual([]);
		expect(again.counts.unchanged).toBe(3);
	});

	it('reports a new key, a changed row and a removed key in one poll', () => {
		const { state } = poll(undefined, first);
		const next = poll(state, [device('u1', 'PC-1', 'Windows 11'), device('u2', 'PC-2', 'Windows 11'), device('u4', 'PC-4', 'Ubuntu 24.04')]);
		expect(next.changes.map((c) => [c.kind, c.key['device.uid']])).toEqual([
			['changed', 'u1'],
			['new', 'u4'],
			['removed', 'u3'],
		]);
		const changed = next.changes[0];
		expect(changed.row).toEqual(device('u1', 'PC-1', 'Windows 11'));
		// every column compared: only the digest was kept, so there are no previous values
		expect(changed.previous).toBeNull();
		expect(next.changes[2]).toEqual({ kind: 'removed', key: { 'device.uid': 'u3' }, previous: null });
	});

	it('with Compare Columns: only those columns count, and changed and removed keys carry their previous values', () => {
		const { state } = poll(undefined, first, byUidOs);
		expect(state.previous).toEqual(['["Windows 10"]', '["Windows 11"]', '["macOS 14"]']);
		const renamedOnly = poll(state, [device('u1', 'PC-1-renamed', 'Windows 10'), first[1], first[2]], byUidOs);
		expect(renamedOnly.changes).toEqual([]);
		const next = poll(state, [device('u1', 'PC-1', 'Windows 11'), first[1]], byUidOs);
		expect(next.changes).toEqual([
			{
				kind: 'changed',
				key: { 'device.uid': 'u1' },
				row: device('u1', 'PC-1', 'Windows 11'),
				previous: { 'device.operating_system.name': 'Windows 10' },
				changedColumns: ['device.operating_system.name'],
			},
			{ kind: 'removed', key: { 'device.uid': 'u3' }, previous: { 'device.operating_system.name': 'macOS 14' } },
		]);
	});

	it('compares values as text: a number from Execute Query equals the same text from an export file', () => {
		const { state } = diffRows(undefined, [{ id: 'a', n: 12, b: true, e: null }], { keyColumns: ['id'], compareColumns: [] }, meta);
		const next = diffRows(state, [{ id: 'a', n: '12', b: 'true', e: '' }], { keyColumns: ['id'], compareColumns: [] }, meta);
		expect(next.changes).toEqual([]);
	});

	it('a column added to the result changes every row when every column is compared', () => {
		const { state } = poll(undefined, first);
		const next = diffRows(state, first.map((row) => ({ ...row, extra: 'x' })), byUid, meta);
		expect(next.counts.changed).toBe(3);
	});

	it('reports keys on several rows as duplicates, never merged, once, and again when their rows change', () => {
		const rows = [...first, device('u2', 'PC-2b', 'Windows 11')];
		const firstPoll = poll(undefined, rows);
		expect(firstPoll.changes.map((c) => [c.kind, c.key['device.uid']])).toEqual([
			['new', 'u1'],
			['duplicate', 'u2'],
			['new', 'u3'],
		]);
		expect(firstPoll.changes[1].rows).toEqual([first[1], device('u2', 'PC-2b', 'Windows 11')]);
		expect(firstPoll.state.duplicates).toEqual(['u2']);

		// the same duplicate, rows in another order: not reported again
		const same = poll(firstPoll.state, [rows[3], rows[0], rows[2], rows[1]]);
		expect(same.changes).toEqual([]);

		// one of the duplicate's rows changed: reported again
		const changed = poll(firstPoll.state, [...first, device('u2', 'PC-2b', 'Windows 10')]);
		expect(changed.changes.map((c) => c.kind)).toEqual(['duplicate']);

		// the duplicate resolved: the key's one row is a change (no previous values for a duplicate)
		const resolved = poll(firstPoll.state, first, byUid);
		expect(resolved.changes).toEqual([{ kind: 'changed', key: { 'device.uid': 'u2' }, row: first[1], previous: null }]);
		expect(resolved.state.duplicates).toBeUndefined();
	});

	it('keys on several columns', () => {
		const settings = { keyColumns: ['device.name', 'device.operating_system.name'], compareColumns: [] };
		const { state } = poll(undefined, first, settings);
		expect(state.keys[0]).toBe('["PC-1","Windows 10"]');
		const next = poll(state, first.slice(1), settings);
		expect(next.changes).toEqual([{ kind: 'removed', key: { 'device.name': 'PC-1', 'device.operating_system.name': 'Windows 10' }, previous: null }]);
	});

	it('an empty result removes every key (whether an answer may count as empty is the question of resultCheck.ts)', () => {
		const { state } = poll(undefined, first);
		const next = diffRows(state, [], byUid, meta);
		expect(next.changes.map((c) => c.kind)).toEqual(['removed', 'removed', 'removed']);
		expect(next.state.keys).toEqual([]);
	});

	it('refuses a key longer than its limit', () => {
		expect(() => poll(undefined, [device('x'.repeat(MAX_KEY_CHARS + 1), 'n', 'o')])).toThrow(StateLimitError);
	});

	it('its state survives a JSON round trip (how n8n stores static data)', () => {
		const { state } = poll(undefined, first, byUidOs);
		const stored = readState(JSON.parse(JSON.stringify(state)));
		expect(stored).toEqual(state);
		const next = poll(stored, [device('u1', 'PC-1', 'Windows 11'), first[1], first[2]], byUidOs);
		expect(next.changes.map((c) => c.kind)).toEqual(['changed']);
	});

	it(
		'handles 100,000 keys: the state is about 5 MB of JSON for 36-character UIDs with every column compared (under a third of its ceiling), and finds one change among them',
		() => {
			const rows = Array.from({ length: 100_000 }, (_, i) => device(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, `PC-${i}`, 'Windows 11'));
			const { state } = poll(undefined, rows);
			const json = JSON.stringify(state);
			expect(json.length).toBeGreaterThan(4_000_000);
			expect(json.length).toBeLessThan(6_000_000);
			expect(json.length).toBeLessThan(MAX_STATE_CHARS / 3);
			rows[54_321] = { ...rows[54_321], 'device.operating_system.name': 'Windows 10' };
			rows.splice(99_999, 1);
			const next = poll(readState(JSON.parse(json)), rows);
			expect(next.changes.map((c) => [c.kind, c.key['device.uid']])).toEqual([
				['changed', '00000000-0000-4000-8000-000000054321'],
				['removed', '00000000-0000-4000-8000-000000099999'],
			]);
		},
		DATA_WORK_TIMEOUT_MS,
	);
});

describe('keys and values', () => {
	it('writes one key column as its text, several as a JSON list, and reads both back', () => {
		expect(keyText({ a: 'x', b: 1 }, ['a'])).toBe('x');
		expect(keyText({ a: 'x', b: 1 }, ['a', 'b'])).toBe('["x","1"]');
		expect(keyFromText('["x","1"]', ['a', 'b'])).toEqual({ a: 'x', b: '1' });
		expect(keyFromText('x', ['a'])).toEqual({ a: 'x' });
	});

	it('reads null and missing as empty text', () => {
		expect([comparedText(null), comparedText(undefined), comparedText(0), comparedText(false), comparedText([1])]).toEqual(['', '', '0', 'false', '[1]']);
	});
});

describe('settingsFingerprint', () => {
	const base = { queryId: '#q', parameters: { a: '1', b: '2' }, keyColumns: ['k'], compareColumns: [] };
	it('ignores the order of parameters and changes with the query, a parameter, the key or the compared columns', () => {
		const fingerprint = settingsFingerprint(base);
		expect(settingsFingerprint({ ...base, parameters: { b: '2', a: '1' } })).toBe(fingerprint);
		for (const other of [
			{ ...base, queryId: '#r' },
			{ ...base, parameters: { a: '1', b: '3' } },
			{ ...base, keyColumns: ['k2'] },
			{ ...base, compareColumns: ['c'] },
		]) {
			expect(settingsFingerprint(other)).not.toBe(fingerprint);
		}
	});
});
