import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { type Operation, runOperation } from '../shared/runItems';
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

/** Every operation, by `resource.operation`: the writes are batched (shared/runItems.ts), the reads run item by item. */
const OPERATIONS: Record<string, Operation> = {
	'remoteAction.run': runRemoteActionOperation,
	'remoteAction.get': getOperation,
	'remoteAction.getMany': getManyOperation,
	'workflow.run': runWorkflowOperation,
	'workflow.get': getWorkflowOperation,
	'workflow.getMany': getManyWorkflowsOperation,
	'workflow.resume': resumeOperation,
	'campaign.trigger': triggerCampaignOperation,
	'device.delete': deleteDevicesOperation,
	'spark.handOff': handOffOperation,
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
		const known = OPERATIONS[`${resource}.${operation}`];
		if (known === undefined) throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}" of resource "${resource}"`);
		return await runOperation(this, known, this.continueOnFail());
	}
}
