/** The export endpoints (start, status; https://docs.nexthink.com/api/nql/export-an-nql). */
import { NodeApiError } from 'n8n-workflow';

import type { Compression } from '../results/decompress';
import { nexthinkRequest, PROXY_MAY_HAVE_ANSWERED, readApiErrorBody, unexpectedAnswer, type NexthinkContext } from '../transport';
import { logTagHeaderValue } from './queryInput';
import { isRecord } from '../shared/jsonValues';

const EXPORT_STATUSES = ['SUBMITTED', 'IN_PROGRESS', 'COMPLETED', 'ERROR'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export interface StartExportInput {
	queryId: string;
	parameters: Record<string, string>;
	compression: Compression;
	method: 'POST' | 'GET';
	logTag?: string;
	timeoutMs?: number;
	itemIndex: number;
}

export const QUERY_HINTS = {
	404: 'No NQL API query has this ID. Check the spelling, and that the query exists under Administration > NQL API queries.',
};

/** Said when a start failed in a way after which the export may still have started. */
export const MAY_HAVE_STARTED_NOTE =
	'The export may have started on Nexthink anyway: the node does not send the start again, so that the query does not run twice. Run the node again to start a new export.';

/**
 * Starts an export. A start that Nexthink refused before running it (429, 503) is sent again with
 * the transport's backoff, all of it within the Request Timeout; one that may have run (500, 502,
 * 504, a timeout, a broken connection) never is: a second start would run the query twice.
 */
export async function startExport(ctx: NexthinkContext, input: StartExportInput): Promise<string> {
	const headers: Record<string, string> = {};
	if (input.logTag !== undefined) headers['x-platform-log-custom-tag'] = logTagHeaderValue(input.logTag);
	const response = await nexthinkRequest<{ exportId?: unknown }>(ctx, {
		method: input.method,
		path: '/api/v1/nql/export',
		...(input.method === 'GET'
			? // exploded form: each NQL parameter is its own query key, next to queryId and compression
				{ qs: { ...input.parameters, queryId: input.queryId, compression: input.compression } }
			: {
					body: {
						queryId: input.queryId,
						...(Object.keys(input.parameters).length > 0 ? { parameters: input.parameters } : {}),
						compression: input.compression,
					},
				}),
		idempotent: false,
		retryRefused: true,
		mayHaveRunNote: MAY_HAVE_STARTED_NOTE,
		deadline: input.timeoutMs === undefined ? undefined : Date.now() + input.timeoutMs,
		headers,
		timeoutMs: input.timeoutMs,
		itemIndex: input.itemIndex,
		action: `Starting the export of ${input.queryId}`,
		hints: QUERY_HINTS,
	});
	const body: unknown = response.body;
	const exportId = isRecord(body) ? body.exportId : undefined;
	if (typeof exportId !== 'string' || exportId.trim() === '') {
		const expected = 'Nexthink answers {"exportId": "…"}. Without an ID the export cannot be followed; it was not started a second time, and it may or may not be running in Nexthink.';
		throw unexpectedExportAnswer(ctx, response.statusCode, `Starting the export of ${input.queryId} got an ${unexpectedAnswer(response)}: no export ID`, expected, input.itemIndex);
	}
	return exportId;
}

/** An answer that is not the documented one: what was expected, and who may have answered. */
function unexpectedExportAnswer(ctx: NexthinkContext, statusCode: number, message: string, expected: string, itemIndex: number): NodeApiError {
	const httpCode = String(statusCode);
	return new NodeApiError(ctx.getNode(), { httpCode }, { message, description: `${expected} ${PROXY_MAY_HAVE_ANSWERED}`, httpCode, itemIndex });
}

function isHttpUrl(value: unknown): value is string {
	return typeof value === 'string' && /^https?:\/\/\S+$/i.test(value.trim());
}

/** A value from an answer, short and printable, for an error message. */
function shown(value: unknown): string {
	const text = value === undefined ? 'nothing' : JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

export interface ExportStatusReport {
	exportId: string;
	status: ExportStatus;
	resultsFileUrl: string | null;
	errorDescription: string | null;
	/** HTTP status of the status call: 200, 206 (truncated by the licence limit) or 400 (export failed). */
	httpStatus: number;
	truncated: boolean;
}

/** A report of `status` with no file, no error and no truncation (HTTP 200), but for `more`. */
export function exportReport(exportId: string, status: ExportStatus, more: Partial<ExportStatusReport> = {}): ExportStatusReport {
	return { exportId, status, resultsFileUrl: null, errorDescription: null, httpStatus: 200, truncated: false, ...more };
}

const STATUS_HINTS = {
	404: 'No export has this ID. Export IDs are only valid for a limited time; start a new export.',
	429: 'The daily limit of status requests was reached. Poll less often (a longer wait interval) or retry after the time given.',
};

/**
 * One status call. HTTP 400 ("the export failed because of an invalid query or configuration") is
 * reported as an ERROR status carrying the API's message, so callers handle both failures alike.
 */
export async function getExportStatus(
	ctx: NexthinkContext,
	exportId: string,
	options: { deadline?: number; timeoutMs?: number; itemIndex: number },
): Promise<ExportStatusReport> {
	const response = await nexthinkRequest(ctx, {
		method: 'GET',
		path: `/api/v1/nql/status/${encodeURIComponent(exportId)}`,
		idempotent: true,
		acceptStatus: [400],
		deadline: options.deadline,
		timeoutMs: options.timeoutMs,
		itemIndex: options.itemIndex,
		action: `Getting the status of export ${exportId}`,
		hints: STATUS_HINTS,
	});
	if (response.statusCode === 400) {
		const errorDescription = readApiErrorBody(response.body).message ?? 'The export failed because of an invalid query or configuration (HTTP 400).';
		return exportReport(exportId, 'ERROR', { errorDescription, httpStatus: 400 });
	}
	const body: unknown = response.body;
	const status = isRecord(body) ? body.status : undefined;
	const problem = !isRecord(body)
		? 'not a JSON object'
		: typeof status !== 'string' || !EXPORT_STATUSES.includes(status as ExportStatus)
			? `no valid export status (status: ${shown(status)}; expected SUBMITTED, IN_PROGRESS, COMPLETED or ERROR)`
			: status === 'COMPLETED' && !isHttpUrl(body.resultsFileUrl)
				? `status COMPLETED without a results file URL (resultsFileUrl: ${shown(body.resultsFileUrl)})`
				: undefined;
	if (problem !== undefined || !isRecord(body)) {
		const message = `Getting the status of export ${exportId} got an ${unexpectedAnswer(response)}: ${problem ?? 'not a JSON object'}`;
		throw unexpectedExportAnswer(ctx, response.statusCode, message, 'Nexthink answers {"status": …, "resultsFileUrl": …, "errorDescription": …}.', options.itemIndex);
	}
	return {
		exportId,
		status: status as ExportStatus,
		resultsFileUrl: isHttpUrl(body.resultsFileUrl) ? body.resultsFileUrl : null,
		errorDescription: typeof body.errorDescription === 'string' ? body.errorDescription : null,
		httpStatus: response.statusCode,
		truncated: response.statusCode === 206,
	};
}

export function exportFailedError(ctx: NexthinkContext, report: ExportStatusReport, queryId: string | null, itemIndex: number) {
	const what = queryId ? `The export of ${queryId} (${report.exportId})` : `Export ${report.exportId}`;
	return new NodeApiError(
		ctx.getNode(),
		{ message: report.errorDescription ?? 'Export failed', httpCode: String(report.httpStatus) },
		{
			message: `${what} failed: ${report.errorDescription ?? 'Nexthink reported status ERROR without a description'}`,
			description: 'Nexthink could not run the query. Check the query and its parameters in Nexthink (Administration > NQL API queries).',
			itemIndex,
		},
	);
}
