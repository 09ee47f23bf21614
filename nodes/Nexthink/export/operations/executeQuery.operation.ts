/**
 * Execute Query: runs a stored query synchronously (POST /api/v{1,2}/nql/execute). Read-only, so
 * the transport may retry it. Nexthink returns about 1,000 rows at most and drops the rest without
 * saying so; reaching that count is reported as "may be incomplete".
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ResultLimitError, type ResultLimits } from '../../results/limits';
import { readCsvRows } from '../../results/readCsvRows';
import { requestTimeoutMs } from '../../shared/requestTimeout';
import { mediaTypeOf, nexthinkRequest, unexpectedAnswer } from '../../transport';
import { resultLimitError } from '../shared/downloadResults';
import { EXECUTE_ROW_LIMIT, ExecuteResponseError, readExecuteV1, readExecuteV2, type ExecuteResult } from '../shared/executeResponse';
import { readQuerySettings, readResultLimits, runsAsTool, validated, wholeNumber } from '../shared/settings';
import type { ItemOperation } from '../../shared/runPerItem';

const EXECUTE_HINTS = {
	404: 'No NQL API query has this ID. Check the spelling, and that the query exists under Administration > NQL API queries.',
	406: 'The API does not accept the requested answer format.',
};

function prepareExecuteQuery(this: IExecuteFunctions, itemIndex: number) {
	const query = readQuerySettings(this, itemIndex);
	const options = this.getNodeParameter('executeOptions', itemIndex, {}) as IDataObject;
	const apiVersion = options.apiVersion === 'v1' ? 'v1' : 'v2';
	const asCsv = options.responseFormat === 'csv';
	const timeoutMs = validated(this, itemIndex, () => requestTimeoutMs(options.requestTimeoutSeconds, 60));
	const maxRowsAsTool = validated(this, itemIndex, () =>
		options.maxRowsAsTool === undefined ? 50 : wholeNumber(Number(options.maxRowsAsTool), 'Max Rows When Used as a Tool', 1),
	);
	const limits = validated(this, itemIndex, () => readResultLimits(options));
	const headers: Record<string, string> = {};
	if (options.utcTimestamps === true) headers['x-utc-times'] = 'true';
	return { query, options, apiVersion, asCsv, timeoutMs, maxRowsAsTool, limits, headers };
}

async function runExecuteQuery(
	this: IExecuteFunctions,
	itemIndex: number,
	{ query, options, apiVersion, asCsv, timeoutMs, maxRowsAsTool, limits, headers }: ReturnType<typeof prepareExecuteQuery>,
): Promise<INodeExecutionData[]> {
	const response = await nexthinkRequest(this, {
		method: 'POST',
		path: `/api/${apiVersion}/nql/execute`,
		body: { queryId: query.queryId, parameters: query.parameters },
		headers,
		responseType: asCsv ? 'text' : 'json',
		idempotent: true,
		timeoutMs,
		itemIndex,
		action: `Executing ${query.queryId}`,
		hints: EXECUTE_HINTS,
	});

	let result: ExecuteResult;
	try {
		result = asCsv
			? await fromCsv(csvText(response.body, response.headers['content-type']), options.convertTypes === true, limits)
			: apiVersion === 'v1'
				? readExecuteV1(response.body)
				: readExecuteV2(response.body);
	} catch (error) {
		if (error instanceof ResultLimitError) throw resultLimitError(this, error, itemIndex);
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
	const metadata: IDataObject = { ...result.metadata, queryId: result.metadata.queryId ?? query.queryId, mayBeIncomplete };
	let rows = result.rows;
	if (runsAsTool(this)) rows = rows.slice(0, maxRowsAsTool);

	const pairedItem = { item: itemIndex };
	const includeMetadata = options.includeMetadata ?? 'none';
	const items: INodeExecutionData[] = rows.map((row) => ({
		json: includeMetadata === 'eachRow' ? { ...row, nexthinkQuery: metadata } : row,
		pairedItem,
	}));
	if (includeMetadata === 'separateItem') {
		items.push({ json: metadata, pairedItem });
	}
	return items;
}

export const executeExecuteQuery: ItemOperation<ReturnType<typeof prepareExecuteQuery>> = { prepare: prepareExecuteQuery, run: runExecuteQuery };

/** The CSV text of an answer; an HTML, XML or JSON page (from a proxy, or JSON instead of CSV) is refused, not parsed as CSV. */
function csvText(body: unknown, contentType: string | undefined): string {
	const type = mediaTypeOf(contentType);
	if (/html|xml|json/.test(type)) throw new ExecuteResponseError(`a ${type} page instead of CSV text.`);
	if (typeof body !== 'string') throw new ExecuteResponseError('no CSV text.');
	return body;
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}

async function fromCsv(text: string, convertTypes: boolean, limits: ResultLimits): Promise<ExecuteResult> {
	// The answer's text is parsed in slices, as a download would arrive: the parser checks the field
	// and row limits between slices, so a single huge field fails before it is copied into a row.
	const parsed = await readCsvRows(slices(text), { compression: 'NONE', convertTypes, limits: { ...limits, maxDecompressedBytes: 0 } });
	return { rows: parsed.rows as IDataObject[], metadata: { queryId: null, executedQuery: null, rows: parsed.rows.length, executionDateTime: null } };
}

const SLICE_CHARS = 64 * 1024;

async function* slices(text: string): AsyncGenerator<Uint8Array> {
	const encoder = new TextEncoder();
	let start = 0;
	while (start < text.length) {
		let end = Math.min(start + SLICE_CHARS, text.length);
		// never split a surrogate pair: each slice must encode to valid UTF-8 on its own
		if (end < text.length && text.charCodeAt(end - 1) >= 0xd800 && text.charCodeAt(end - 1) <= 0xdbff) end--;
		yield encoder.encode(text.slice(start, end));
		start = end;
	}
}
