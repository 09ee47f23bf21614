/** Download Results: by export ID (one status call for a fresh URL) or by a results URL. */
import { updateDisplayOptions } from 'n8n-workflow';

import { exportReport, getExportStatus } from '../../nql/exportApi';
import { buildResultItems, completedExportOptions, queryIdOfExport } from '../resultItems';
import { downloadCompletedExport } from '../../nql/followExport';
import { readExportId, readResultsFileUrl, readResultSettings, readTimeoutMs } from '../settings';
import { itemOperation } from '../../shared/runItems';
import { readChoice } from '../../shared/parameterValues';
import { OPTIONS_COLLECTION } from '../../shared/optionFields';
import { ADVANCED_OPTIONS_COLLECTION, exportIdField, RESULT_LIMIT_OPTIONS, RESULTS_FILE_OPTIONS } from '../description';

export const description = updateDisplayOptions({ show: { '/operation': ['downloadResults'] } }, [
	{
		displayName: 'Results Source',
		name: 'resultsSource',
		type: 'options',
		default: 'exportId',
		options: [
			{ name: 'Export ID', value: 'exportId', description: 'Fetch a fresh results URL with one status call' },
			{ name: 'Results File URL', value: 'url', description: 'Use a results URL from Get Status (valid 15 minutes)' },
		],
	},
	{
		displayName: 'Results File URL',
		name: 'resultsFileUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: '={{ $json.resultsFileUrl }}',
		description: 'The pre-signed URL from Get Status. It expires 15 minutes after it was issued.',
		displayOptions: { show: { resultsSource: ['url'] } },
	},
	exportIdField,
	{ ...OPTIONS_COLLECTION, options: RESULTS_FILE_OPTIONS },
	{ ...ADVANCED_OPTIONS_COLLECTION, options: RESULT_LIMIT_OPTIONS },
]);

export const executeDownloadResults = itemOperation({
	prepare(itemIndex) {
		const source = readChoice(this.getNodeParameter('resultsSource', itemIndex, 'exportId'), 'Results Source', ['exportId', 'url'], 'exportId');
		const settings = readResultSettings(this, itemIndex);
		const timeoutMs = readTimeoutMs(this, itemIndex);
		const target: { url?: string; exportId?: string } = source === 'url' ? { url: readResultsFileUrl(this, itemIndex) } : { exportId: readExportId(this, itemIndex) };
		return { settings, timeoutMs, ...target };
	},
	async run(itemIndex, { settings, timeoutMs, url, exportId }) {
		// a results file URL names neither the query nor (for sure) the export
		const report =
			url !== undefined
				? exportReport(exportIdFromUrl(url), 'COMPLETED', { resultsFileUrl: url })
				: await getExportStatus(this, exportId as string, { timeoutMs, itemIndex });
		const queryId = url !== undefined ? null : queryIdOfExport(this, itemIndex, exportId as string);
		const context = { queryId, declaredCompression: 'NONE' as const, timeoutMs, settings, exportIdGuessed: url !== undefined };
		const results = await downloadCompletedExport(this, report, completedExportOptions(this, itemIndex, context));
		return await buildResultItems(this, itemIndex, report, results, context);
	},
});

/**
 * The file's name without extensions: names the binary file when only a URL is known, and is the
 * export ID the node asks a fresh URL for (Nexthink's own URLs are named after the export).
 */
function exportIdFromUrl(url: string): string {
	try {
		const last = new URL(url).pathname.split('/').pop() ?? '';
		return decodeURIComponent(last).replace(/\.csv(\.gz|\.zst)?$/i, '') || 'nexthink-export';
	} catch {
		return 'nexthink-export';
	}
}
