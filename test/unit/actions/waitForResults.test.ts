/**
 * Pure parts of Wait for Results (actions/shared/resultStatus.ts, waitSettings.ts) and of the
 * script-input check against a remote action's details (remoteAction/runInput.ts).
 */
import type { ScriptInput } from '../../../nodes/Nexthink/actions/remoteAction/answers';
import { checkParamsAgainstInputs, RunInputError } from '../../../nodes/Nexthink/actions/remoteAction/runInput';
import {
	isFinalStatus,
	itemResults,
	pendingRequestIds,
	rowsByTarget,
	StatusRowsError,
	targetResult,
	type StatusRow,
} from '../../../nodes/Nexthink/actions/shared/resultStatus';
import { checkResultsWait, differentWait, RESULTS_MAX_TARGETS_PER_REQUEST } from '../../../nodes/Nexthink/actions/shared/waitSettings';

const C1 = 'e0000000-0000-4000-8000-000000000001';
const C2 = 'e0000000-0000-4000-8000-000000000002';

describe('final statuses', () => {
	it('the documented ones and anything unexpected are final; the waiting ones, empty and missing are not', () => {
		for (const status of ['success', 'failure', 'answered', 'expired', 'declined', 'cancelled', 'Something_New']) expect(isFinalStatus(status)).toBe(true);
		for (const status of ['pending', 'in_progress', 'In Progress', 'in-progress', 'WAITING', 'queued', 'postponed', '', '  ', null, undefined, 3]) {
			expect(isFinalStatus(status)).toBe(false);
		}
	});
});

describe('rows by target', () => {
	const row = (target: string, status: string): StatusRow => ({ request_id: 'r1', 'device.collector.uid': target, status });

	it('keys rows by the target column without case; a final row is not replaced by a later waiting one', () => {
		const rows = rowsByTarget('remote_action', '#q', [row(C1.toUpperCase(), 'success'), row(C1, 'pending'), row(C2, 'pending'), row(C2, 'failure')]);
		expect(rows.get(C1)?.status).toBe('success');
		expect(rows.get(C2)?.status).toBe('failure');
	});

	it('uses the table\'s own columns: user.sid and state for campaigns, execution_id for workflows', () => {
		expect(rowsByTarget('campaign', '#q', [{ 'user.sid': 'S-1-5-21-1', state: 'answered' }]).get('s-1-5-21-1')?.state).toBe('answered');
		expect(rowsByTarget('workflow', '#q', [{ execution_id: 'ABC', status: 'success' }]).has('abc')).toBe(true);
	});

	it('names the missing columns and the table to create the query over', () => {
		expect(() => rowsByTarget('campaign', '#camp', [{ request_id: 'r', 'user.sid': 'S-1-0', status: 'answered' }])).toThrow(
			new StatusRowsError(
				'The status query #camp does not list "state"; its rows have request_id, user.sid, status. Create it over campaign.responses with the NQL the README gives (section "Wait for Results").',
			),
		);
		// no rows yet is not an error: the targets are simply not read yet
		expect(rowsByTarget('campaign', '#camp', []).size).toBe(0);
	});
});

describe('target results and what is still pending', () => {
	const byRequest = new Map([['r1', rowsByTarget('remote_action', '#q', [{ 'device.collector.uid': C1, status: 'success', time: 't' }])]]);

	it('a target with a row has its status; one without a row is not final and has status null', () => {
		expect(targetResult('remote_action', { requestId: 'r1', target: C1 }, byRequest.get('r1'))).toEqual({
			requestId: 'r1',
			status: 'success',
			final: true,
			row: { 'device.collector.uid': C1, status: 'success', time: 't' },
		});
		expect(targetResult('remote_action', { requestId: 'r1', target: C2 }, byRequest.get('r1'))).toEqual({ requestId: 'r1', status: null, final: false });
	});

	it('lists each request ID with a target not final once, in first-seen order', () => {
		const targets = [
			{ requestId: 'r2', target: C1 },
			{ requestId: 'r1', target: C1 },
			{ requestId: 'r1', target: C2 },
			{ requestId: 'r2', target: C2 },
		];
		expect(pendingRequestIds('remote_action', targets, byRequest)).toEqual(['r2', 'r1']);
		expect(pendingRequestIds('remote_action', targets.slice(1, 2), byRequest)).toEqual([]);
	});

	it('an item\'s results: summary, a sentence on what is pending at Maximum Wait, the targets in the item\'s order', () => {
		const resultOf = (target: { requestId: string; target: string }) => targetResult('remote_action', target, byRequest.get(target.requestId));
		const results = itemResults(
			'collectorUid',
			[
				{ id: C2, requestId: 'r1' },
				{ id: C1, requestId: 'r1' },
			],
			resultOf,
			{ queryId: '#q', maxWaitMs: 90_000, timedOut: true, polls: 4, waitedMs: 90_012 },
		);
		expect(results).toEqual({
			complete: false,
			finished: 1,
			pending: 1,
			timedOut: true,
			statusQueryId: '#q',
			polls: 4,
			waitedSeconds: 90,
			message: '1 of 2 targets had no final status when Maximum Wait (90 s) ran out. They may still finish: nothing was sent again; read them later with #q and the request ID.',
			targets: [
				{ collectorUid: C2, requestId: 'r1', status: null, final: false },
				{ collectorUid: C1, requestId: 'r1', status: 'success', final: true, row: expect.any(Object) },
			],
		});
		const failed = itemResults('collectorUid', [{ id: C2, requestId: 'r1' }], resultOf, {
			queryId: '#q',
			maxWaitMs: 1000,
			timedOut: false,
			polls: 1,
			waitedMs: 10,
			error: { message: 'Waiting for results stopped: x' },
		});
		expect(failed).toMatchObject({ complete: false, timedOut: false, error: { message: 'Waiting for results stopped: x' } });
		expect(failed).not.toHaveProperty('message');
	});
});

describe('Wait for Results settings', () => {
	it('defaults to the Export wait (2 s, ×2, 30 s, 1,800 s) and $request_id; adds the # and drops a $', () => {
		expect(checkResultsWait('n8n_remote_action_status', {})).toEqual({
			queryId: '#n8n_remote_action_status',
			requestIdParameter: 'request_id',
			firstDelayMs: 2000,
			factor: 2,
			maxIntervalMs: 30_000,
			maxWaitMs: 1_800_000,
		});
		expect(checkResultsWait('#q_1', { requestIdParameter: '$rid', firstPollSeconds: 0, maxWaitSeconds: '60' })).toMatchObject({
			requestIdParameter: 'rid',
			firstDelayMs: 0,
			maxWaitMs: 60_000,
		});
	});

	it.each([
		['#Bad Query', {}, 'Status Query ID', 'Status Query ID: The query ID "#Bad Query" has characters'],
		[undefined, {}, 'Status Query ID', 'Status Query ID: The query ID is empty'],
		['#sq', { requestIdParameter: 'request id' }, 'Request ID Parameter', 'Request ID Parameter must be the name'],
		['#sq', { maxWaitSeconds: -5 }, 'Wait Options', 'Wait Options: Maximum Wait must be a number of seconds of 0 or more, got -5'],
		['#sq', { pollGrowthFactor: 0.5 }, 'Wait Options', 'Wait Options: Poll Interval Growth must be a number of 1 or more, got 0.5'],
		['#sq', { maxPollIntervalSeconds: 'soon' }, 'Wait Options', 'Longest Poll Interval must be a number of seconds above 0'],
	])('refuses %p %p naming %s', (queryId, options, field, message) => {
		let caught: unknown;
		try {
			checkResultsWait(queryId, options);
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(RunInputError);
		expect((caught as RunInputError).field).toBe(field);
		expect((caught as RunInputError).message).toContain(message);
	});

	it('every item of a run waits the same way', () => {
		const first = { itemIndex: 0, settings: checkResultsWait('#sq', {}) };
		expect(differentWait(first, checkResultsWait('#sq', {}))).toBeUndefined();
		expect(differentWait(first, checkResultsWait('#other', {}))).toContain('item 0 waits with #sq');
		expect(differentWait(first, checkResultsWait('#sq', { maxWaitSeconds: 10 }))).toContain('must be the same for every item');
	});

	it('keeps a waiting request within one execute answer', () => {
		expect(RESULTS_MAX_TARGETS_PER_REQUEST).toBe(1000);
	});
});

describe('script inputs against the remote action\'s details', () => {
	const INPUTS: ScriptInput[] = [
		{ id: 'ServiceName', name: 'Service name', description: '', options: ['Spooler', 'BITS'], allowCustomValue: true },
		{ id: 'StartType', name: 'Start type', description: '', options: ['Automatic', 'Manual'], allowCustomValue: false },
		{ id: 'Note', name: 'Note', description: '', options: [], allowCustomValue: true },
	];
	const check = (params: Record<string, string>) => () => checkParamsAgainstInputs('#restart_service', params, INPUTS);

	it('accepts allowed values, free text where allowed, and an empty free-text value', () => {
		expect(check({ ServiceName: 'MyAgent', StartType: 'Manual', Note: '' })).not.toThrow();
	});

	it('names an unknown input (or several) with the inputs there are', () => {
		expect(check({ ServiceName: 'BITS', StartType: 'Manual', Note: '', Mode: 'x' })).toThrow(
			'Script input "Mode" is not an input of #restart_service; its inputs are ServiceName, StartType, Note.',
		);
		expect(check({ ServiceName: 'BITS', StartType: 'Manual', Note: '', a: '1', b: '2' })).toThrow('Script inputs "a", "b" are not inputs of #restart_service');
		expect(() => checkParamsAgainstInputs('#get_battery_health', { x: '1' }, [])).toThrow('is not an input of #get_battery_health; it has no script inputs');
	});

	it('names a missing input and a value outside a fixed list (exact match), with the field Script Inputs', () => {
		expect(check({ ServiceName: 'BITS', Note: '' })).toThrow('Script input "StartType" (Start type) of #restart_service has no value');
		expect(check({ ServiceName: 'BITS', StartType: 'manual', Note: '' })).toThrow(
			'Script input "StartType" (Start type) of #restart_service must be one of "Automatic", "Manual" (the remote action allows no other value), got "manual"',
		);
		try {
			check({ ServiceName: 'BITS', Note: '' })();
		} catch (error) {
			expect((error as RunInputError).field).toBe('Script Inputs');
		}
		expect.assertions(3);
	});
});

describe('Wait Options in the editor', () => {
	it('show the defaults the node applies when an option is not set', () => {
		const { waitForResultsProperties } = require('../../../nodes/Nexthink/actions/shared/waitDescription');
		const { DEFAULT_WAIT_SETTINGS } = require('../../../nodes/Nexthink/export/shared/waitSchedule');
		const waitOptions = waitForResultsProperties({ resource: ['remoteAction'] }, 't', '#q').find((property: any) => property.name === 'waitOptions');
		const defaults = Object.fromEntries(waitOptions.options.map((option: any) => [option.name, option.default]));
		expect(defaults).toEqual({
			firstPollSeconds: DEFAULT_WAIT_SETTINGS.firstDelayMs / 1000,
			maxPollIntervalSeconds: DEFAULT_WAIT_SETTINGS.maxIntervalMs / 1000,
			maxWaitSeconds: DEFAULT_WAIT_SETTINGS.maxWaitMs / 1000,
			pollGrowthFactor: DEFAULT_WAIT_SETTINGS.factor,
			requestIdParameter: 'request_id',
		});
	});
});
