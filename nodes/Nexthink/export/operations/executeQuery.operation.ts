/**
 * Execute Query: runs a stored query synchronously (POST /api/v{1,2}/nql/execute). Read-only, so
 * the transport may retry it. Nexthink returns about 1,000 rows at most and drops the rest without
 * saying so; reaching that count is reported as "may be incomplete".
 *
 * The answer is streamed and bounded while it arrives (Max Answer Size, counted after HTTP
 * decompression; Request Timeout for the whole answer): a small `Content-Encoding: gzip` answer
 * could otherwise inflate to gigabytes inside n8n's request helper before any check runs.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ResultLimitError, type ResultLimits } from '../../results/limits';
import { readCsvRows } from '../../results/readCsvRows';
import { mediaTypeOf, nexthinkRequest, unexpectedAnswer } from '../../transport';
import { resultLimitError } from '../shared/resultsFile';
import {
	answerText,
	answerTooLarge,
	boundedAnswer,
	EXECUTE_MAX_VALUES,
	EXECUTE_ROW_LIMIT,
	ExecuteAnswerLimitError,
	ExecuteResponseError,
	executionDateTimeWithZone,
	readExecuteV1,
	readExecuteV2,
	jsonHasMoreValuesThan,
	tooManyValues,
	type ExecuteResult,
} from '../../shared/executeAnswer';
import { finishItems, placeRows } from '../shared/resultItems';
import { readExecuteSettings, readQuerySettings, runsAsTool } from '../shared/settings';
import { TOOL_ROWS_OPTION } from '../../shared/toolOutput';
import type { ItemOperation } from '../../shared/runPerItem';
import { forOperation, OPTION, queryFields } from '../description';

const executeNotice: INodeProperties = {
	displayName:
		'Execute Query returns about 1,000 rows at most and silently drops the rest. For larger results use the Export operation.',
	name: 'executeLimitNotice',
	type: 'notice',
	default: '',
};

// for options that only a CSV answer uses (Max Field Size and Max Row Size are the Export options of that name)
const CSV_ONLY = { show: { responseFormat: ['csv'] } };

const executeOptions: INodeProperties = {
	displayName: 'Options',
	name: 'executeOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
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
			displayOptions: CSV_ONLY,
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
		{ ...OPTION.maxFieldMB, displayOptions: CSV_ONLY },
		OPTION.maxOutputKBAsTool,
		{ ...OPTION.maxRowMB, displayOptions: CSV_ONLY },
		OPTION.maxRowsAsTool,
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

export const description: INodeProperties[] = forOperation('executeQuery', [executeNotice, ...queryFields, executeOptions]);

const EXECUTE_HINTS = {
	404: 'No NQL API query has this ID. Check the spelling, and that the query exists under Administration > NQL API queries.',
	406: 'The API does not accept the requested answer format.',
};

function prepareExecuteQuery(this: IExecuteFunctions, itemIndex: number) {
	return { query: readQuerySettings(this, itemIndex), settings: readExecuteSettings(this, itemIndex) };
}

async function runExecuteQuery(
	this: IExecuteFunctions,
	itemIndex: number,
	{ query, settings }: ReturnType<typeof prepareExecuteQuery>,
): Promise<INodeExecutionData[]> {
	const { apiVersion, asCsv, maxAnswerBytes } = settings;
	const response = await nexthinkRequest<AsyncIterable<Uint8Array>>(this, {
		method: 'POST',
		path: `/api/${apiVersion}/nql/execute`,
		body: { queryId: query.queryId, parameters: query.parameters },
		headers: settings.utcTimestamps ? { 'x-utc-times': 'true' } : {},
		accept: asCsv ? 'text/csv' : 'application/json',
		responseType: 'stream',
		idempotent: true,
		timeoutMs: settings.timeoutMs,
		itemIndex,
		action: `Executing ${query.queryId}`,
		hints: EXECUTE_HINTS,
	});
	const answeredAtMs = Date.now();

	let result: ExecuteResult;
	try {
		const answer = boundedAnswer(response.body, maxAnswerBytes);
		if (asCsv) {
			// Max Answer Size also bounds CSV sent compressed without a Content-Encoding header, in place
			// of the Export operation's decompression limits, which Execute Query does not offer.
			const csvLimits = { ...settings.limits, maxDecompressedBytes: maxAnswerBytes, maxCompressionRatio: 0 };
			result = await fromCsv(csvAnswer(answer, response.headers['content-type']), settings.convertTypes, csvLimits);
		} else {
			const text = await answerText(answer);
			if (jsonHasMoreValuesThan(text, EXECUTE_MAX_VALUES)) throw tooManyValues();
			result = apiVersion === 'v1' ? readExecuteV1(text) : readExecuteV2(text);
		}
	} catch (error) {
		// the answer broke off or timed out (the transport says so), or the execution was cancelled
		if (error instanceof NodeOperationError) throw new NodeOperationError(this.getNode(), error);
		if (error instanceof ResultLimitError && error.limit !== 'maxDecompressedBytes') throw resultLimitError(this, error, itemIndex);
		if (error instanceof ExecuteAnswerLimitError || error instanceof ResultLimitError) {
			// a ResultLimitError on the decompressed size: CSV compressed without a Content-Encoding header
			const limit = error instanceof ResultLimitError ? answerTooLarge(maxAnswerBytes) : error;
			throw new NodeOperationError(this.getNode(), `Executing ${query.queryId} was stopped: ${lowerFirst(limit.message)}`, {
				itemIndex,
				description: 'The bounds protect n8n from answers that would exhaust its memory. No rows were output for this query.',
			});
		}
		throw new NodeApiError(
			this.getNode(),
			{ message: (error as Error).message },
			{
				message: `Executing ${query.queryId} got an ${unexpectedAnswer(response)}: ${lowerFirst((error as Error).message)}`,
				description:
					'Nexthink answers execute with JSON (v2: "data" objects; v1: "headers" and "data" lists) or, when asked, CSV text. A proxy or login page may be answering instead of Nexthink: check the API base URL of the credential.',
				httpCode: String(response.statusCode),
				itemIndex,
			},
		);
	}

	const mayBeIncomplete = result.rows.length >= EXECUTE_ROW_LIMIT;
	if (mayBeIncomplete) {
		this.addExecutionHints?.({
			message: `${query.queryId} returned ${result.rows.length} rows, the most Execute Query returns: the result may be incomplete. Use the Export operation for the full result.`,
			location: 'outputPane',
		});
	}
	const metadata: IDataObject = {
		...result.metadata,
		queryId: result.metadata.queryId ?? query.queryId,
		executionDateTime: executionDateTimeWithZone(result.metadata.executionDateTime, { utc: settings.utcTimestamps, answeredAtMs }),
		mayBeIncomplete,
	};
	const pairedItem = { item: itemIndex };
	const placed = placeRows({
		rows: result.rows,
		metadata,
		metadataKey: 'nexthinkQuery',
		mode: settings.includeMetadata,
		tool: runsAsTool(this)
			? {
					...settings.toolLimits,
					rowLimitOption: TOOL_ROWS_OPTION,
					rowsAfter: 0,
					what: `the query ${query.queryId}`,
					fullResultHint: mayBeIncomplete
						? 'Execute Query itself returns about 1,000 rows at most; every row can be had by running the Export operation outside the agent.'
						: 'Every row can be had by running the node outside the agent.',
				}
			: undefined,
	});
	const items: INodeExecutionData[] = placed.rows.map((json) => ({ json, pairedItem }));
	return finishItems(items, placed, settings.includeMetadata, pairedItem);
}

export const executeExecuteQuery: ItemOperation<ReturnType<typeof prepareExecuteQuery>> = { prepare: prepareExecuteQuery, run: runExecuteQuery };

/**
 * The CSV bytes of an answer; an HTML, XML or JSON page (from a proxy, or JSON instead of CSV) is
 * refused, not parsed as CSV. Checked when the first bytes are asked for, so the refusal closes the body.
 */
async function* csvAnswer(answer: AsyncGenerator<Uint8Array, void, undefined>, contentType: string | undefined): AsyncGenerator<Uint8Array, void, undefined> {
	const type = mediaTypeOf(contentType);
	if (/html|xml|json/.test(type)) {
		await answer.return();
		throw new ExecuteResponseError(`a ${type} page instead of CSV text.`);
	}
	yield* answer;
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * Rows of a CSV answer. Its size is bounded as it arrives (boundedAnswer); the parser bounds fields
 * and rows and, with `maxDecompressedBytes` = Max Answer Size, the text of an answer compressed
 * without a Content-Encoding header (the reader recognises it by its first bytes); the values are
 * bounded by EXECUTE_MAX_VALUES.
 */
async function fromCsv(answer: AsyncIterable<Uint8Array>, convertTypes: boolean, limits: ResultLimits): Promise<ExecuteResult> {
	const parsed = await readCsvRows(answer, { compression: 'NONE', convertTypes, limits, maxValues: EXECUTE_MAX_VALUES });
	if (parsed.moreRowsAvailable) throw tooManyValues();
	return { rows: parsed.rows as IDataObject[], metadata: { queryId: null, executedQuery: null, rows: parsed.rows.length, executionDateTime: null } };
}
