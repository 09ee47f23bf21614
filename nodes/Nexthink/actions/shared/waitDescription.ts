/** The Wait for Results parameters of Run Remote Action, Trigger Campaign and Run Workflow; the wait options are Export's (`waitField`). */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_REQUEST_ID_PARAMETER } from './waitSettings';
import { waitField } from '../../nql/queryFields';

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
