/** Get Many Remote Actions: the list has no documented filters, so "API-Enabled Only" filters here. */
import type { INodeProperties } from 'n8n-workflow';

import { collectionOf } from '../../shared/optionFields';
import { readBoolean } from '../../shared/parameterValues';
import { getMany, readOptionsCollection, returnAllAndLimit } from '../shared/readFields';
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

export const getManyOperation = getMany(
	(ctx, itemIndex) => readBoolean(ctx.getNodeParameter('filters.apiEnabledOnly', itemIndex, true), 'API-Enabled Only', true),
	async (ctx, apiEnabledOnly, options) => (await listRemoteActions(ctx, options)).filter((remoteAction) => !apiEnabledOnly || isApiEnabled(remoteAction)),
);
