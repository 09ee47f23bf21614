/** Get Workflow: one details call per item; an empty answer (unknown NQL ID) fails the item, naming it. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation } from '../../shared/runItems';
import { readOptionsCollection, readReadTimeoutMs } from '../shared/readFields';
import { workflowWarning } from './answers';
import { DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS, getWorkflow } from './api';
import { normaliseWorkflowId } from './runInput';

/** Get's fields (the workflow is the resource's, description.ts). */
export const description: INodeProperties[] = [readOptionsCollection('workflow', 'get', DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS)];

function prepareGet(this: IExecuteFunctions, itemIndex: number) {
	const nqlId = normaliseWorkflowId(this.getNodeParameter('workflow', itemIndex, '', { extractValue: true }));
	return { nqlId, timeoutMs: readReadTimeoutMs(this, itemIndex, DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS) };
}

async function runGet(this: IExecuteFunctions, itemIndex: number, { nqlId, timeoutMs }: ReturnType<typeof prepareGet>): Promise<INodeExecutionData[]> {
	const workflow = await getWorkflow(this, nqlId, { timeoutMs, itemIndex });
	if (workflow === null) {
		throw new NodeOperationError(this.getNode(), `Getting workflow ${nqlId} failed: Nexthink has no workflow with this NQL ID`, {
			itemIndex,
			description: workflowWarning(nqlId, null),
		});
	}
	return [{ json: workflow as IDataObject, pairedItem: { item: itemIndex } }];
}

export const getWorkflowOperation: ItemOperation<ReturnType<typeof prepareGet>> = { prepare: prepareGet, run: runGet };
