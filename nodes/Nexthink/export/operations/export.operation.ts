/** Export: start an export, wait for it, download the file and output its rows. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { completedExportOptions } from '../completedExport';
import { followExport } from '../../nql/followExport';
import { buildResultItems, statusJson } from '../resultItems';
import { readQuerySettings, readResultSettings, readStartSettings, readTimeoutMs, readWaitSettings } from '../settings';
import type { ItemOperation } from '../../shared/runItems';
import {
	advancedOptionsCollection,
	alphabetical,
	beforeAdvancedOptions,
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
	optionsCollection([...waitOptions, ...resultsFileOptions([OPTION.logTag, beforeAdvancedOptions(OPTION.startMethod)])]),
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
	const context = { queryId: query.queryId, declaredCompression: start.compression, timeoutMs, settings };
	const timedOutHint = wait.failOnTimeout
		? 'Raise "Maximum Wait" in the options, or set "On Timeout" to "Return Last Status" and continue with Get Status in a loop through a Wait node, or use Start Export and Get Status for very long exports.'
		: undefined;
	const followed = await followExport(this, { start: { ...start, parameters: query.parameters }, wait, timedOutHint }, {
		...completedExportOptions(this, itemIndex, context),
		queryId: query.queryId,
	});
	if (followed.timedOut) {
		return [{ json: { ...statusJson(followed.report), queryId: query.queryId, waitTimedOut: true }, pairedItem: { item: itemIndex } }];
	}
	return await buildResultItems(this, itemIndex, followed.report, followed.results, context);
}

/** Every setting of every item is read and validated before the first request (see shared/runItems.ts). */
export const executeExport: ItemOperation<ReturnType<typeof prepareExport>> = { prepare: prepareExport, run: runExport };
