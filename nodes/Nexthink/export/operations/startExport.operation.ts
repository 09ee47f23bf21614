/** Start Export: start only, output the export ID (for Wait-node loops over very long exports). */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { startExport } from '../shared/exportApi';
import { readQuerySettings, readStartSettings, readTimeoutMs } from '../shared/settings';

export async function executeStartExport(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const query = readQuerySettings(this, itemIndex);
	const start = readStartSettings(this, itemIndex);
	const timeoutMs = readTimeoutMs(this, itemIndex);
	const exportId = await startExport(this, { ...query, ...start, timeoutMs, itemIndex });
	return [{ json: { exportId, queryId: query.queryId, compression: start.compression }, pairedItem: { item: itemIndex } }];
}
