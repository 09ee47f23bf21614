/** Get Many Remote Actions: the list has no documented filters, so "API-Enabled Only" filters here. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { collectionOf } from '../../shared/optionFields';

import { readBoolean } from '../../shared/booleanParameter';
import type { ItemOperation } from '../../shared/runItems';
import { readGetManyLimit, readOptionsCollection, readReadTimeoutMs, returnAllAndLimit } from '../shared/readFields';
import { isApiEnabled } from './answers';
import { listRemoteActions } from './api';
import { show } from './description';

export const description: INodeProperties[] = [
	...returnAllAndLimit('remoteAction'),
	collectionOf('filters', show(['getMany']), [
		{
			displayName: 'API-Enabled Only',
			name: 'apiEnabledOnly',
			type: 'boolean',
			default: true,
			description: 'Whether to return only the remote actions whose "API" option is ticked, the ones this node can run (on when not added)',
		},
	]),
	readOptionsCollection('remoteAction', 'getMany'),
];

function prepareGetMany(this: IExecuteFunctions, itemIndex: number) {
	const limit = readGetManyLimit(this, itemIndex);
	return {
		apiEnabledOnly: readBoolean(this.getNodeParameter('filters.apiEnabledOnly', itemIndex, true), 'API-Enabled Only', true),
		limit,
		timeoutMs: readReadTimeoutMs(this, itemIndex),
	};
}

async function runGetMany(this: IExecuteFunctions, itemIndex: number, prepared: ReturnType<typeof prepareGetMany>): Promise<INodeExecutionData[]> {
	const list = await listRemoteActions(this, { timeoutMs: prepared.timeoutMs, itemIndex });
	return list
		.filter((remoteAction) => !prepared.apiEnabledOnly || isApiEnabled(remoteAction))
		.slice(0, prepared.limit)
		.map((remoteAction) => ({ json: remoteAction as IDataObject, pairedItem: { item: itemIndex } }));
}

export const getManyOperation: ItemOperation<ReturnType<typeof prepareGetMany>> = { prepare: prepareGetMany, run: runGetMany };
