/**
 * Pure parts of Wait for Results (actions/shared/resultStatus.ts, waitForResults.ts) and of the
 * script-input check against a remote action's details (remoteAction/runInput.ts).
 */
import type { ScriptInput } from '../../../nodes/Nexthink/actions/remoteAction/answers';
import { checkParamsAgainstInputs } from '../../../nodes/Nexthink/actions/remoteAction/runInput';
import {
	classifyStatus,
	FINAL_STATUSES,
	itemResults,
	pendingRequestIds,
	rowsByTarget,
	StatusRowsError,
	targetResult,
	WAITING_STATUSES,
	type ResultKind,
	type StatusRow,
} from '../../../nodes/Nexthink/actions/shared/resultStatus';
import { checkResultsWait, differentWait, RESULTS_MAX_TARGETS_PER_REQUEST } from '../../../nodes/Nexthink/actions/shared/waitForResults';
import { InputError } from '../../../nodes/Nexthink/shared/inputError';

const C1 = 'e0000000-0000-4000-8000-000000000001';
const C2 = 'e0000000-0000-4000-8000-000000000002';
const R1 = 'a0000000-0000-4000-8000-0000000000a1';
const R0 = 'a0000000-0000-4000-8000-0000000000a0';

describe('final statuses', () => {
	it('the known final ones are final, however spelled', () => {
		for (const status of [...FINAL_STATUSES, 'Success', 'FAILED', 'Partially Answered', 'fully-answered', 'FullyAnswered', ' canceled ']) {
			expect([status, classifyStatus(status)]).toEqual([status, 'final']);
		}
	});

	it('the known waiting ones, empty and missing keep a target waiting, however spelled', () => {
		for (const status of [...WAITING_STATUSES, 'In Progress', 'in-progress', 'INPROGRESS', 'Not Answered', '', '  ', null, undefined]) {
			expect([status, classifyStatus(status)]).toEqual([status, 'waiting']);
		}
	});

	it('a status in neither list is unknown (not final), whatever it looks like', () => {
		for (const status of ['targeted', 'waiting_for_device', 'Something_New', 'succeeded', 'answered_partially', 3, true, {}]) {
			expect([status, classifyStatus(status)]).toEqual([status, 'unknown']);
		}
	});
});

/** A status row as the status query answers it, with short or fully-qualified column names. */
type Spelling = 'short' | 'qualified';
const OWN: Record<ResultKind, string> = { remote_action: 'remote_action.execution', workflow: 'workflow.execution', campaign: 'campaign.response' };
function spelled(kind: ResultKind, spelling: Spelling, row: StatusRow): StatusRow {
	if (spelling === 'short') return row;
	return Object.fromEntries(Object.entries(row).map(([name, value]) => [name.includes('.') ? name : `${OWN[kind]}.${name}`, value]));
}

describe.each<Spelling>(['short', 'qualified'])('rows by target, %s column names', (spelling) => {
	const ra = (requestId: string, target: string, status: string, details = ''): StatusRow =>
		spelled('remote_action', spelling, { request_id: requestId, 'device.collector.uid': target, status, status_details: details });

	it('keys rows by the target column without case; a final row is not replaced by a later waiting one', () => {
		const rows = rowsByTarget('remote_action', '#q', R1, [ra(R1, C1.toUpperCase(), 'success'), ra(R1, C1, 'pending'), ra(R1, C2, 'pending'), ra(R1, C2, 'failure')]);
		expect(rows.get(C1)?.status).toBe('success');
		expect(rows.get(C2)?.status).toBe('failure');
	});

	it('keeps the rows of the request ID asked for only (compared without case): another request\'s success never counts', () => {
		const rows = rowsByTarget('remote_action', '#q', R1, [ra(R0, C1, 'success'), ra(R1.toUpperCase(), C1, 'in_progress'), ra(R0, C2, 'success')]);
		expect([...rows.keys()]).toEqual([C1]);
		expect(rows.get(C1)?.status).toBe('in_progress');
		const target = targetResult({ requestId: R1, target: C1 }, rows);
		expect(target).toMatchObject({ requestId: R1, status: 'in_progress', final: false });
		expect(targetResult({ requestId: R1, target: C2 }, rows)).toEqual({ requestId: R1, status: null, final: false });
	});

	it('uses the table\'s own columns: user.sid and state for campaigns, execution_id for workflows', () => {
		const campaign = rowsByTarget('campaign', '#q', R1, [spelled('campaign', spelling, { request_id: R1, 'user.sid': 'S-1-5-21-1', state: 'answered', state_details: 'all 3 questions' })]);
		expect(targetResult({ requestId: R1, target: 'S-1-5-21-1' }, campaign)).toMatchObject({ status: 'answered', statusDetails: 'all 3 questions', final: true });
		const workflow = rowsByTarget('workflow', '#q', R1, [spelled('workflow', spelling, { request_id: R1, execution_id: 'ABC', status: 'success' })]);
		expect(workflow.has('abc')).toBe(true);
	});

	it('names the missing columns and lists the ones that arrived', () => {
		const row = spelled('campaign', spelling, { 'user.sid': 'S-1-0', status: 'answered' });
		const arrived = Object.keys(row).map((name) => `"${name}"`).join(', ');
		expect(() => rowsByTarget('campaign', '#camp', R1, [row])).toThrow(
			new StatusRowsError(
				`The status query #camp does not list "request_id" and "state" (short or fully-qualified). The columns that arrived: ${arrived}. Create it over campaign.responses with the NQL the README gives (section "Wait for Results").`,
			),
		);
		// no rows yet is not an error: the targets are simply not read yet
		expect(rowsByTarget('campaign', '#camp', R1, []).size).toBe(0);
	});
});

describe('column names beyond the two spellings', () => {
	it('accepts collector.uid and sid endings for the targets', () => {
		const ra = rowsByTarget('remote_action', '#q', R1, [{ request_id: R1, 'remote_action.execution.device.collector.uid': C1, status: 'success' }]);
		expect(ra.get(C1)?.status).toBe('success');
		const campaign = rowsByTarget('campaign', '#q', R1, [{ 'campaign.response.request_id': R1, 'campaign.response.user.sid': 'S-1-0', 'campaign.response.state': 'declined' }]);
		expect(campaign.get('s-1-0')?.status).toBe('declined');
	});

	it('prefers the table\'s own qualified field, and refuses to guess between two other columns', () => {
		const rows = rowsByTarget('workflow', '#wf', R1, [{ 'workflow.execution.request_id': R1, 'workflow.execution.execution_id': 'E1', 'workflow.status': 'ACTIVE', 'workflow.execution.status': 'success' }]);
		expect(rows.get('e1')?.status).toBe('success');
		expect(() => rowsByTarget('workflow', '#wf', R1, [{ request_id: R1, execution_id: 'E1', 'a.status': 'success', 'b.status': 'failure' }])).toThrow(
			'The status query #wf: Column "status" is ambiguous: "a.status", "b.status" all end with it.',
		);
	});
});

describe('target results and what is still pending', () => {
	const row = { request_id: 'r1', 'device.collector.uid': C1, status: 'success', status_details: 'done', time: 't' };
	const byRequest = new Map([['r1', rowsByTarget('remote_action', '#q', 'r1', [row])]]);

	it('a target with a row has its status and status details; one without a row is not final and has status null', () => {
		expect(targetResult({ requestId: 'r1', target: C1 }, byRequest.get('r1'))).toEqual({ requestId: 'r1', status: 'success', statusDetails: 'done', final: true, row });
		expect(targetResult({ requestId: 'r1', target: C2 }, byRequest.get('r1'))).toEqual({ requestId: 'r1', status: null, final: false });
	});

	it('a status the node does not know keeps the target pending and says so', () => {
		const rows = rowsByTarget('campaign', '#q', 'r2', [{ request_id: 'r2', 'user.sid': 'S-1-0', state: 'targeted' }]);
		expect(targetResult({ requestId: 'r2', target: 'S-1-0' }, rows)).toEqual({ requestId: 'r2', status: 'targeted', final: false, unknownStatus: true, row: expect.any(Object) });
		expect(pendingRequestIds([{ requestId: 'r2', target: 'S-1-0' }], new Map([['r2', rows]]))).toEqual(['r2']);
	});

	it('lists each request ID with a target not final once, in first-seen order', () => {
		const targets = [
			{ requestId: 'r2', target: C1 },
			{ requestId: 'r1', target: C1 },
			{ requestId: 'r1', target: C2 },
			{ requestId: 'r2', target: C2 },
		];
		expect(pendingRequestIds(targets, byRequest)).toEqual(['r2', 'r1']);
		expect(pendingRequestIds(targets.slice(1, 2), byRequest)).toEqual([]);
	});

	it('an item\'s results: summary, a sentence on what is pending at Maximum Wait, the targets in the item\'s order', () => {
		const resultOf = (target: { requestId: string; target: string }) => targetResult(target, byRequest.get(target.requestId));
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
				{ collectorUid: C1, requestId: 'r1', status: 'success', statusDetails: 'done', final: true, row: expect.any(Object) },
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

	it('an item\'s results name the statuses the node does not know, once each', () => {
		const rows = rowsByTarget('campaign', '#c', 'r3', [
			{ request_id: 'r3', 'user.sid': 'S-1-1', state: 'targeted' },
			{ request_id: 'r3', 'user.sid': 'S-1-2', state: 'targeted' },
			{ request_id: 'r3', 'user.sid': 'S-1-3', state: 'answered' },
		]);
		const results = itemResults(
			'userSid',
			['S-1-1', 'S-1-2', 'S-1-3'].map((id) => ({ id, requestId: 'r3' })),
			(target) => targetResult(target, rows),
			{ queryId: '#c', maxWaitMs: 60_000, timedOut: true, polls: 5, waitedMs: 60_000 },
		);
		expect(results).toMatchObject({ complete: false, finished: 1, pending: 2, timedOut: true, unknownStates: ['targeted'] });
		expect(results.message).toBe(
			'2 of 3 targets had no final status when Maximum Wait (60 s) ran out. They may still finish: nothing was sent again; read them later with #c and the request ID. 2 of them have statuses the node does not know as final or waiting ("targeted"), so they were not counted as finished: check in Nexthink what it means.',
		);
		expect((results.targets as Array<Record<string, unknown>>).map((target) => target.unknownStatus)).toEqual([true, true, undefined]);
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
		['#sq', { maxWaitSeconds: -5 }, 'Options', 'Options: Maximum Wait must be a number of seconds of 0 or more, got -5'],
		['#sq', { pollGrowthFactor: 0.5 }, 'Options', 'Options: Poll Interval Growth must be a number of 1 or more, got 0.5'],
		['#sq', { maxPollIntervalSeconds: 'soon' }, 'Options', 'Longest Poll Interval must be a number of seconds above 0'],
	])('refuses %p %p naming %s', (queryId, options, field, message) => {
		let caught: unknown;
		try {
			checkResultsWait(queryId, options);
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(InputError);
		expect((caught as InputError).field).toBe(field);
		expect((caught as InputError).message).toContain(message);
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
			expect((error as InputError).field).toBe('Script Inputs');
		}
		expect.assertions(3);
	});
});

describe('The wait options in the editor', () => {
	it('show the defaults the node applies when an option is not set', () => {
		const { waitOptions } = require('../../../nodes/Nexthink/actions/shared/waitForResults');
		const { DEFAULT_WAIT_SETTINGS } = require('../../../nodes/Nexthink/nql/waitSchedule');
		const defaults = Object.fromEntries(waitOptions().map((option: any) => [option.name, option.default]));
		expect(defaults).toEqual({
			firstPollSeconds: DEFAULT_WAIT_SETTINGS.firstDelayMs / 1000,
			maxPollIntervalSeconds: DEFAULT_WAIT_SETTINGS.maxIntervalMs / 1000,
			maxWaitSeconds: DEFAULT_WAIT_SETTINGS.maxWaitMs / 1000,
			pollGrowthFactor: DEFAULT_WAIT_SETTINGS.factor,
			requestIdParameter: 'request_id',
		});
	});
});
