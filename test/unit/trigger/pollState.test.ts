/**
 * The trigger's stored state and lock: what is read back as a state, the documented ceilings with
 * their messages, and the lock's expiry.
 */
import {
	checkStateLimits,
	DIGEST_BYTES,
	lockHolds,
	MAX_KEYS,
	MAX_STATE_CHARS,
	readGeneration,
	readLock,
	readState,
	STATE_FORMAT,
	StateLimitError,
	type PollState,
} from '../../../nodes/Nexthink/trigger/pollState';
import { DATA_WORK_TIMEOUT_MS } from '../../helpers/timeouts';

function stateOf(keys: string[], previous?: string[]): PollState {
	return {
		format: STATE_FORMAT,
		fingerprint: 'f',
		recordedAt: '2026-11-26T10:00:00.000Z',
		keys,
		digests: Buffer.alloc(keys.length * DIGEST_BYTES).toString('base64'),
		...(previous ? { previous } : {}),
	};
}

describe('readState', () => {
	it('reads a state of this format', () => {
		const state = stateOf(['a', 'b']);
		expect(readState(state)).toBe(state);
	});

	it.each([
		['nothing', undefined],
		['another format', { ...stateOf(['a']), format: 2 }],
		['digests that do not match the keys', { ...stateOf(['a', 'b']), digests: Buffer.alloc(DIGEST_BYTES).toString('base64') }],
		['previous values that do not match the keys', stateOf(['a', 'b'], ['x'])],
		['text', 'state'],
	])('reads %s as no state (a new baseline)', (_name, stored) => {
		expect(readState(stored)).toBeUndefined();
	});
});

describe('checkStateLimits', () => {
	it(`accepts ${MAX_KEYS.toLocaleString('en-US')} keys and refuses one more, saying what to do`, () => {
		const keys = Array.from({ length: MAX_KEYS }, (_, i) => String(i));
		expect(() => checkStateLimits(stateOf(keys))).not.toThrow();
		keys.push('one more');
		expect(() => checkStateLimits(stateOf(keys))).toThrow(StateLimitError);
		expect(() => checkStateLimits(stateOf(keys))).toThrow(
			'The query returned 250,001 distinct keys; the trigger compares at most 250,000. Narrow the query (e.g. with a query parameter) or split it over several triggers.',
		);
	}, DATA_WORK_TIMEOUT_MS);

	it('refuses a state over its size in characters, naming Compare Columns when previous values are kept', () => {
		const keys = Array.from({ length: 20_000 }, (_, i) => `${i}`.padEnd(100, 'k'));
		const previous = keys.map(() => 'v'.repeat(Math.ceil(MAX_STATE_CHARS / 20_000)));
		expect(() => checkStateLimits(stateOf(keys, previous))).toThrow(/more than the 16\.0 MB it may keep .* Name fewer or shorter Compare Columns/);
		const longKeys = Array.from({ length: 20_000 }, (_, i) => `${i}`.padEnd(900, 'k'));
		expect(() => checkStateLimits(stateOf(longKeys))).toThrow(/Choose a shorter Key Column/);
	});
});

describe('lock', () => {
	it('holds until it expires, and anything else is no lock', () => {
		const lock = readLock({ until: 2_000, since: '2026-11-26T10:00:00.000Z' });
		expect(lockHolds(lock, 1_999)).toBe(true);
		expect(lockHolds(lock, 2_000)).toBe(false);
		expect(lockHolds(readLock(undefined), 0)).toBe(false);
		expect(readLock({ until: 'soon', since: 'x' })).toBeUndefined();
		expect(readLock({ until: Number.POSITIVE_INFINITY, since: 'x' })).toBeUndefined();
	});
});

describe('readGeneration', () => {
	it('reads the count of writes; a missing or damaged value is 0', () => {
		expect(readGeneration(7)).toBe(7);
		for (const bad of [undefined, null, -1, 1.5, '3', Number.NaN, Number.MAX_VALUE]) expect(readGeneration(bad)).toBe(0);
	});
});
