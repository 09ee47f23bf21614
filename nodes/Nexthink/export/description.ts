/**
 * Parameters of the Nexthink Export node. Operations share the query fields; each option says in
 * its description what it changes, so the node documents itself in the editor.
 */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_TOOL_MAX_OUTPUT_KB, DEFAULT_TOOL_MAX_ROWS, MAX_TOOL_OUTPUT_KB } from '../shared/toolOutput';

const QUERY_OPERATIONS = ['export', 'startExport', 'executeQuery'];

const TOOL_ROWS_DESCRIPTION =
	'When an AI agent runs this node as a tool, give the model at most this many rows (a whole number), so a large result does not flood its context. A note before the rows tells the model what was left out.';
const TOOL_SIZE_DESCRIPTION =
	'When an AI agent runs this node as a tool, give the model at most this much JSON (1 KB = 1,024 bytes; 32 KB is roughly 8,000 to 11,000 tokens). Rows that do not fit are left out and a note tells the model how many.';
const ROW_OPERATIONS = ['export', 'downloadResults', 'executeQuery'];
const FILE_OPERATIONS = ['export', 'downloadResults'];

export const operationProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	default: 'export',
	options: [
		{
			name: 'Download Results',
			value: 'downloadResults',
			action: 'Download the results of an export',
			description: 'Download and parse the results file of a completed export, by export ID or results URL',
		},
		{
			name: 'Execute Query',
			value: 'executeQuery',
			action: 'Execute an NQL query synchronously',
			description: 'Run a stored NQL query and get its rows at once (about 1,000 rows at most; use Export for more)',
		},
		{
			name: 'Export',
			value: 'export',
			action: 'Export the results of an NQL query',
			description: 'Start an export, wait for it, download the file and output one item per row',
		},
		{
			name: 'Get Status',
			value: 'getStatus',
			action: 'Get the status of an export',
			description: 'Check an export once: status, results URL or error (for Wait-node loops)',
		},
		{
			name: 'Start Export',
			value: 'startExport',
			action: 'Start an export of an NQL query',
			description: 'Start an export and output its export ID without waiting',
		},
	],
};

export const queryProperties: INodeProperties[] = [
	{
		displayName: 'Query ID',
		name: 'queryId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '#all_devices',
		description:
			'ID of a stored NQL API query (Nexthink: Administration > NQL API queries). The leading # may be left out. Lower-case letters, digits and underscores.',
		displayOptions: { show: { operation: QUERY_OPERATIONS } },
	},
	{
		displayName: 'Specify Query Parameters',
		name: 'parametersInput',
		type: 'options',
		default: 'pairs',
		options: [
			{ name: 'Using Fields Below', value: 'pairs' },
			{ name: 'Using JSON', value: 'json' },
		],
		description: 'How to give the values of the query\'s $parameters',
		displayOptions: { show: { operation: QUERY_OPERATIONS } },
	},
	{
		displayName: 'Query Parameters',
		name: 'queryParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Parameter',
		description: 'Values for the $parameters of the query. Every value is sent as text; Nexthink infers its type.',
		displayOptions: { show: { operation: QUERY_OPERATIONS, parametersInput: ['pairs'] } },
		options: [
			{
				name: 'parameter',
				displayName: 'Parameter',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'os',
						description: 'Parameter name as written in the query, without the $',
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Query Parameters (JSON)',
		name: 'queryParametersJson',
		type: 'json',
		// required: chosen through Parameters Input = JSON, it is then where the parameters come from
		// (n8n's open-ended-node-fields rule warns on optional top-level JSON fields)
		required: true,
		default: '{}',
		description: 'An object of parameter names (without $) to values, e.g. {"os": "Windows 11"}',
		displayOptions: { show: { operation: QUERY_OPERATIONS, parametersInput: ['json'] } },
	},
	{
		displayName: 'Compression',
		name: 'compression',
		type: 'options',
		default: 'GZIP',
		options: [
			{ name: 'GZIP', value: 'GZIP', description: 'Smaller download; decoded by the node' },
			{ name: 'None', value: 'NONE', description: 'Plain CSV file' },
			{ name: 'ZSTD', value: 'ZSTD', description: 'Smallest download; decoded by the node' },
		],
		description: 'How Nexthink compresses the results file. The node decompresses it for you.',
		displayOptions: { show: { operation: ['export', 'startExport'] } },
	},
];

export const exportIdProperties: INodeProperties[] = [
	{
		displayName: 'Results Source',
		name: 'resultsSource',
		type: 'options',
		default: 'exportId',
		options: [
			{ name: 'Export ID', value: 'exportId', description: 'Fetch a fresh results URL with one status call' },
			{ name: 'Results File URL', value: 'url', description: 'Use a results URL from Get Status (valid 15 minutes)' },
		],
		displayOptions: { show: { operation: ['downloadResults'] } },
	},
	{
		displayName: 'Export ID',
		name: 'exportId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '={{ $json.exportId }}',
		description: 'The export ID returned by Start Export',
		displayOptions: {
			show: { operation: ['getStatus', 'downloadResults'] },
			hide: { resultsSource: ['url'] },
		},
	},
	{
		displayName: 'Results File URL',
		name: 'resultsFileUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: '={{ $json.resultsFileUrl }}',
		description: 'The pre-signed URL from Get Status. It expires 15 minutes after it was issued.',
		displayOptions: { show: { operation: ['downloadResults'], resultsSource: ['url'] } },
	},
];

const waitOptions: INodeProperties[] = [
	{
		displayName: 'First Poll After (Seconds)',
		name: 'firstPollSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 2,
		description: 'How long to wait before the first status check',
	},
	{
		displayName: 'Poll Interval Growth',
		name: 'pollGrowthFactor',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 2 },
		default: 2,
		description: 'Each wait between status checks is this many times the previous one, so short exports return fast and long ones cost few status calls (Nexthink limits status calls per day). With the defaults the checks come 2, 6, 14, 30 and 60 seconds after the start, then every 30 seconds.',
	},
	{
		displayName: 'Longest Poll Interval (Seconds)',
		name: 'maxPollIntervalSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 30,
		description: 'The wait between status checks never grows beyond this. Two status checks are always at least 1 second apart, whatever the settings.',
	},
	// Node version 1 had Maximum Wait in minutes; 1.1 has it in seconds like every other wait setting.
	// Saved version-1 nodes keep the minutes field (n8n stores a node's version with it).
	{
		displayName: 'Maximum Wait (Minutes)',
		name: 'maxWaitMinutes',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 30,
		description: 'How long to wait for the export to complete before giving up. A hard bound: a status check that gets no answer is cut off when it runs out.',
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName: 'Maximum Wait (Seconds)',
		name: 'maxWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 1800,
		description:
			'How long to wait for the export to complete before giving up (1800 = 30 minutes). A hard bound: a status check that gets no answer is cut off when it runs out.',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
	},
	{
		displayName: 'On Timeout',
		name: 'onTimeout',
		type: 'options',
		default: 'fail',
		options: [
			{ name: 'Fail', value: 'fail', description: 'Stop with an error that says how to continue' },
			{
				name: 'Return Last Status',
				value: 'returnStatus',
				description: 'Output the export ID and last status with waitTimedOut: true, e.g. to continue with Get Status in a Wait loop',
			},
		],
	},
];

export const optionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: { show: { operation: ['export', 'startExport', 'getStatus', 'downloadResults'] } },
	options: [
		...waitOptions.map((option) => ({ ...option, displayOptions: { show: { ...option.displayOptions?.show, '/operation': ['export'] } } })),
		{
			displayName: 'Convert Types',
			name: 'convertTypes',
			type: 'boolean',
			default: false,
			description: 'Whether to turn numbers that round-trip exactly into numbers, true/false into booleans and empty values into null. Off: every value stays the text of the file.',
			displayOptions: { show: { '/operation': ROW_OPERATIONS } },
		},
		{
			displayName: 'Custom Log Tag',
			name: 'logTag',
			type: 'string',
			default: '',
			description:
				'Free text (at most 255 characters, no line breaks or tabs, sent as UTF-8) stored with the request in Nexthink\'s platform logs, to find this workflow\'s calls later',
			displayOptions: { show: { '/operation': ['export', 'startExport'] } },
		},
		{
			displayName: 'Include Export Metadata',
			name: 'includeMetadata',
			type: 'options',
			default: 'none',
			options: [
				{ name: 'No', value: 'none' },
				{ name: 'As a Separate Last Item', value: 'separateItem' },
				{ name: 'On Each Row (Under nexthinkExport)', value: 'eachRow' },
			],
			description: 'Whether to output the export ID, query ID, row count and truncation flag',
			displayOptions: { show: { '/operation': FILE_OPERATIONS } },
		},
		{
			displayName: 'Max Compression Ratio',
			name: 'maxCompressionRatio',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 100,
			description:
				'Fail when the results file decompresses to more than this many times its downloaded size, checked once it passes 16 MB (0 = no limit). Real exports compress 4-20 times; far more means a decompression bomb.',
			displayOptions: { show: { '/operation': FILE_OPERATIONS } },
		},
		{
			displayName: 'Max Decompressed Size (MB)',
			name: 'maxDecompressedMB',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 3 },
			default: 2048,
			description: 'Fail when the results file decompresses to more than this many MB (1 MB = 1,048,576 bytes; 0 = no limit)',
			displayOptions: { show: { '/operation': FILE_OPERATIONS } },
		},
		{
			displayName: 'Max Field Size (MB)',
			name: 'maxFieldMB',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 3 },
			default: 16,
			description: 'Fail when one CSV value is longer than this many MB (1 MB = 1,048,576 characters; 0 = no limit). Protects against hostile files.',
			displayOptions: { show: { '/operation': FILE_OPERATIONS } },
		},
		{
			displayName: 'Max Output Size When Used as a Tool (KB)',
			name: 'maxOutputKBAsTool',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_TOOL_OUTPUT_KB },
			default: DEFAULT_TOOL_MAX_OUTPUT_KB,
			description: TOOL_SIZE_DESCRIPTION,
			displayOptions: { show: { '/operation': ROW_OPERATIONS } },
		},
		{
			displayName: 'Max Row Size (MB)',
			name: 'maxRowMB',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 3 },
			default: 64,
			description: 'Fail when one CSV row (or the header) is longer than this many MB (0 = no limit). Protects against hostile files.',
			displayOptions: { show: { '/operation': FILE_OPERATIONS } },
		},
		{
			displayName: 'Max Rows',
			name: 'maxRows',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			description: 'Output at most this many rows per export (0 = all rows); a whole number',
			displayOptions: { show: { '/operation': FILE_OPERATIONS } },
		},
		{
			displayName: 'Max Rows When Used as a Tool',
			name: 'maxRowsAsTool',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: DEFAULT_TOOL_MAX_ROWS,
			description: TOOL_ROWS_DESCRIPTION,
			displayOptions: { show: { '/operation': ROW_OPERATIONS } },
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'rows',
			options: [
				{ name: 'Rows', value: 'rows', description: 'One item per CSV row' },
				{ name: 'File', value: 'file', description: 'One item with the results file as binary data' },
				{ name: 'Rows and File', value: 'rowsAndFile', description: 'One item per row, the file attached to the first' },
			],
			displayOptions: { show: { '/operation': FILE_OPERATIONS } },
		},
		{
			displayName: 'Put File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			description: 'Name of the binary field that holds the results file',
			displayOptions: { show: { '/operation': FILE_OPERATIONS } },
		},
		{
			displayName: 'Request Timeout (Seconds)',
			name: 'requestTimeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description: 'Longest time one HTTP request (including a download) may take, at most 86400 (one day). Starting an export, its retries after a refusal included, takes at most this long.',
		},
		{
			displayName: 'Start Method',
			name: 'startMethod',
			type: 'options',
			default: 'POST',
			options: [
				{ name: 'POST (Recommended)', value: 'POST' },
				{ name: 'GET', value: 'GET', description: 'For proxies that block POST; parameters go into the URL' },
			],
			displayOptions: { show: { '/operation': ['export', 'startExport'] } },
		},
		{
			displayName: 'Truncated Results',
			name: 'onTruncated',
			type: 'options',
			default: 'report',
			options: [
				{
					name: 'Output Rows and Report',
					value: 'report',
					description: 'Output the rows Nexthink kept, mark them truncated and show a notice',
				},
				{ name: 'Fail', value: 'fail', description: 'Treat a truncated export as an error' },
			],
			description: 'What to do when Nexthink cut the results at the licence limit (HTTP 206)',
			displayOptions: { show: { '/operation': FILE_OPERATIONS } },
		},
	],
};

export const executeOptionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'executeOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: { show: { operation: ['executeQuery'] } },
	options: [
		{
			displayName: 'API Version',
			name: 'apiVersion',
			type: 'options',
			default: 'v2',
			options: [
				{ name: 'V2 (Rows as Objects)', value: 'v2' },
				{ name: 'V1 (Headers and Value Lists)', value: 'v1' },
			],
			description: 'Which execute endpoint to call. Both give the same items; v1 is for older proxies.',
		},
		{
			displayName: 'Convert Types',
			name: 'convertTypes',
			type: 'boolean',
			default: false,
			description: 'Whether to convert CSV values (numbers, true/false, empty → null). JSON answers keep the types Nexthink sends.',
			displayOptions: { show: { responseFormat: ['csv'] } },
		},
		{
			displayName: 'Include Query Metadata',
			name: 'includeMetadata',
			type: 'options',
			default: 'none',
			options: [
				{ name: 'No', value: 'none' },
				{ name: 'As a Separate Last Item', value: 'separateItem' },
				{ name: 'On Each Row (Under nexthinkQuery)', value: 'eachRow' },
			],
			description: 'Whether to output the executed query, row count, execution time and whether the result may be incomplete',
		},
		{
			displayName: 'Max Answer Size (MB)',
			name: 'maxAnswerMB',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 3 },
			default: 64,
			description:
				'Fail when the answer is larger than this many MB once decompressed (1 MB = 1,048,576 bytes; 0 = no limit). About 1,000 rows take a few MB; far more means a misbehaving server.',
		},
		{
			displayName: 'Max Field Size (MB)',
			name: 'maxFieldMB',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 3 },
			default: 16,
			description: 'Fail when one CSV value is longer than this many MB (1 MB = 1,048,576 characters; 0 = no limit). Protects against hostile files.',
			displayOptions: { show: { responseFormat: ['csv'] } },
		},
		{
			displayName: 'Max Output Size When Used as a Tool (KB)',
			name: 'maxOutputKBAsTool',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_TOOL_OUTPUT_KB },
			default: DEFAULT_TOOL_MAX_OUTPUT_KB,
			description: TOOL_SIZE_DESCRIPTION,
		},
		{
			displayName: 'Max Row Size (MB)',
			name: 'maxRowMB',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 3 },
			default: 64,
			description: 'Fail when one CSV row (or the header) is longer than this many MB (0 = no limit). Protects against hostile files.',
			displayOptions: { show: { responseFormat: ['csv'] } },
		},
		{
			displayName: 'Max Rows When Used as a Tool',
			name: 'maxRowsAsTool',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: DEFAULT_TOOL_MAX_ROWS,
			description: TOOL_ROWS_DESCRIPTION,
		},
		{
			displayName: 'Request Timeout (Seconds)',
			name: 'requestTimeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 60,
			description: 'Longest time the request may take, at most 86400 (one day)',
		},
		{
			displayName: 'Response Format',
			name: 'responseFormat',
			type: 'options',
			default: 'json',
			options: [
				{ name: 'JSON', value: 'json' },
				{ name: 'CSV', value: 'csv', description: 'Ask for text/csv and parse it; every value is text unless Convert Types is on' },
			],
		},
		{
			displayName: 'UTC Timestamps',
			name: 'utcTimestamps',
			type: 'boolean',
			default: false,
			description: 'Whether Nexthink should give times in UTC instead of the instance\'s regional time zone',
		},
	],
};

/** Shown only in the tool variant (`@tool`, see shared/toolMode.ts): what the model is told and given. */
export const toolNotice: INodeProperties = {
	displayName:
		'The model sees only the tool description (set automatically, it is the node\'s description whatever the operation: set it manually to name the queries the agent may run, or for Start Export, Get Status and Download Results) and the description in each $fromAI() placeholder: describe every value it fills, e.g. {{ $fromAI(\'queryId\', \'ID of a stored Nexthink NQL query: lower-case letters, digits and underscores, e.g. all_devices\', \'string\') }}. What goes back to it is bounded by "Max Rows When Used as a Tool" and "Max Output Size When Used as a Tool (KB)" under Options; a note says what was left out.',
	name: 'toolNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { '@tool': [true] } },
};

export const executeNotice: INodeProperties = {
	displayName:
		'Execute Query returns about 1,000 rows at most and silently drops the rest. For larger results use the Export operation.',
	name: 'executeLimitNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { operation: ['executeQuery'] } },
};
