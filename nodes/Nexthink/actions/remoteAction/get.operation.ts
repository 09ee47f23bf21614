/** Get Remote Action: one details call per item (GET /api/v1/act/remote-action/details?nql-id=). */
import type { INodeProperties } from 'n8n-workflow';

import { getByNqlId, readOptionsCollection } from '../shared/readFields';
import { getRemoteAction } from './api';
import { normaliseRemoteActionId } from './runInput';

/** Get's fields (the remote action is the resource's, description.ts). */
export const description: INodeProperties[] = [readOptionsCollection('remoteAction', 'get')];

export const getOperation = getByNqlId('remoteAction', normaliseRemoteActionId, getRemoteAction);
