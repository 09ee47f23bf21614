/** Get Remote Action: one details call per item (GET /api/v1/act/remote-action/details?nql-id=). */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../shared/runItems';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, getRemoteAction } from './api';
import { normaliseRemoteActionId } from './runInput';
import { readOptionsCollection, readReadTimeoutMs } from '../shared/readFields';

/** Get's fields (the remote action is the resource's, description.ts). */
export const description: INodeProperties[] = [readOptionsCollection('remoteAction', 'get', DEFAULT_REQUEST_TIMEOUT_SECONDS)];

function prepareGet(this: IExecuteFunctions, itemIndex: number) {
	const nqlId = normaliseRemoteActionId(this.getNodeParameter('remoteAction', itemIndex, '', { extractValue: true }));
	return { nqlId, timeoutMs: readReadTimeoutMs(this, itemIndex, DEFAULT_REQUEST_TIMEOUT_SECONDS) };
}

async function runGet(this: IExecuteFunctions, itemIndex: number, { nqlId, timeoutMs }: ReturnType<typeof prepareGet>): Promise<INodeExecutionData[]> {
	const remoteAction = await getRemoteAction(this, nqlId, { timeoutMs, itemIndex });
	return [{ json: remoteAction as IDataObject, pairedItem: { item: itemIndex } }];
}

export const getOperation: ItemOperation<ReturnType<typeof prepareGet>> = { prepare: prepareGet, run: runGet };
