/** Get Workflow: one details call per item; an empty answer (unknown NQL ID) fails the item, naming it. */
import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getByNqlId, readOptionsCollection } from '../shared/readFields';
import { workflowWarning } from './answers';
import { getWorkflow } from './api';
import { normaliseWorkflowId } from './runInput';

/** Get's fields (the workflow is the resource's, description.ts). */
export const description: INodeProperties[] = [readOptionsCollection('workflow', 'get')];

export const getWorkflowOperation = getByNqlId(
	'workflow',
	normaliseWorkflowId,
	async (ctx, nqlId, options) => {
		const workflow = await getWorkflow(ctx, nqlId, options);
		if (workflow !== null) return workflow;
		throw new NodeOperationError(ctx.getNode(), `Getting workflow ${nqlId} failed: Nexthink has no workflow with this NQL ID`, {
			itemIndex: options.itemIndex,
			description: workflowWarning(nqlId, null),
		});
	},
);
