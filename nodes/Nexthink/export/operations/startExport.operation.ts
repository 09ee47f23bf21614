/** Start Export: start only, output the export ID (for Wait-node loops over very long exports). */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { startExport } from '../../nql/exportApi';
import { readQuerySettings, readStartSettings, readTimeoutMs } from '../settings';
import type { ItemOperation } from '../../shared/runItems';
import { OPTIONS_COLLECTION } from '../../shared/optionFields';
import { ADVANCED_OPTIONS_COLLECTION, compressionField, exportQueryFields, OPTION } from '../description';

const properties: INodeProperties[] = [
	...exportQueryFields,
	compressionField,
	{ ...OPTIONS_COLLECTION, options: [OPTION.logTag, OPTION.requestTimeoutSeconds] },
	{ ...ADVANCED_OPTIONS_COLLECTION, options: [OPTION.startMethod] },
];

export const description = updateDisplayOptions({ show: { '/operation': ['startExport'] } }, properties);

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
