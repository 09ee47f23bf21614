/** Start Export: start only, output the export ID (for Wait-node loops over very long exports). */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { startExport } from '../../nql/exportApi';
import { readQuerySettings, readStartSettings, readTimeoutMs } from '../settings';
import type { ItemOperation } from '../../shared/runItems';
import { advancedOptionsCollection, compressionField, forOperation, OPTION, optionsCollection } from '../description';
import { queryFields } from '../../nql/queryFields';

export const description: INodeProperties[] = forOperation('startExport', [
	...queryFields,
	compressionField,
	optionsCollection([OPTION.logTag, OPTION.requestTimeoutSeconds]),
	advancedOptionsCollection([OPTION.startMethod]),
]);

function prepareStartExport(this: IExecuteFunctions, itemIndex: number) {
	return { query: readQuerySettings(this, itemIndex), start: readStartSettings(this, itemIndex), timeoutMs: readTimeoutMs(this, itemIndex) };
}

async function runStartExport(
	this: IExecuteFunctions,
	itemIndex: number,
	{ query, start, timeoutMs }: ReturnType<typeof prepareStartExport>,
): Promise<INodeExecutionData[]> {
	const exportId = await startExport(this, { ...query, ...start, timeoutMs, itemIndex });
	return [{ json: { exportId, queryId: query.queryId, compression: start.compression }, pairedItem: { item: itemIndex } }];
}

export const executeStartExport: ItemOperation<ReturnType<typeof prepareStartExport>> = { prepare: prepareStartExport, run: runStartExport };
