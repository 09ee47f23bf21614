/**
 * Device → Delete's pure parts: the item checks, the batches (at most `perRequest` distinct devices,
 * duplicates shared, a UID with two names refused), the run cap's words, and the reading of the 202.
 */
import { readDeletionAnswer } from '../../../nodes/Nexthink/actions/device/answers';
import { checkDeviceName, checkDeviceUid, planDeletions, runCapProblem } from '../../../nodes/Nexthink/actions/device/deleteInput';

const uidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('checkDeviceUid / checkDeviceName', () => {
	it('accepts a UUID (trimmed) and refuses anything else unless Nexthink judges', () => {
		expect(checkDeviceUid(` ${uidOf(1)} `, false)).toBe(uidOf(1));
		expect(() => checkDeviceUid('PC-1', false)).toThrow('The device UID "PC-1" is not a UUID');
		expect(checkDeviceUid('PC-1', true)).toBe('PC-1');
	});

	it.each([undefined, null, '', '   '])('refuses a blank UID (%p) even when Nexthink judges', (raw) => {
		expect(() => checkDeviceUid(raw, true)).toThrow('No device UID');
	});

	it('refuses a blank name and a name that is not text', () => {
		expect(() => checkDeviceName(' ')).toThrow('No device name');
		expect(() => checkDeviceName(['a'])).toThrow('Device Name must be text, got a list');
		expect(checkDeviceName(42)).toBe('42');
	});
});

describe('planDeletions', () => {
	it('cuts 100 + 1 distinct devices into two batches and places every item', () => {
		const devices = Array.from({ length: 101 }, (_, i) => ({ itemIndex: i, device: { uid: uidOf(i), name: `PC-${i}` } }));
		const plan = planDeletions(devices, 100);
		expect(plan.batches.map((batch) => batch.devices.length)).toEqual([100, 1]);
		expect(plan.batches[1].itemIndexes).toEqual([100]);
		expect(plan.placements.get(100)).toEqual({ batch: 1, position: 0, firstItem: 100 });
		expect(plan.deviceCount).toBe(101);
	});

	it('sends a device given twice once (UID case ignored) and refuses a UID given with another name', () => {
		const plan = planDeletions(
			[
				{ itemIndex: 0, device: { uid: uidOf(1), name: 'A' } },
				{ itemIndex: 1, device: { uid: uidOf(1).toUpperCase(), name: 'A' } },
				{ itemIndex: 2, device: { uid: uidOf(1), name: 'B' } },
			],
			100,
		);
		expect(plan.batches).toEqual([{ devices: [{ uid: uidOf(1), name: 'A' }], itemIndexes: [0] }]);
		expect(plan.placements.get(1)).toEqual({ batch: 0, position: 0, firstItem: 0 });
		expect(plan.conflicts.get(2)).toContain('"B" here and "A" in item 0');
		expect(plan.deviceCount).toBe(1);
	});
});

describe('runCapProblem', () => {
	it('names both numbers when the run holds more devices than the cap', () => {
		expect(runCapProblem(500, 500)).toBeUndefined();
		expect(runCapProblem(501, 500)).toContain('The input holds 501 devices to delete, more than Maximum Devices per Run (500)');
	});
});

describe('readDeletionAnswer', () => {
	const sent = [
		{ uid: uidOf(1), name: 'A' },
		{ uid: 'bad', name: 'B' },
	];

	it('reads the documented answer by position', () => {
		const body = { scheduledCount: 1, status: 'ACCEPTED', devices: [{ uid: uidOf(1), name: 'A', status: 'SCHEDULED' }, { uid: 'bad', name: 'B', status: 'INVALID' }] };
		expect(readDeletionAnswer(body, sent)).toEqual({ ok: true, answer: { scheduledCount: 1, statuses: ['SCHEDULED', 'INVALID'] } });
	});

	it('pairs by UID when the order differs, and leaves out a device the answer does not list', () => {
		expect(readDeletionAnswer({ devices: [{ uid: 'bad', status: 'INVALID' }, { uid: uidOf(1).toUpperCase(), status: 'FAILED' }] }, sent)).toEqual({
			ok: true,
			answer: { statuses: ['FAILED', 'INVALID'] },
		});
		expect(readDeletionAnswer({ devices: [{ uid: 'bad', status: 'INVALID' }] }, sent)).toEqual({ ok: true, answer: { statuses: [undefined, 'INVALID'] } });
	});

	it.each([
		['no body', '', 'the list of per-device statuses'],
		['no devices', { status: 'ACCEPTED', scheduledCount: 0 }, 'the list of per-device statuses'],
		['another batch status', { status: 'DONE', devices: [{ uid: 'x', status: 'SCHEDULED' }] }, 'the batch status ACCEPTED (it said "DONE")'],
		['an entry without a status', { devices: [{ uid: 'x' }] }, 'a uid and a status in every per-device entry'],
	])('says what is missing: %s', (_label, body, missing) => {
		expect(readDeletionAnswer(body, sent)).toEqual({ ok: false, missing });
	});
});
