/**
 * The export endpoints of the spec (sections 4.1-4.3), as typed calls over the transport.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { nexthinkRequest, readApiErrorBody } from '../../transport';
import { logTagHeaderValue } from './queryInput';

export type Compression = 'NONE' | 'GZIP' | 'ZSTD';
export type ExportStatus = 'SUBMITTED' | 'IN_PROGRESS' | 'COMPLETED' | 'ERROR';

export interface StartExportInput {
	queryId: string;
	parameters: Record<string, string>;
	compression: Compression;
	method: 'POST' | 'GET';
	logTag?: string;
	timeoutMs?: number;
	itemIndex: number;
}

const EXPORT_HINTS = {
	404: 'No NQL API query has this ID. Check the spelling, and that the query exists under Administration > NQL API queries.',
};

/** Starts an export. Never repeated: a second start would run the query twice. */
export async function startExport(ctx: IExecuteFunctions, input: StartExportInput): Promise<string> {
	const headers: Record<string, string> = {};
	if (input.logTag !== undefined) headers['x-platform-log-custom-tag'] = logTagHeaderValue(input.logTag);
	const common = {
		path: '/api/v1/nql/export',
		idempotent: false,
		headers,
		timeoutMs: input.timeoutMs,
		itemIndex: input.itemIndex,
		action: `Starting the export of ${input.queryId}`,
		hints: EXPORT_HINTS,
	};
	const response =
		input.method === 'GET'
			? await nexthinkRequest<{ exportId?: unknown }>(ctx, {
					...common,
					method: 'GET',
					// exploded form: each NQL parameter is its own query key (reference/nexthink-api.md 2.7)
					qs: { ...input.parameters, queryId: input.queryId, compression: input.compression },
				})
			: await nexthinkRequest<{ exportId?: unknown }>(ctx, {
					...common,
					method: 'POST',
					body: {
						queryId: input.queryId,
						...(Object.keys(input.parameters).length > 0 ? { parameters: input.parameters } : {}),
						compression: input.compression,
					},
				});
	const exportId = response.body?.exportId;
	if (typeof exportId !== 'string' || exportId === '') {
		throw new NodeApiError(
			ctx.getNode(),
			{ httpCode: String(response.statusCode) },
			{ message: 'Nexthink accepted the export but sent no export ID', itemIndex: input.itemIndex },
		);
	}
	return exportId;
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

export interface StatusCallOptions {
	deadline?: number;
	timeoutMs?: number;
	itemIndex: number;
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
	ctx: IExecuteFunctions,
	exportId: string,
	options: StatusCallOptions,
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
		const apiError = readApiErrorBody(response.body);
		return {
			exportId,
			status: 'ERROR',
			resultsFileUrl: null,
			errorDescription: apiError.message ?? 'The export failed because of an invalid query or configuration (HTTP 400).',
			httpStatus: 400,
			truncated: false,
		};
	}
	const body = (response.body ?? {}) as Record<string, unknown>;
	const status = String(body.status ?? '') as ExportStatus;
	if (!['SUBMITTED', 'IN_PROGRESS', 'COMPLETED', 'ERROR'].includes(status)) {
		throw new NodeApiError(
			ctx.getNode(),
			{ httpCode: String(response.statusCode) },
			{ message: `Nexthink answered an unknown export status "${status}"`, itemIndex: options.itemIndex },
		);
	}
	return {
		exportId,
		status,
		resultsFileUrl: typeof body.resultsFileUrl === 'string' ? body.resultsFileUrl : null,
		errorDescription: typeof body.errorDescription === 'string' ? body.errorDescription : null,
		httpStatus: response.statusCode,
		truncated: response.statusCode === 206,
	};
}
