/** Download Results: by export ID (one status call for a fresh URL) or by a results URL. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { outputCompletedExport } from '../shared/completedExport';
import { getExportStatus, type ExportStatusReport } from '../shared/exportApi';
import { readExportId, readResultsFileUrl, readResultSettings, readTimeoutMs } from '../shared/settings';

export async function executeDownloadResults(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const source = this.getNodeParameter('resultsSource', itemIndex, 'exportId') as string;
	const settings = readResultSettings(this, itemIndex);
	const timeoutMs = readTimeoutMs(this, itemIndex);
	const context = { queryId: null, declaredCompression: 'NONE' as const, timeoutMs, settings };
	if (source === 'url') {
		const url = readResultsFileUrl(this, itemIndex);
		const report: ExportStatusReport = {
			exportId: exportIdFromUrl(url),
			status: 'COMPLETED',
			resultsFileUrl: url,
			errorDescription: null,
			httpStatus: 200,
			truncated: false,
		};
		return await outputCompletedExport(this, itemIndex, report, context);
	}
	const exportId = readExportId(this, itemIndex);
	const report = await getExportStatus(this, exportId, { timeoutMs, itemIndex });
	return await outputCompletedExport(this, itemIndex, report, context);
}

/** The file's name without extensions, used to name the binary file when only a URL is known. */
function exportIdFromUrl(url: string): string {
	try {
		const last = new URL(url).pathname.split('/').pop() ?? '';
		return decodeURIComponent(last).replace(/\.csv(\.gz|\.zst)?$/i, '') || 'nexthink-export';
	} catch {
		return 'nexthink-export';
	}
}
