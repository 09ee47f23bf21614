/**
 * The Nexthink Export node's operation picker and the fields and options several of its operations
 * show; each `operations/<op>.operation.ts` declares its own panel.
 */
import type { INodeProperties } from 'n8n-workflow';

import { logTagOption, QUERY_ID_DESCRIPTION, queryParameterFields } from '../nql/queryInput';
import { queryCatalogueProperty } from '../shared/queryCatalogue';
import { listOrIdLocator, notice, requestTimeoutOption } from '../shared/optionFields';
import {
	DEFAULT_TOOL_MAX_OUTPUT_KB,
	DEFAULT_TOOL_MAX_ROWS,
	MAX_TOOL_OUTPUT_KB,
	TOOL_FIELDS_LABEL,
	TOOL_OUTPUT_LABEL,
} from '../shared/toolOutput';

// Each operation's fields name it by its root path, `/operation`, so that shared options keep their
// values across an operation switch: docs/decisions.md, "Values kept across operations".
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

/**
 * Query ID: picked from the Query Catalogue ("From List") or typed ("By ID", also where a $fromAI()
 * placeholder goes). A plain string, as workflows written by hand give it, reads the same (settings.ts).
 */
const queryIdLocator = listOrIdLocator(
	{ displayName: 'Query ID', name: 'queryId', mode: 'id', description: QUERY_ID_DESCRIPTION },
	'searchQueryCatalogue',
	{ displayName: 'By ID', placeholder: '#all_devices' },
	'The queries of the Query Catalogue below; the list is empty until it has some. Any other query: By ID.',
);

/** Query ID, the query's parameters and the Query Catalogue, as the operations that run a stored query show them. */
export const exportQueryFields: INodeProperties[] = [queryIdLocator, ...queryParameterFields, queryCatalogueProperty];

/** Shown only in the tool variant (see shared/toolMode.ts): what the model is told and given. */
export const toolNotice = notice(
	'toolNotice',
	'The model sees only the Tool Description (filled in for the operation: add the stored queries the agent may run and what they return) and the description in each $fromAI() placeholder: describe every value it fills, e.g. {{ $fromAI(\'queryId\', \'ID of a stored Nexthink NQL query: lower-case letters, digits and underscores, e.g. all_devices\', \'string\') }}. What goes back to it is bounded by "Max Rows When Used as a Tool" and "Max Output Size When Used as a Tool (KB)" under Options; a note says what was left out.',
	{ show: { '@tool': [true] } },
);

export const compressionField: INodeProperties = {
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
};

export const exportIdField: INodeProperties = {
	displayName: 'Export ID',
	name: 'exportId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '={{ $json.exportId }}',
	description: 'The export ID returned by Start Export',
	// Download Results shows it unless the results come from a URL
	displayOptions: { hide: { resultsSource: ['url'] } },
};

/** The Advanced Options collection, without its options: each operation lists its own. */
export const ADVANCED_OPTIONS_COLLECTION: INodeProperties = {
	displayName: 'Advanced Options',
	name: 'advancedOptions',
	type: 'collection',
	placeholder: 'Add Advanced Option',
	default: {},
	description:
		'Settings that rarely need changing: the safety limits that stop a hostile or broken results file or answer from exhausting n8n\'s memory and, for exports, how often the status is checked and how the export is started. The defaults suit almost every case.',
};

/** A size limit in MB of a results file or an answer (0 = no limit), in Advanced Options. */
export function megabyteLimit(displayName: string, name: string, defaultMB: number, description: string): INodeProperties {
	return { displayName, name, type: 'number', typeOptions: { minValue: 0, numberPrecision: 3 }, default: defaultMB, description };
}

/** Include Export Metadata (Export, Download Results) or Include Query Metadata (Execute Query). */
export function metadataOption(what: 'Export' | 'Query', key: 'nexthinkExport' | 'nexthinkQuery', description: string): INodeProperties {
	const options = [
		{ name: 'No', value: 'none' },
		{ name: 'As a Separate Last Item', value: 'separateItem' },
		{ name: `On Each Row (Under ${key})`, value: 'eachRow' },
	];
	return { displayName: `Include ${what} Metadata`, name: 'includeMetadata', type: 'options', default: 'none', options, description };
}

/** The options several operations show, by name; each operation lists its own. */
export const OPTION = {
	convertTypes: {
		displayName: 'Convert Types',
		name: 'convertTypes',
		type: 'boolean',
		default: false,
		description: 'Whether to turn numbers that round-trip exactly into numbers, true/false into booleans and empty values into null. Off: every value stays the text of the file.',
	},
	fieldsAsTool: {
		displayName: TOOL_FIELDS_LABEL,
		name: 'fieldsAsTool',
		type: 'string',
		default: '',
		placeholder: 'device.name, device.os.name',
		description: 'With Output When Used as a Tool set to Selected Fields: the columns to return, separated by commas',
		displayOptions: { show: { outputAsTool: ['selected'] } },
	},
	logTag: logTagOption,
	includeMetadata: metadataOption('Export', 'nexthinkExport', 'Whether to output the export ID, query ID, row count and truncation flag'),
	maxCompressionRatio: {
		displayName: 'Max Compression Ratio',
		name: 'maxCompressionRatio',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 100,
		description:
			'Fail when the results file decompresses to more than this many times its downloaded size, checked once it passes 16 MB (0 = no limit). Real exports compress 4-20 times; far more means a decompression bomb.',
	},
	maxDecompressedMB: megabyteLimit('Max Decompressed Size (MB)', 'maxDecompressedMB', 2048, 'Fail when the results file decompresses to more than this many MB (1 MB = 1,048,576 bytes; 0 = no limit)'),
	maxFieldMB: megabyteLimit('Max Field Size (MB)', 'maxFieldMB', 16, 'Fail when one CSV value is longer than this many MB (1 MB = 1,048,576 characters; 0 = no limit). Protects against hostile files.'),
	maxOutputKBAsTool: {
		displayName: 'Max Output Size When Used as a Tool (KB)',
		name: 'maxOutputKBAsTool',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_TOOL_OUTPUT_KB },
		default: DEFAULT_TOOL_MAX_OUTPUT_KB,
		description:
			'When an AI agent runs this node as a tool, give the model at most this much JSON (1 KB = 1,024 bytes; 32 KB is roughly 8,000 to 11,000 tokens). Rows that do not fit are left out and a note tells the model how many.',
	},
	maxRowMB: megabyteLimit('Max Row Size (MB)', 'maxRowMB', 64, 'Fail when one CSV row (or the header) is longer than this many MB (0 = no limit). Protects against hostile files.'),
	maxRows: {
		displayName: 'Max Rows',
		name: 'maxRows',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description: 'Output at most this many rows per export (0 = all rows); a whole number',
	},
	maxRowsAsTool: {
		displayName: 'Max Rows When Used as a Tool',
		name: 'maxRowsAsTool',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_TOOL_MAX_ROWS,
		description:
			'When an AI agent runs this node as a tool, give the model at most this many rows (a whole number), so a large result does not flood its context. A note before the rows tells the model what was left out.',
	},
	outputAsTool: {
		displayName: TOOL_OUTPUT_LABEL,
		name: 'outputAsTool',
		type: 'options',
		default: 'simplified',
		options: [
			{ name: 'Simplified', value: 'simplified', description: 'The Query Catalogue\'s Simplified Columns for the query; without them every column but empty values' },
			{ name: 'Raw', value: 'raw', description: 'Every column as Nexthink gives it' },
			{ name: 'Selected Fields', value: 'selected', description: 'Only the columns named in Fields When Used as a Tool' },
		],
		description: 'Which columns of each row an AI agent gets when it runs this node as a tool; narrower rows let more of them fit in Max Output Size When Used as a Tool',
	},
	output: {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'rows',
		options: [
			{
				name: 'Rows',
				value: 'rows',
				description:
					'One item per CSV row, all held in n8n\'s memory: 1,000,000 rows of 15 columns took about 0.4 GB (1.2 GB for n8n in all, measured on n8n 2.41). For more rows, choose File or a narrower query.',
			},
			{ name: 'File', value: 'file', description: 'One item with the results file as binary data' },
			{ name: 'Rows and File', value: 'rowsAndFile', description: 'One item per row, the file attached to the first' },
		],
	},
	binaryPropertyName: {
		displayName: 'Put File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		description: 'Name of the binary field that holds the results file',
	},
	requestTimeoutSeconds: requestTimeoutOption(300, 'Longest time one HTTP request (including a download) may take, at most 86400 (one day). Starting an export, its retries after a refusal included, takes at most this long.'),
	startMethod: {
		displayName: 'Start Method',
		name: 'startMethod',
		type: 'options',
		default: 'POST',
		options: [
			{ name: 'POST (Recommended)', value: 'POST' },
			{ name: 'GET', value: 'GET', description: 'For proxies that block POST; parameters go into the URL' },
		],
	},
	onTruncated: {
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
	},
} satisfies Record<string, INodeProperties>;

/** The results-file limits (results/limits.ts), in Advanced Options, in this order. */
export const RESULT_LIMIT_OPTIONS: INodeProperties[] = [OPTION.maxCompressionRatio, OPTION.maxDecompressedMB, OPTION.maxFieldMB, OPTION.maxRowMB];

/** The options of the operations that read a results file (Export, Download Results), in this order. */
export const RESULTS_FILE_OPTIONS: INodeProperties[] = [
	OPTION.convertTypes,
	OPTION.fieldsAsTool,
	OPTION.includeMetadata,
	OPTION.maxOutputKBAsTool,
	OPTION.maxRows,
	OPTION.maxRowsAsTool,
	OPTION.output,
	OPTION.outputAsTool,
	OPTION.binaryPropertyName,
	OPTION.requestTimeoutSeconds,
	OPTION.onTruncated,
];
