/** Repeats within the window, on chosen fields or the whole body, with a bounded memory kept as plain JSON. */
import { canonicalJson, checkDuplicates, dedupeKey, dedupeKeyOfBytes, readDedupeState, readField } from '../../../nodes/Nexthink/eventTrigger/dedupe';

const HOUR = 3_600_000;
const settings = { windowMs: HOUR, maxEntries: 5 };

describe('dedupeKey', () => {
	it('gives one key for equal bodies whatever their key order', () => {
		expect(dedupeKey({ a: 1, b: { c: [1, 2], d: null } }, [])).toBe(dedupeKey({ b: { d: null, c: [1, 2] }, a: 1 }, []));
		expect(dedupeKey({ a: 1 }, [])).not.toBe(dedupeKey({ a: 2 }, []));
		expect(canonicalJson({ b: 1, a: [true, 'x'] })).toBe('{"a":[true,"x"],"b":1}');
	});

	it('compares only the chosen fields, literal NQL names first, then dotted paths', () => {
		const first = { 'alert.status': 'open', monitor: { name: 'CPU' }, receivedBy: 'a' };
		const second = { 'alert.status': 'open', monitor: { name: 'CPU' }, receivedBy: 'b' };
		expect(dedupeKey(first, ['alert.status', 'monitor.name'])).toBe(dedupeKey(second, ['alert.status', 'monitor.name']));
		expect(dedupeKey(first, ['alert.status', 'receivedBy'])).not.toBe(dedupeKey(second, ['alert.status', 'receivedBy']));
		expect(readField(first, 'monitor.name')).toBe('CPU');
		expect(readField(first, 'alert.status')).toBe('open');
		expect(readField(first, 'monitor.missing')).toBeUndefined();
	});

	it('counts a missing field as null, so a recovery with a new status is a new key', () => {
		const created = { monitor: 'CPU', status: 'open' };
		const recovered = { monitor: 'CPU', status: 'recovered', recovered: '2026-11-27T10:00:00Z' };
		expect(dedupeKey(created, ['monitor', 'status'])).not.toBe(dedupeKey(recovered, ['monitor', 'status']));
		expect(dedupeKey({ monitor: 'CPU' }, ['monitor', 'x'])).toBe(dedupeKey({ monitor: 'CPU', x: null }, ['monitor', 'x']));
	});

	it('keys raw bytes for whole exporter batches, in 22 characters', () => {
		const key = dedupeKeyOfBytes(Buffer.from('[{"a":1}]'));
		expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
		expect(dedupeKeyOfBytes(Buffer.from('[{"a":1}]'))).toBe(key);
	});
});

describe('checkDuplicates', () => {
	it('lets the first call through and drops its repeats within the window, also within one call', () => {
		const first = checkDuplicates({ seen: {} }, ['k1', 'k2', 'k1'], 1_000, settings);
		expect(first.duplicate).toEqual([false, false, true]);
		const second = checkDuplicates(first.state, ['k1', 'k3'], 1_000 + HOUR - 1, settings);
		expect(second.duplicate).toEqual([true, false]);
	});

	it('forgets a key once the window has passed since it was first seen', () => {
		const first = checkDuplicates({ seen: {} }, ['k1'], 0, settings);
		expect(checkDuplicates(first.state, ['k1'], HOUR, settings).duplicate).toEqual([false]);
	});

	it('keeps at most maxEntries keys, dropping the oldest', () => {
		let state = { seen: {} as Record<string, number> };
		for (let index = 0; index < 8; index++) state = checkDuplicates(state, [`k${index}`], index, settings).state;
		expect(Object.keys(state.seen).sort()).toEqual(['k3', 'k4', 'k5', 'k6', 'k7']);
		expect(JSON.parse(JSON.stringify(state))).toEqual(state);
	});

	it('starts afresh from a state of another shape', () => {
		expect(readDedupeState(undefined)).toEqual({ seen: {} });
		expect(readDedupeState('x')).toEqual({ seen: {} });
		expect(readDedupeState({ seen: { a: 5, b: 'x', c: null } })).toEqual({ seen: { a: 5 } });
	});
});
