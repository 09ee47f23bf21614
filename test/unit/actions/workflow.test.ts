/**
 * Pure parts of the Workflow resource: reading the Workflows API's answers (answers.ts), the input
 * checks (runInput.ts), grouping and outcomes (runBatching.ts), the targets Wait for Results follows
 * (shared/resultStatus.ts); and `details` read as the message of a Workflows API error body.
 */
import { readApiErrorBody } from '../../../nodes/Nexthink/transport';
import {
	isWorkflowApiEnabled,
	mergeWorkflowLists,
	readResumeResponse,
	readWorkflowDetails,
	readWorkflowExecutionResponse,
	workflowListLabel,
	workflowParametersOf,
	workflowWarning,
} from '../../../nodes/Nexthink/actions/workflow/answers';
import { readNqlObjectList } from '../../../nodes/Nexthink/actions/shared/nqlObjects';
import { reachedTargets } from '../../../nodes/Nexthink/actions/shared/resultStatus';
import { planWorkflowRequests, withUnfollowed, workflowRunOutcome, type PreparedWorkflowRun } from '../../../nodes/Nexthink/actions/workflow/runBatching';
import { checkMappedParameters, checkNameValueParameters, checkUuid, normaliseWorkflowId, parseWorkflowTargets } from '../../../nodes/Nexthink/actions/workflow/runInput';

const uid = (n: number) => `e0000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const SID = 'S-1-5-21-1-2-3-1001';

describe('answers', () => {
	it('reads the execute answer and refuses anything else', () => {
		expect(readWorkflowExecutionResponse({ requestUuid: 'r', executionsUuids: ['a', 'b'] })).toEqual({ requestUuid: 'r', executionsUuids: ['a', 'b'] });
		for (const bad of [{}, { requestUuid: 'r' }, { requestUuid: '', executionsUuids: [] }, { requestUuid: 'r', executionsUuids: [1] }, [], 'ok', null]) {
			expect(readWorkflowExecutionResponse(bad)).toBeUndefined();
		}
	});

	it('reads the wait-for-event answer (an array of request UUIDs)', () => {
		expect(readResumeResponse([{ requestUuid: 'a' }, { requestUuid: 'b' }])).toEqual(['a', 'b']);
		for (const bad of [[], {}, [{}], { requestUuid: 'a' }]) expect(readResumeResponse(bad)).toBeUndefined();
	});

	it('reads details as an array (null when empty) or an object; lists must be arrays of workflows', () => {
		expect(readWorkflowDetails([{ id: '#a' }])).toEqual({ id: '#a' });
		expect(readWorkflowDetails({ id: '#a' })).toEqual({ id: '#a' });
		expect(readWorkflowDetails([])).toBeNull();
		expect(readWorkflowDetails([{}])).toBeUndefined();
		expect(readWorkflowDetails('<html>')).toBeUndefined();
		expect(readNqlObjectList([{ id: '#a' }])).toEqual([{ id: '#a' }]);
		expect(readNqlObjectList([{ name: 'x' }])).toBeUndefined();
		expect(readNqlObjectList({})).toBeUndefined();
	});

	it('reads the API trigger from an object of booleans or a list of methods', () => {
		expect(isWorkflowApiEnabled({ triggerMethods: { apiEnabled: true } })).toBe(true);
		expect(isWorkflowApiEnabled({ triggerMethods: { apiEnabled: false, manualEnabled: true } })).toBe(false);
		expect(isWorkflowApiEnabled({ triggerMethods: ['MANUAL', 'api'] })).toBe(true);
		expect(isWorkflowApiEnabled({ triggerMethods: ['MANUAL'] })).toBe(false);
		expect(isWorkflowApiEnabled({})).toBe(false);
	});

	it('merges list answers by uuid (by id without one), first seen first', () => {
		const a = { id: '#a', uuid: 'U-1' };
		expect(mergeWorkflowLists([[a, { id: '#b' }], [{ id: '#a2', uuid: 'u-1' }, { id: '#b' }, { id: '#c', uuid: 'u-3' }]])).toEqual([a, { id: '#b' }, { id: '#c', uuid: 'u-3' }]);
	});

	it('labels and warnings say why a workflow cannot be run', () => {
		expect(workflowListLabel({ id: '#a', name: 'A', triggerMethods: { apiEnabled: true } })).toBe('A (#a)');
		expect(workflowListLabel({ id: '#a', triggerMethods: { apiEnabled: true }, status: 'INACTIVE' })).toBe('#a (#a) — inactive, cannot be run');
		expect(workflowListLabel({ id: '#a', name: 'A', triggerMethods: {} })).toMatch(/API trigger not enabled/);
		expect(workflowWarning('#a', { id: '#a', triggerMethods: { apiEnabled: true }, status: 'ACTIVE' })).toBeUndefined();
		expect(workflowWarning('#a', null)).toContain('no workflow with the NQL ID #a');
	});

	it('reads the parameters of the active version, tolerating strings and missing members', () => {
		const workflow = {
			versions: [
				{ status: 'INACTIVE', parameters: [{ id: 'old' }] },
				{ status: 'ACTIVE', parameters: [{ id: 'site', options: ['A', 'B'], allowCustomValue: false }, 'reason', { id: 'reason' }, { nope: 1 }] },
			],
		};
		expect(workflowParametersOf(workflow)).toEqual([
			{ id: 'site', options: ['A', 'B'], allowCustomValue: false },
			{ id: 'reason', options: [], allowCustomValue: true },
		]);
		expect(workflowParametersOf({ versions: 'x' })).toEqual([]);
	});

	it('takes a Workflows API error body\'s "details" as its message when it has no "message"', () => {
		expect(readApiErrorBody({ code: 'X', details: 'what went wrong' })).toEqual({ code: 'X', message: 'what went wrong', source: undefined });
		expect(readApiErrorBody({ code: 'X', message: 'm', details: 'd' }).message).toBe('m');
	});
});

describe('runInput', () => {
	it('normalises NQL IDs', () => {
		expect(normaliseWorkflowId(' repair_teams ')).toBe('#repair_teams');
		expect(() => normaliseWorkflowId('')).toThrow('No workflow is selected');
		expect(() => normaliseWorkflowId('a b')).toThrow('contains spaces');
	});

	it('v1: Collector UIDs and SIDs only; objects refused', () => {
		expect(parseWorkflowTargets('v1', `${uid(1)},${uid(2)}`, 'name', SID, 'upn')).toEqual({
			targets: [
				{ kind: 'device', ids: { collectorUid: uid(1) }, key: expect.any(String) },
				{ kind: 'device', ids: { collectorUid: uid(2) }, key: expect.any(String) },
				{ kind: 'user', ids: { sid: SID }, key: expect.any(String) },
			],
			duplicates: [],
		});
		expect(() => parseWorkflowTargets('v1', [{ collectorUid: uid(1) }], 'collectorUid', '', 'sid')).toThrow('identifier objects need API Version v2');
		expect(() => parseWorkflowTargets('v1', '', 'collectorUid', 'jane@example.com', 'sid')).toThrow(/SID "jane@example.com"/);
	});

	it('v2: names split on commas and line breaks only; duplicates compared case-insensitively; objects checked', () => {
		const parsed = parseWorkflowTargets('v2', 'LAPTOP 1, laptop 1\nPC-2', 'name', [{ upn: 'a@b.cd', sid: SID }], 'sid');
		expect(parsed.targets.map((target) => target.ids)).toEqual([{ name: 'LAPTOP 1' }, { name: 'PC-2' }, { upn: 'a@b.cd', sid: SID }]);
		expect(parsed.duplicates).toEqual(['laptop 1']);
		expect(() => parseWorkflowTargets('v2', [{}], 'name', '', 'sid')).toThrow('has none of collectorUid, uid, name');
		expect(() => parseWorkflowTargets('v2', [{ uid: 5 }], 'name', '', 'sid')).toThrow('device.uid must be text, got number 5');
		expect(() => parseWorkflowTargets('v2', null, 'uid', undefined, 'sid')).toThrow('No target');
		expect(() => parseWorkflowTargets('v2', Array.from({ length: 10_001 }, (_, i) => uid(i)), 'collectorUid', '', 'sid')).toThrow('names 10001 devices');
	});

	it('checks parameters and UUIDs', () => {
		expect(checkNameValueParameters([{ name: ' a ', value: 1 }, { name: 'b', value: true }], 'P')).toEqual({ a: '1', b: 'true' });
		expect(() => checkNameValueParameters([{ name: 'a' }, { name: 'a' }], 'P')).toThrow('given twice');
		expect(() => checkNameValueParameters([{ name: 'a', value: '' }], 'P', { nonEmptyValues: true })).toThrow('is empty');
		expect(() => checkNameValueParameters([{ name: 'a', value: {} }], 'P')).toThrow('must be text, got an object');
		expect(checkMappedParameters({ a: 'x', b: '', c: null, d: 2 }, 'P')).toEqual({ a: 'x', d: '2' });
		expect(checkUuid(` ${uid(1)} `, 'Execution UUID', 'x')).toBe(uid(1));
		expect(() => checkUuid('#wf', 'Workflow UUID', 'its uuid')).toThrow('Workflow UUID must be a UUID (its uuid), got "#wf"');
	});
});

describe('runBatching', () => {
	const prepared = (itemIndex: number, devices: string[], users: string[] = [], params: Record<string, string> = {}): PreparedWorkflowRun => ({
		itemIndex,
		workflowId: '#wf',
		version: 'v2',
		params,
		targets: parseWorkflowTargets('v2', devices, 'collectorUid', users, 'sid').targets,
		duplicatesInItem: [],
	});

	it('groups by parameters (order-independent), splits devices and users at the limit separately, sends each target once', () => {
		const plan = planWorkflowRequests(
			[prepared(0, [uid(1), uid(2)], [SID], { a: '1', b: '2' }), prepared(1, [uid(3)], [], { b: '2', a: '1' }), prepared(2, [uid(4)]), prepared(3, [uid(1)], [SID], { a: '1', b: '2' })],
			2,
		);
		expect(plan.requests.map((request) => [request.body.devices, request.body.users, request.itemIndexes])).toEqual([
			[[{ collectorUid: uid(1) }, { collectorUid: uid(2) }], [{ sid: SID }], [0, 3]],
			[[{ collectorUid: uid(3) }], [], [1]],
			[[{ collectorUid: uid(4) }], [], [2]],
		]);
		expect(plan.requests[2].body.params).toBeUndefined();
	});

	it('while waiting, caps the targets of a request (devices and users together) besides each list', () => {
		const runs = [prepared(0, [uid(1), uid(2)], [SID]), prepared(1, [uid(3), uid(4)]), prepared(2, [uid(1)], ['S-1-5-21-1-2-3-1002', 'S-1-5-21-1-2-3-1003'])];
		const capped = planWorkflowRequests(runs, 10, 3);
		expect(capped.requests.map((request) => [request.body.devices.length, request.body.users.length, request.itemIndexes])).toEqual([
			[2, 1, [0, 2]],
			[2, 0, [1]],
			// item 2's device went with item 0; its two new users would make 4 targets with item 1's
			[0, 2, [2]],
		]);
		// without the cap the three items share one request
		expect(planWorkflowRequests(runs, 10).requests.map((request) => request.itemIndexes)).toEqual([[0, 1, 2]]);
	});

	it('pairs execution IDs by position (devices, then users) and does not guess when the count differs', () => {
		const runs = [prepared(0, [uid(1)], [SID]), prepared(1, [uid(2)])];
		const plan = planWorkflowRequests(runs);
		const paired = workflowRunOutcome(runs[0], plan, [{ ok: true, requestUuid: 'r', executionsUuids: ['x1', 'x2', 'x3'] }]);
		expect(paired.targets).toEqual([
			{ type: 'device', collectorUid: uid(1), requestId: 'r', executionId: 'x1' },
			{ type: 'user', sid: SID, requestId: 'r', executionId: 'x3' },
		]);
		expect(workflowRunOutcome(runs[1], plan, [{ ok: true, requestUuid: 'r', executionsUuids: ['x1', 'x2', 'x3'] }]).executionIds).toEqual(['x2']);
		const unpaired = workflowRunOutcome(runs[0], plan, [{ ok: true, requestUuid: 'r', executionsUuids: ['x1'] }]);
		expect(unpaired).toMatchObject({ status: 'triggered', requestId: 'r', executionIds: [], executionIdsPaired: false });
		const failed = workflowRunOutcome(runs[0], plan, [{ ok: false, message: 'no', httpCode: '403' }]);
		expect(failed).toMatchObject({ status: 'failed', requestIds: [], error: { message: 'no', httpCode: '403' } });
		expect(failed.requestId).toBeUndefined();
	});
});

describe('waitTargets', () => {
	it('follows the targets with an execution ID; counts the sent ones without one; leaves out the ones not sent', () => {
		expect(
			reachedTargets(
				[
					{ type: 'device', collectorUid: uid(1), requestId: 'r1', executionId: 'x1' },
					{ type: 'user', sid: SID, requestId: 'r1' },
					{ type: 'device', collectorUid: uid(2), error: 'refused' },
					{ type: 'device', collectorUid: uid(3), requestId: 'r2', executionId: 'x2', sentWithItem: 0 },
				],
				'executionId',
			),
		).toEqual({ followed: [{ id: 'x1', requestId: 'r1' }, { id: 'x2', requestId: 'r2' }], unfollowed: 1 });
	});

	it('results with targets not followed: not complete, counted, and a sentence saying how to read them', () => {
		const results = { complete: true, finished: 1, pending: 0, timedOut: false, statusQueryId: '#q', polls: 1, waitedSeconds: 0, targets: [{ executionId: 'x1' }] };
		expect(withUnfollowed(results, 0, '#q')).toBe(results);
		const marked = withUnfollowed(results, 2, '#q');
		expect(marked).toMatchObject({ complete: false, finished: 1, pending: 0, unfollowed: 2, targets: [{ executionId: 'x1' }] });
		expect(marked.message).toBe(
			"2 targets ran but could not be followed: Nexthink's answer did not give one execution ID per target (executionIdsPaired false), so the status rows cannot be paired with them. Read them with #q and the request ID.",
		);
		// targets stay the last key, after the summary
		expect(Object.keys(marked).pop()).toBe('targets');
		expect(withUnfollowed({ ...results, complete: false, message: 'At Maximum Wait.' }, 1, '#q').message).toMatch(/^At Maximum Wait\. 1 target ran but could not be followed: .* with it\. Read it with #q/);
	});
});
