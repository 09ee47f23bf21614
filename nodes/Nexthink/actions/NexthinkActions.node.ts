import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { runBatched, type BatchedOperation } from '../shared/runBatched';
import { runPerItem, type ItemOperation } from '../shared/runItems';
import { triggerCampaignOperation } from './campaign/triggerCampaign.operation';
import { deleteDevicesOperation } from './device/delete.operation';
import { actionsProperties } from './description';
import { getOperation } from './remoteAction/get.operation';
import { getManyOperation } from './remoteAction/getMany.operation';
import { getScriptInputs, searchRemoteActions } from './remoteAction/methods';
import { runRemoteActionOperation } from './remoteAction/run.operation';
import { handOffOperation } from './spark/handOff.operation';
import { getWorkflowOperation } from './workflow/get.operation';
import { getManyWorkflowsOperation } from './workflow/getMany.operation';
import { getWorkflowParameters, searchWorkflows } from './workflow/methods';
import { resumeOperation } from './workflow/resume.operation';
import { runWorkflowOperation } from './workflow/run.operation';

type Execute = (this: IExecuteFunctions, continueOnFail: boolean) => Promise<INodeExecutionData[][]>;

/** An operation that runs item by item, through the one per-item loop. */
function perItem<T>(operation: ItemOperation<T>): Execute {
	return async function (this: IExecuteFunctions, continueOnFail: boolean) {
		return [await runPerItem(this, operation, continueOnFail)];
	};
}

/** An operation that checks every item, then sends them in planned requests, through the one batched runner. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function batched(operation: BatchedOperation<any, any, any, any, any, any>): Execute {
	return async function (this: IExecuteFunctions, continueOnFail: boolean) {
		return [await runBatched(this, operation, continueOnFail)];
	};
}

/**
 * Every operation, by `resource.operation`. The Run operations, Trigger Campaign, Delete and Hand
 * Off batch items together (check every item, send, one outcome per item); the others run item by
 * item.
 */
const OPERATIONS: Record<string, Execute> = {
	'remoteAction.run': batched(runRemoteActionOperation),
	'remoteAction.get': perItem(getOperation),
	'remoteAction.getMany': perItem(getManyOperation),
	'workflow.run': batched(runWorkflowOperation),
	'workflow.get': perItem(getWorkflowOperation),
	'workflow.getMany': perItem(getManyWorkflowsOperation),
	'workflow.resume': perItem(resumeOperation),
	'campaign.trigger': batched(triggerCampaignOperation),
	'device.delete': batched(deleteDevicesOperation),
	'spark.handOff': batched(handOffOperation),
};

export class NexthinkActions implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Nexthink Actions',
		name: 'nexthinkActions',
		icon: { light: 'file:../icons/nexthink.svg', dark: 'file:../icons/nexthink.dark.svg' },
		group: ['output'],
		version: [1],
		defaultVersion: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Run Nexthink remote actions and workflows on devices and users, resume waiting workflows, send campaigns to users, delete devices, hand conversations to Spark, and read remote action and workflow configurations',
		defaults: { name: 'Nexthink Actions' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'nexthinkApi', required: true }],
		properties: actionsProperties,
	};

	methods = {
		listSearch: { searchRemoteActions, searchWorkflows },
		resourceMapping: { getScriptInputs, getWorkflowParameters },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resource = this.getNodeParameter('resource', 0) as string;
		const operation = this.getNodeParameter('operation', 0) as string;
		const execute = OPERATIONS[`${resource}.${operation}`];
		if (execute === undefined) throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}" of resource "${resource}"`);
		return await execute.call(this, this.continueOnFail());
	}
}
