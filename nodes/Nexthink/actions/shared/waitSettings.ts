/**
 * Wait for Results' fields (Run Remote Action, Trigger Campaign, Run Workflow; the wait options are
 * Export's, `waitField`) and their checks before any request; waitForResults.ts reads them from the node.
 */
import type { INodeProperties } from 'n8n-workflow';

import { EXECUTE_ROW_LIMIT } from '../../nql/executeAnswer';
import { normaliseQueryId } from '../../nql/queryInput';
import { readWaitOptions, waitField, type WaitSettings } from '../../nql/waitSchedule';
import { InputError } from '../../shared/inputError';

/** Targets per run request while waiting: the status rows of one request must fit in one execute answer. */
export const RESULTS_MAX_TARGETS_PER_REQUEST = EXECUTE_ROW_LIMIT;

export const DEFAULT_REQUEST_ID_PARAMETER = 'request_id';

export interface ResultsWaitSettings extends WaitSettings {
	queryId: string;
	/** The query's parameter name, without `$`. */
	requestIdParameter: string;
}

/** The checks of Wait for Results of one item, on the parameter values; throws `InputError` naming the field. */
export function checkResultsWait(rawQueryId: unknown, options: Record<string, unknown>): ResultsWaitSettings {
	const queryId = attempt(() => normaliseQueryId(rawQueryId));
	if (!queryId.ok) throw new InputError(`Status Query ID: ${queryId.problem} Wait for Results runs this stored query with the request ID.`, 'Status Query ID');
	const rawParameter = options.requestIdParameter === undefined || options.requestIdParameter === '' ? DEFAULT_REQUEST_ID_PARAMETER : options.requestIdParameter;
	const requestIdParameter = typeof rawParameter === 'string' ? rawParameter.trim().replace(/^\$/, '') : '';
	if (!/^[A-Za-z0-9_]{1,100}$/.test(requestIdParameter)) {
		throw new InputError(
			`Request ID Parameter must be the name of the query's parameter (letters, digits and underscores, e.g. request_id for $request_id), got ${JSON.stringify(rawParameter)}`,
			'Request ID Parameter',
		);
	}
	const settings = attempt(() => readWaitOptions(options));
	if (!settings.ok) throw new InputError(`Options: ${settings.problem}`, 'Options');
	return { ...settings.value, queryId: queryId.value, requestIdParameter };
}

/** A check's value, or its complaint (the checks throw plain errors whose message is for the user). */
function attempt<T>(check: () => T): { ok: true; value: T } | { ok: false; problem: string } {
	try {
		return { ok: true, value: check() };
	} catch (error) {
		return { ok: false, problem: error instanceof Error ? error.message : String(error) };
	}
}

/** The message for an item that waits otherwise than the first waiting item (one wait per run), or undefined. */
export function differentWait(first: { itemIndex: number; settings: ResultsWaitSettings }, settings: ResultsWaitSettings): string | undefined {
	const keys = ['queryId', 'requestIdParameter', 'firstDelayMs', 'factor', 'maxIntervalMs', 'maxWaitMs'] as const;
	if (keys.every((key) => first.settings[key] === settings[key])) return undefined;
	return `Wait for Results must be the same for every item of a run (one wait covers them all): item ${first.itemIndex} waits with ${first.settings.queryId} and its wait options, this item differently. Use the same Status Query ID and wait options, or split the items over two nodes`;
}

/** Most request IDs one wait follows (a poll makes one NQL API call each). Why: docs/decisions.md, row "100 campaign users per run while waiting". */
export const MAX_WAIT_REQUEST_IDS = 100;

/** The NQL of the status query per table, as the README gives it (test/unit/actions/waitDescription.test.ts holds them together). */
export const STATUS_QUERY_NQL = {
	'remote_action.executions':
		'remote_action.executions during past 7d | where request_id == $request_id | list request_id, device.name, device.collector.uid, status, status_details, outputs, time',
	'workflow.executions':
		'workflow.executions during past 7d | where request_id == $request_id | list request_id, execution_id, device.name, device.collector.uid, user.sid, user.upn, status, status_details, outcome, outcome_details, time',
	'campaign.responses': 'campaign.responses during past 7d | where request_id == $request_id | list request_id, user.name, user.sid, user.upn, state, time',
} as const;

/** Wait for Results' fields, inside the run's `updateDisplayOptions`: `table` is the one the status query reads. */
export function waitForResultsProperties(table: keyof typeof STATUS_QUERY_NQL, placeholder: string): INodeProperties[] {
	const whenWaiting = { show: { waitForResults: [true] } };
	return [
		{
			displayName: 'Wait for Results',
			name: 'waitForResults',
			type: 'boolean',
			default: false,
			description: `Whether to wait until every target has a final status (read with a stored NQL API query over ${table}) and output each target's result. Off: the node returns as soon as Nexthink accepted the request.`,
		},
		{
			displayName: `The node reads each target's status with a stored NQL query. Create it once in Nexthink (Administration > NQL API queries) with this NQL and enter its ID in Status Query ID: ${STATUS_QUERY_NQL[table]}`,
			name: 'statusQueryNotice',
			type: 'notice',
			default: '',
			displayOptions: whenWaiting,
		},
		{
			displayName: 'Status Query ID',
			name: 'statusQueryId',
			type: 'string',
			default: '',
			required: true,
			placeholder,
			displayOptions: whenWaiting,
			description: `The ID of the stored NQL API query over ${table} given in the notice above: it takes the request ID as $request_id and lists request_id and each target's status`,
		},
	];
}

/** The wait's settings, in the run's Options (shown while Wait for Results is on). */
const WAIT_OPTIONS: INodeProperties[] = [
	waitField('firstPollSeconds', 'How long to wait before the first status query'),
	waitField('maxPollIntervalSeconds', 'The wait between two polls never grows beyond this. Two polls are always at least 1 second apart, whatever the settings.'),
	waitField(
		'maxWaitSeconds',
		'How long to wait for final statuses (1800 = 30 minutes). A hard bound. Targets still without a final status then come out marked as pending (results.complete false); nothing is sent again.',
	),
	waitField(
		'pollGrowthFactor',
		'Each wait between polls is this many times the previous one. With the defaults the polls come 2, 6, 14, 30 and 60 seconds after the run, then every 30 seconds. Each poll runs the status query once per request ID still waiting.',
	),
	{
		displayName: 'Request ID Parameter',
		name: 'requestIdParameter',
		type: 'string',
		default: DEFAULT_REQUEST_ID_PARAMETER,
		description: 'The name of the status query\'s parameter that receives the request ID (request_id for $request_id)',
	},
];

export const waitOptions = (): INodeProperties[] => WAIT_OPTIONS.map((option) => ({ ...option, displayOptions: { show: { '/waitForResults': [true] } } }));
