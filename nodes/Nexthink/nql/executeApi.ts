/**
 * Runs a stored query synchronously (POST /api/v{1,2}/nql/execute; read-only, so retried) and reads
 * its answer into rows, bounded while it streams (Max Answer Size after HTTP decompression): a small
 * gzip answer could otherwise inflate to gigabytes before any check runs.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DEFAULT_RESULT_LIMITS, ResultLimitError, type ResultLimits } from '../results/limits';
import { readCsvRows } from '../results/readCsvRows';
import {
	boundedBody,
	mediaTypeOf,
	nexthinkRequest,
	PROXY_MAY_HAVE_ANSWERED,
	readAnswerText,
	unexpectedAnswer,
	type NexthinkContext,
	type NexthinkRequest,
} from '../transport';
import {
	answerTooLarge,
	DEFAULT_MAX_ANSWER_BYTES,
	EXECUTE_MAX_VALUES,
	ExecuteAnswerLimitError,
	ExecuteResponseError,
	readExecuteV1,
	readExecuteV2,
	jsonHasMoreValuesThan,
	tooManyValues,
	type ExecuteResult,
} from './executeAnswer';
import { QUERY_HINTS } from './exportApi';
import { resultLimitError, WHERE_LIMITS_ARE } from './resultsFile';
import type { QuerySettings } from './queryInput';

const EXECUTE_HINTS = { ...QUERY_HINTS, 406: 'The API does not accept the requested answer format.' };

/** What the request and the reading of its answer use of Execute Query's settings. */
export interface ExecuteRequestSettings {
	apiVersion: 'v1' | 'v2';
	/** Ask for `text/csv` and parse it, instead of JSON. */
	asCsv: boolean;
	convertTypes: boolean;
	/** Timestamps in UTC (`x-utc-times: true`) instead of the instance's time zone. */
	utcTimestamps: boolean;
	timeoutMs: number;
	limits: ResultLimits;
	/** Max Answer Size, in bytes after HTTP decompression. */
	maxAnswerBytes: number;
}

/** JSON rows with the default bounds, as the Trigger and Wait for Results read them (no options of theirs set these). */
export const DEFAULT_EXECUTE_SETTINGS = { asCsv: false, convertTypes: false, limits: DEFAULT_RESULT_LIMITS, maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES };

/** The answer's rows and metadata, and when it arrived; `call`: another step's action words, hints and deadline. */
export async function executeStoredQuery(
	ctx: NexthinkContext,
	query: QuerySettings,
	settings: ExecuteRequestSettings,
	itemIndex: number | undefined,
	call: { action: string; hints: NexthinkRequest['hints']; deadline?: number } = { action: `Executing ${query.queryId}`, hints: EXECUTE_HINTS },
): Promise<{ result: ExecuteResult; answeredAtMs: number }> {
	const { apiVersion, asCsv, maxAnswerBytes } = settings;
	const { action } = call;
	const tooLarge = () => answerTooLarge(maxAnswerBytes);
	const response = await nexthinkRequest<AsyncIterable<Uint8Array>>(ctx, {
		method: 'POST',
		path: `/api/${apiVersion}/nql/execute`,
		body: { queryId: query.queryId, parameters: query.parameters },
		headers: settings.utcTimestamps ? { 'x-utc-times': 'true' } : {},
		accept: asCsv ? 'text/csv' : 'application/json',
		responseType: 'stream',
		idempotent: true,
		deadline: call.deadline,
		timeoutMs: settings.timeoutMs,
		itemIndex,
		action,
		hints: call.hints,
	});
	const answeredAtMs = Date.now();

	let result: ExecuteResult;
	try {
		if (asCsv) {
			// Max Answer Size also bounds CSV sent compressed without a Content-Encoding header, in place
			// of the Export operation's decompression limits, which Execute Query does not offer.
			const csvLimits = { ...settings.limits, maxDecompressedBytes: maxAnswerBytes, maxCompressionRatio: 0 };
			const answer = boundedBody(response.body, maxAnswerBytes, tooLarge);
			result = await fromCsv(csvAnswer(answer, response.headers['content-type']), settings.convertTypes, csvLimits);
		} else {
			const text = await readAnswerText(ctx, response.body, maxAnswerBytes, tooLarge);
			if (jsonHasMoreValuesThan(text, EXECUTE_MAX_VALUES)) throw tooManyValues();
			result = apiVersion === 'v1' ? readExecuteV1(text) : readExecuteV2(text);
		}
	} catch (error) {
		// the answer broke off or timed out (the transport says so), or the execution was cancelled
		if (error instanceof NodeOperationError) throw new NodeOperationError(ctx.getNode(), error);
		if (error instanceof ResultLimitError && error.limit !== 'maxDecompressedBytes') throw resultLimitError(ctx, error, itemIndex);
		if (error instanceof ExecuteAnswerLimitError || error instanceof ResultLimitError) {
			// a ResultLimitError on the decompressed size: CSV compressed without a Content-Encoding header
			const limit = error instanceof ResultLimitError ? tooLarge() : error;
			throw new NodeOperationError(ctx.getNode(), `${action} was stopped: ${lowerFirst(limit.message)}`, {
				itemIndex,
				description: `The bounds protect n8n from answers that would exhaust its memory. No rows were output for this query. ${WHERE_LIMITS_ARE}`,
			});
		}
		throw new NodeApiError(
			ctx.getNode(),
			{ message: (error as Error).message },
			{
				message: `${action} got an ${unexpectedAnswer(response)}: ${lowerFirst((error as Error).message)}`,
				description: `Nexthink answers execute with JSON (v2: "data" objects; v1: "headers" and "data" lists) or, when asked, CSV text. ${PROXY_MAY_HAVE_ANSWERED}`,
				httpCode: String(response.statusCode),
				itemIndex,
			},
		);
	}
	return { result, answeredAtMs };
}

/** The CSV bytes of an answer; an HTML, XML or JSON page is refused (when the first bytes are asked for, closing the body). */
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

/** Rows of a CSV answer: the parser bounds fields, rows, a compressed text (`csvLimits`) and the values. */
async function fromCsv(answer: AsyncIterable<Uint8Array>, convertTypes: boolean, limits: ResultLimits): Promise<ExecuteResult> {
	const parsed = await readCsvRows(answer, { compression: 'NONE', convertTypes, limits, maxValues: EXECUTE_MAX_VALUES });
	if (parsed.moreRowsAvailable) throw tooManyValues();
	return { rows: parsed.rows as IDataObject[], metadata: { queryId: null, executedQuery: null, rows: parsed.rows.length, executionDateTime: null } };
}
