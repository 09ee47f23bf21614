import type { IDataObject } from 'n8n-workflow';

import type { ExportStatusReport } from '../nql/exportApi';

/** The status fields every operation outputs the same way. */
export function statusJson(report: ExportStatusReport): IDataObject {
	return {
		exportId: report.exportId,
		status: report.status,
		resultsFileUrl: report.resultsFileUrl,
		errorDescription: report.errorDescription,
		httpStatus: report.httpStatus,
		truncated: report.truncated,
	};
}
