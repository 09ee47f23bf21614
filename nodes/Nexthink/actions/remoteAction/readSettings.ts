import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { requestTimeoutMs } from '../../shared/requestTimeout';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS } from './api';

/** Request Timeout of Get and Get Many, checked before any request. */
export function readReadTimeoutMs(ctx: IExecuteFunctions, itemIndex: number): number {
	const options = ctx.getNodeParameter('readOptions', itemIndex, {}) as IDataObject;
	try {
		return requestTimeoutMs(options.requestTimeoutSeconds, DEFAULT_REQUEST_TIMEOUT_SECONDS);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), (error as Error).message, { itemIndex });
	}
}
