/** Export: start an export, wait for it, download the file and output its rows. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { outputCompletedExport } from '../completedExport';
import { startExport } from '../../nql/exportApi';
import { statusJson } from '../resultItems';
import { readQuerySettings, readResultSettings, readStartSettings, readTimeoutMs, readWaitSettings } from '../settings';
import { exportTimedOutMessage, waitForExport } from '../../nql/waitForExport';
import type { ItemOperation } from '../../shared/runItems';
import {
	advancedOptionsCollection,
	alphabetical,
	compressionField,
	forOperation,
	OPTION,
	optionsCollection,
	POLL_OPTION,
	RESULT_LIMIT_OPTIONS,
	resultsFileOptions,
	waitOptions,
} from '../description';
import { queryFields } from '../../nql/queryFields';

export const description: INodeProperties[] = forOperation('export', [
	...queryFields,
	compressionField,
	optionsCollection([...waitOptions, ...resultsFileOptions([OPTION.logTag])]),
	advancedOptionsCollection(alphabetical([...Object.values(POLL_OPTION), ...RESULT_LIMIT_OPTIONS, OPTION.startMethod])),
]);

function prepareExport(this: IExecuteFunctions, itemIndex: number) {
	return {
		query: readQuerySettings(this, itemIndex),
		start: readStartSettings(this, itemIndex),
		wait: readWaitSettings(this, itemIndex),
		settings: readResultSettings(this, itemIndex),
		timeoutMs: readTimeoutMs(this, itemIndex),
	};
}

async function runExport(
	this: IExecuteFunctions,
	itemIndex: number,
	{ query, start, wait, settings, timeoutMs }: ReturnType<typeof prepareExport>,
): Promise<INodeExecutionData[]> {
	const exportId = await startExport(this, { ...query, ...start, timeoutMs, itemIndex });
	const outcome = await waitForExport(this, exportId, wait, { timeoutMs, itemIndex });
	if (outcome.timedOut) {
		if (wait.failOnTimeout) {
			throw new NodeOperationError(
				this.getNode(),
				exportTimedOutMessage(outcome, query.queryId, wait.maxWaitMs),
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

/** Every setting of every item is read and validated before the first request (see shared/runItems.ts). */
export const executeExport: ItemOperation<ReturnType<typeof prepareExport>> = { prepare: prepareExport, run: runExport };
