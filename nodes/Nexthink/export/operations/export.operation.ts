/** Export: start an export, wait for it, download the file and output its rows. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { outputCompletedExport } from '../shared/completedExport';
import { startExport } from '../shared/exportApi';
import { statusJson } from '../shared/statusJson';
import { readQuerySettings, readResultSettings, readStartSettings, readTimeoutMs, readWaitSettings } from '../shared/settings';
import { waitForExport } from '../shared/waitForExport';

export async function executeExport(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	// every setting is read and validated before the first request
	const query = readQuerySettings(this, itemIndex);
	const start = readStartSettings(this, itemIndex);
	const wait = readWaitSettings(this, itemIndex);
	const settings = readResultSettings(this, itemIndex);
	const timeoutMs = readTimeoutMs(this, itemIndex);

	const exportId = await startExport(this, { ...query, ...start, timeoutMs, itemIndex });
	const outcome = await waitForExport(this, exportId, wait, { timeoutMs, itemIndex });
	if (outcome.timedOut) {
		if (wait.failOnTimeout) {
			const minutes = wait.maxWaitMs / 60_000;
			throw new NodeOperationError(
				this.getNode(),
				`Export ${exportId} of ${query.queryId} did not complete within ${minutes} minute${minutes === 1 ? '' : 's'} (last status ${outcome.report.status})`,
				{
					itemIndex,
					description:
						'Raise "Maximum Wait" in the options, or set "On Timeout" to "Return Last Status" and continue with Get Status in a loop through a Wait node, or use Start Export and Get Status for very long exports.',
				},
			);
		}
		return [{ json: { ...statusJson(outcome.report), queryId: query.queryId, waitTimedOut: true }, pairedItem: { item: itemIndex } }];
	}
	return await outputCompletedExport(this, itemIndex, outcome.report, {
		queryId: query.queryId,
		declaredCompression: start.compression,
		timeoutMs,
		settings,
	});
}
