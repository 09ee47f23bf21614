/**
 * Pure parts of Run Remote Action: input checks (runInput.ts), grouping and outcomes
 * (actions/shared/runPlan.ts), and reading the API's answers (answers.ts); the campaign trigger's checks and answer.
 */
import { readTriggerResponse } from '../../../nodes/Nexthink/actions/campaign/answers';
import * as input from '../../../nodes/Nexthink/actions/campaign/campaignInput';
import { isApiEnabled, listLabel, readExecutionResponse, scriptInputsOf } from '../../../nodes/Nexthink/actions/remoteAction/answers';
import { readNqlObjectList } from '../../../nodes/Nexthink/actions/shared/nqlObjects';
import { planRequests, runOutcome, type PreparedRun } from '../../../nodes/Nexthink/actions/shared/runPlan';
import {
	checkExpiry,
	checkScriptInputs,
	checkTriggerInfo,
	normaliseRemoteActionId,
	parseCollectorUids,
} from '../../../nodes/Nexthink/actions/remoteAction/runInput';
import { InputError } from '../../../nodes/Nexthink/shared/inputError';

const uid = (n: number) => `e0000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

describe('runInput', () => {
	it('normalises NQL IDs and refuses empty or spaced ones', () => {
		expect(normaliseRemoteActionId(' restart_service ')).toBe('#restart_service');
		expect(normaliseRemoteActionId('#ExampleRA')).toBe('#ExampleRA');
		expect(() => normaliseRemoteActionId('#')).toThrow('No remote action is selected');
		expect(() => normaliseRemoteActionId('restart service')).toThrow('contains spaces');
		expect(() => normaliseRemoteActionId(42)).toThrow('got number 42');
	});

	it('parses one UID, text lists and arrays; reports duplicates (case-insensitive) and names bad entries', () => {
		expect(parseCollectorUids(uid(1))).toEqual({ devices: [uid(1)], duplicates: [] });
		expect(parseCollectorUids(`${uid(1)},${uid(2)};\n${uid(1).toUpperCase()}`)).toEqual({ devices: [uid(1), uid(2)], duplicates: [uid(1).toUpperCase()] });
		expect(parseCollectorUids([uid(3), null, `${uid(4)} ${uid(3)}`])).toEqual({ devices: [uid(3), uid(4)], duplicates: [uid(3)] });
		expect(() => parseCollectorUids(['a', 'b', 'c', 'd', uid(1)])).toThrow('4 Collector UIDs are not a UUID: "a", "b", "c" and 1 more');
		expect(() => parseCollectorUids('  ')).toThrow('"Collector UIDs" is empty');
		expect(() => parseCollectorUids([{ uid: uid(1) }])).toThrow('A Collector UID must be text, got an object');
		expect(() => parseCollectorUids(Array.from({ length: 10_001 }, (_, i) => uid(i)))).toThrow('10001 devices');
		expect(parseCollectorUids(Array.from({ length: 10_000 }, (_, i) => uid(i))).devices).toHaveLength(10_000);
	});

	it('checks the expiry range 60..10080 and trigger info', () => {
		expect(checkExpiry(undefined)).toBe(60);
		expect(checkExpiry('')).toBe(60);
		expect(checkExpiry(60)).toBe(60);
		expect(checkExpiry('10080')).toBe(10_080);
		for (const bad of [59, 10_081, 90.5, 'soon', Number.NaN]) expect(() => checkExpiry(bad)).toThrow(InputError);
		expect(checkTriggerInfo({})).toBeUndefined();
		expect(checkTriggerInfo({ externalSource: ' n8n ', reason: '', externalReference: 42 })).toEqual({ externalSource: 'n8n', externalReference: '42' });
		expect(checkTriggerInfo({ reason: '🙂'.repeat(500) })).toEqual({ reason: '🙂'.repeat(500) });
		expect(() => checkTriggerInfo({ reason: 'x'.repeat(501) })).toThrow('501 characters');
		expect(() => checkTriggerInfo({ externalSource: ['a'] })).toThrow('External Source must be text, got a list');
	});

	it('turns script inputs into text params', () => {
		expect(checkScriptInputs({ A: 'x', B: 5, C: true, D: null })).toEqual({ A: 'x', B: '5', C: 'true' });
		expect(checkScriptInputs(null)).toEqual({});
		expect(() => checkScriptInputs({ A: [1] })).toThrow('Script input "A" must be text, got a list');
	});
});

const prepared = (itemIndex: number, devices: string[], params: Record<string, string> = {}, extra: Partial<PreparedRun> = {}): PreparedRun => ({
	itemIndex,
	remoteActionId: '#ra',
	params,
	expiresInMinutes: 60,
	devices,
	duplicatesInItem: [],
	...extra,
});

describe('runBatching', () => {
	it('groups by remote action, params (any key order), expiry and trigger info', () => {
		const plan = planRequests([
			prepared(0, [uid(1)], { a: '1', b: '2' }),
			prepared(1, [uid(2)], { b: '2', a: '1' }),
			prepared(2, [uid(3)], { a: '1', b: '2' }, { expiresInMinutes: 120 }),
			prepared(3, [uid(4)], { a: '1', b: '2' }, { triggerInfo: { reason: 'r' } }),
			prepared(4, [uid(5)], { a: '1', b: '2' }, { remoteActionId: '#other' }),
		]);
		expect(plan.requests.map((request) => [request.body.devices, request.itemIndexes])).toEqual([
			[[uid(1), uid(2)], [0, 1]],
			[[uid(3)], [2]],
			[[uid(4)], [3]],
			[[uid(5)], [4]],
		]);
		expect(plan.requests[2].body.triggerInfo).toEqual({ reason: 'r' });
	});

	it('sends a device once per group and keeps items whole when splitting at the limit', () => {
		const plan = planRequests([prepared(0, [uid(1), uid(2)]), prepared(1, [uid(2), uid(3)]), prepared(2, [uid(4), uid(5)]), prepared(3, [uid(1)])], 3);
		expect(plan.requests.map((request) => request.body.devices)).toEqual([[uid(1), uid(2), uid(3)], [uid(4), uid(5)]]);
		expect(plan.placements.get(1)).toEqual([
			{ collectorUid: uid(2), request: 0, firstItem: 0 },
			{ collectorUid: uid(3), request: 0, firstItem: 1 },
		]);
		expect(plan.placements.get(3)).toEqual([{ collectorUid: uid(1), request: 0, firstItem: 0 }]);
		expect(plan.requests[0].itemIndexes).toEqual([0, 1, 3]);
	});

	it('builds each item\'s outcome from the requests it used', () => {
		const runs = [prepared(0, [uid(1)]), prepared(1, [uid(1), uid(2)], {}, { duplicatesInItem: [uid(2)] }), prepared(2, [uid(3)])];
		const plan = planRequests(runs, 2);
		const results = [
			{ ok: true as const, requestId: 'r-1', expiresInMinutes: 60 },
			{ ok: false as const, message: 'refused', httpCode: '403' },
		];
		expect(runOutcome(runs[1], plan, results)).toEqual({
			requestId: 'r-1',
			status: 'triggered',
			remoteActionId: '#ra',
			requestIds: ['r-1'],
			expiresInMinutes: 60,
			devices: [
				{ collectorUid: uid(1), requestId: 'r-1', sentWithItem: 0 },
				{ collectorUid: uid(2), requestId: 'r-1' },
			],
			duplicates: [uid(2)],
		});
		expect(runOutcome(runs[2], plan, results)).toMatchObject({ status: 'failed', requestIds: [], error: { message: 'refused', httpCode: '403' } });
		expect(runOutcome(runs[0], plan, undefined)).toMatchObject({ status: 'validated', requestIds: [] });
	});
});

describe('answers', () => {
	it('reads the execution response and refuses anything else', () => {
		expect(readExecutionResponse({ requestId: 'r', expiresInMinutes: 60 })).toEqual({ requestId: 'r', expiresInMinutes: 60 });
		expect(readExecutionResponse({ requestId: 'r' })).toEqual({ requestId: 'r' });
		for (const bad of [{}, { requestId: '' }, { requestId: 1 }, '<html>', null, [{ requestId: 'r' }]]) expect(readExecutionResponse(bad)).toBeUndefined();
	});

	it('reads lists, the API flag, labels and script inputs', () => {
		expect(readNqlObjectList({})).toBeUndefined();
		expect(readNqlObjectList([{ id: '#a' }, { name: 'no id' }])).toBeUndefined();
		const ra = { id: '#a', name: 'A', targeting: { apiEnabled: false }, scriptInfo: { inputs: [{ id: 'X', options: ['1', '2'], allowCustomValue: false }, { id: 'Y' }, { name: 'no id' }] } };
		expect(isApiEnabled(ra)).toBe(false);
		expect(listLabel(ra)).toBe('A (#a) — API not enabled, cannot be run from n8n');
		expect(listLabel({ id: '#b', targeting: { apiEnabled: true } })).toBe('#b (#b)');
		expect(scriptInputsOf(ra)).toEqual([
			{ id: 'X', name: 'X', description: '', options: ['1', '2'], allowCustomValue: false },
			{ id: 'Y', name: 'Y', description: '', options: [], allowCustomValue: true },
		]);
	});
});

describe('campaign input and answer', () => {
	it('checks SIDs (pattern of the OpenAPI documents), expiry and parameters', () => {
		expect(input.parseUserSids(['S-1-5-21-1-2-3-1001', 'S-1-5-21-1-2-3-1001', '0'])).toEqual({ users: ['S-1-5-21-1-2-3-1001', '0'], duplicates: ['S-1-5-21-1-2-3-1001'] });
		for (const bad of ['S-1', 's-1-5-21', 'S-1-2-3-4-5-6-7-8-9-10-11-12', 'bob@x.com']) expect(() => input.parseUserSids(bad)).toThrow('not a SID');
		expect(input.checkCampaignExpiry(undefined)).toBe(10_080);
		expect(input.checkCampaignExpiry(1)).toBe(1);
		expect(input.checkCampaignExpiry(525_600)).toBe(525_600);
		expect(() => input.checkCampaignExpiry(1.5)).toThrow('from 1 to 525600');
		expect(input.checkCampaignParameters([{ name: ' a ', value: 3 }, { name: 'b' }])).toEqual({ a: '3', b: '' });
		expect(() => input.checkCampaignParameters([{ name: '', value: 'x' }])).toThrow('has no name');
		expect(input.normaliseCampaignId('it_satisfaction')).toBe('#it_satisfaction');
	});

	it('reads the per-user answer and refuses anything else', () => {
		const byUser = readTriggerResponse({ requests: [{ userSid: 'S-1-2-3', requestId: 'r' }, { userSid: '0', message: 'No user' }] });
		expect([...(byUser ?? [])]).toEqual([
			['S-1-2-3', { requestId: 'r' }],
			['0', { message: 'No user' }],
		]);
		for (const bad of [{}, { requests: [] }, { requests: [{ userSid: 'S-1-2-3' }] }, { requests: [{ requestId: 'r' }] }, [], 'x']) {
			expect(readTriggerResponse(bad)).toBeUndefined();
		}
	});
});
