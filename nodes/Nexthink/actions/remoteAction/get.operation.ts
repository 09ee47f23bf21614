/** Get Remote Action: one details call per item (GET /api/v1/act/remote-action/details?nql-id=). */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ItemOperation } from '../../shared/runItems';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, getRemoteAction } from './api';
import { normaliseRemoteActionId } from './runInput';
import { readReadTimeoutMs } from '../shared/readFields';

function prepareGet(this: IExecuteFunctions, itemIndex: number) {
	const nqlId = normaliseRemoteActionId(this.getNodeParameter('remoteAction', itemIndex, '', { extractValue: true }));
	return { nqlId, timeoutMs: readReadTimeoutMs(this, itemIndex, 'readOptions', DEFAULT_REQUEST_TIMEOUT_SECONDS) };
}

async function runGet(this: IExecuteFunctions, itemIndex: number, { nqlId, timeoutMs }: ReturnType<typeof prepareGet>): Promise<INodeExecutionData[]> {
	const remoteAction = await getRemoteAction(this, nqlId, { timeoutMs, itemIndex });
	return [{ json: remoteAction as IDataObject, pairedItem: { item: itemIndex } }];
}

export const getOperation: ItemOperation<ReturnType<typeof prepareGet>> = { prepare: prepareGet, run: runGet };
