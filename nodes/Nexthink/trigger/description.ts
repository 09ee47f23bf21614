/**
 * The Nexthink Trigger's parameters. The query fields are the Export node's (nql/queryFields.ts),
 * so a query is written the same way in both nodes; n8n adds *Poll Times* itself to every node with
 * `polling: true`.
 */
import type { INodeProperties } from 'n8n-workflow';

import { logTagOption, queryFields } from '../nql/queryFields';
import { CHANGE_KINDS } from './changeDetection';
import { OPTIONS_COLLECTION, requestTimeoutOption } from '../shared/optionFields';

const DEFAULT_MAX_WAIT_SECONDS = 1800;
export const DEFAULT_EXPORT_TIMEOUT_SECONDS = 300;
export const DEFAULT_EXECUTE_TIMEOUT_SECONDS = 60;

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Each poll runs the query and compares its rows with the previous poll\'s, by the key column(s). The first poll after activation records what is there and starts nothing (unless "Trigger on All Rows at First Poll" is on). "Fetch Test Event" shows a few current rows and changes nothing.',
		name: 'triggerNotice',
		type: 'notice',
		default: '',
	},
	...queryFields,
	{
		displayName: 'Run Query Through',
		name: 'queryMethod',
		type: 'options',
		default: 'export',
		options: [
			{
				name: 'Export',
				value: 'export',
				description: 'Any number of rows: start an export, wait for it, read the file (takes from seconds to minutes)',
			},
			{
				name: 'Execute Query',
				value: 'execute',
				description: 'Fast, for results of fewer than 1,000 rows: a poll that reaches 1,000 rows fails rather than report rows as removed',
			},
		],
		description: 'How each poll runs the query',
	},
	{
		displayName: 'Key Columns',
		name: 'keyColumns',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'device.uid',
		description:
			'The column(s) that identify a row, separated by commas (e.g. device.uid, or device.name). A short name also finds the fully-qualified column that ends with it (uid finds device.uid). Rows with the same key in one result are reported as duplicates, never merged.',
	},
	{
		// labels in n8n's trigger wording ("Trigger On", "Row Added"); the values are the saved ones
		displayName: 'Trigger On',
		name: 'emit',
		type: 'multiOptions',
		default: [...CHANGE_KINDS],
		options: [
			{ name: 'Duplicate Key', value: 'duplicate', description: 'A key is on several rows of the result (reported when it happens and when those rows change)' },
			{ name: 'Row Added', value: 'new', description: 'A key that was not there at the previous poll' },
			{ name: 'Row Changed', value: 'changed', description: 'A compared column changed; with Compare Columns named, the item carries their previous values' },
			{ name: 'Row Removed', value: 'removed', description: 'A key that is no longer there (the item holds its key columns)' },
		],
		description: 'Which changes start the workflow, one item each. Each item says which it is in nexthinkTrigger.change (new, changed, removed or duplicate).',
	},
	{
		...OPTIONS_COLLECTION,
		options: [
			{
				displayName: 'Compare Columns',
				name: 'compareColumns',
				type: 'string',
				default: '',
				placeholder: 'device.operating_system.name, device.operating_system.build',
				description:
					'The columns whose change makes a row "changed", separated by commas; empty: every column. Named columns keep their previous values between polls, so changed items show what they were.',
			},
			logTagOption,
			{
				displayName: 'Maximum Removed per Poll',
				name: 'maxRemoved',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description:
					'Fail the poll, reporting nothing and keeping the state, when more rows than this vanish at once (0 = no limit). Recommended when the workflow acts on removed rows.',
			},
			{
				displayName: 'Maximum Removed per Poll (%)',
				name: 'maxRemovedPercent',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 },
				default: 0,
				description:
					"Fail the poll, reporting nothing and keeping the state, when more than this share of the previous poll's rows vanish at once (0 = no limit; one row is always allowed)",
			},
			{
				displayName: 'Maximum Wait (Seconds)',
				name: 'maxWaitSeconds',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_MAX_WAIT_SECONDS,
				description: 'Export only: how long a poll waits for its export to complete before it fails (1800 = 30 minutes). Keep it below the time between polls.',
				displayOptions: { show: { '/queryMethod': ['export'] } },
			},
			requestTimeoutOption(DEFAULT_EXPORT_TIMEOUT_SECONDS, 'Longest time one HTTP request (including the download) may take, at most 86400 (one day). Default: 300 for Export, 60 for Execute Query.'),
			{
				displayName: 'Trigger on All Rows at First Poll',
				name: 'emitAllOnFirstPoll',
				type: 'boolean',
				default: false,
				description: 'Whether the first poll (after activation, or after the query or key changed) outputs every row as added instead of only recording them',
			},
		],
	},
];
