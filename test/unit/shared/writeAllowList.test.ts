/**
 * The allow-lists of the write tools (nodes/Nexthink/shared/toolMode.ts) and the report of
 * what a write tool sent.
 */
import { InputError } from '../../../nodes/Nexthink/shared/inputError';
import { ALLOWED_REMOTE_ACTIONS, ALLOWED_WORKFLOWS, checkAllowed, readAllowList, toolWriteReport } from '../../../nodes/Nexthink/shared/toolMode';

describe('readAllowList', () => {
	it('reads NQL IDs separated by commas or lines, each once, with their #', () => {
		expect(readAllowList(' clear_teams_cache,#restart_service\n#clear_teams_cache, ', ALLOWED_REMOTE_ACTIONS)).toEqual(['#clear_teams_cache', '#restart_service']);
		expect(readAllowList(['#a_b'], ALLOWED_REMOTE_ACTIONS)).toEqual(['#a_b']);
	});

	it.each([undefined, null, '', ' , #'])('has no list for %p', (raw) => {
		expect(readAllowList(raw, ALLOWED_REMOTE_ACTIONS)).toBeUndefined();
	});

	it.each([
		[{ a: 1 }, /^"Allowed Remote Actions When Used as a Tool" must be NQL IDs separated by commas, got an object/],
		[5, /got number 5/],
		['#a #b', /has "#a #b", which is not an NQL ID/],
	])('refuses %p', (raw, message) => {
		expect(() => readAllowList(raw, ALLOWED_REMOTE_ACTIONS)).toThrow(InputError);
		expect(() => readAllowList(raw, ALLOWED_REMOTE_ACTIONS)).toThrow(message);
	});
});

describe('checkAllowed', () => {
	it('lets through an ID of the list, or any without a list', () => {
		expect(() => checkAllowed('#repair_teams', ['#repair_teams'], ALLOWED_WORKFLOWS)).not.toThrow();
		expect(() => checkAllowed('#anything', undefined, ALLOWED_WORKFLOWS)).not.toThrow();
	});

	it('refuses another, case-sensitively, naming what may run', () => {
		expect(() => checkAllowed('#Repair_Teams', ['#repair_teams', '#x_y'], ALLOWED_WORKFLOWS)).toThrow(
			'The workflow #Repair_Teams is not one this tool may run: nothing was sent. It may run #repair_teams, #x_y ("Allowed Workflows When Used as a Tool", set by the workflow\'s author). Tell the user.',
		);
	});
});

describe('toolWriteReport', () => {
	it('says when nothing was sent', () => {
		expect(toolWriteReport([])).toEqual({ summary: 'Nothing was sent to Nexthink by this tool call.', requestsSent: 0, requests: [] });
	});

	it('lists each request with its object and request IDs, and the ones that failed', () => {
		const report = toolWriteReport([
			{ target: '#clear_teams_cache', requestIds: ['r-1'], items: [0], ok: true },
			{ requestIds: [], items: [1, 2], ok: true },
			{ target: '#restart_service', requestIds: [], items: [3], ok: false, error: 'Forbidden' },
		]);
		expect(report.summary).toBe(
			'2 requests sent to Nexthink (1 failed or not sent) by this tool call: #clear_teams_cache, request ID r-1; items 1, 2; #restart_service, item 3: not done (Forbidden).',
		);
		expect(report.requestsSent).toBe(2);
		expect(report.requests).toHaveLength(3);
	});
});
