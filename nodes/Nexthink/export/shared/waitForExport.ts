/**
 * Polls an export until it completes, fails or the maximum wait is reached (issue 3, point 3).
 * The start request is never part of this loop, so waiting can never start a second export.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { cancellableSleep, cancelSignalOf, throwIfCancelled } from '../../transport';
import { getExportStatus, type ExportStatusReport } from './exportApi';
import { nextWaitMs, type WaitSettings } from './waitSchedule';

export interface WaitOutcome {
	report: ExportStatusReport;
	timedOut: boolean;
	statusCalls: number;
}

export async function waitForExport(
	ctx: IExecuteFunctions,
	exportId: string,
	settings: WaitSettings,
	options: { timeoutMs: number; itemIndex: number },
): Promise<WaitOutcome> {
	const signal = cancelSignalOf(ctx);
	const deadline = Date.now() + settings.maxWaitMs;
	let report: ExportStatusReport = {
		exportId,
		status: 'SUBMITTED',
		resultsFileUrl: null,
		errorDescription: null,
		httpStatus: 200,
		truncated: false,
	};
	for (let poll = 0; ; poll++) {
		const waitMs = nextWaitMs(poll, Date.now(), deadline, settings);
		if (waitMs === undefined) return { report, timedOut: true, statusCalls: poll };
		await cancellableSleep(waitMs, signal);
		throwIfCancelled(ctx, signal, options.itemIndex);
		report = await getExportStatus(ctx, exportId, { deadline, timeoutMs: options.timeoutMs, itemIndex: options.itemIndex });
		if (report.status === 'COMPLETED' || report.status === 'ERROR') {
			return { report, timedOut: false, statusCalls: poll + 1 };
		}
	}
}
