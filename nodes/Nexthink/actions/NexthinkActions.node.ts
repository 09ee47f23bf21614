import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { runPerItem, type ItemOperation } from '../shared/runPerItem';
import { executeTriggerCampaign } from './campaign/trigger.operation';
import { executeDeleteDevices } from './device/delete.operation';
import { actionsProperties } from './description';
import { getOperation } from './remoteAction/get.operation';
import { getManyOperation } from './remoteAction/getMany.operation';
import { getScriptInputs, searchRemoteActions } from './remoteAction/methods';
import { executeRunRemoteAction } from './remoteAction/run.operation';
import { executeHandOff } from './spark/handOff.operation';
import { getWorkflowOperation } from './workflow/get.operation';
import { getManyWorkflowsOperation } from './workflow/getMany.operation';
import { getWorkflowParameters, searchWorkflows } from './workflow/methods';
import { resumeOperation } from './workflow/resume.operation';
import { executeRunWorkflow } from './workflow/run.operation';

/** Operations that run item by item; the Run operations and Trigger batch items together and have their own loops. */
const PER_ITEM_OPERATIONS: Record<string, ItemOperation<unknown>> = {
	'remoteAction.get': getOperation as ItemOperation<unknown>,
	'remoteAction.getMany': getManyOperation as ItemOperation<unknown>,
	'workflow.get': getWorkflowOperation as ItemOperation<unknown>,
	'workflow.getMany': getManyWorkflowsOperation as ItemOperation<unknown>,
	'workflow.resume': resumeOperation as ItemOperation<unknown>,
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
		if (resource === 'remoteAction' && operation === 'run') return await executeRunRemoteAction.call(this, this.continueOnFail());
		if (resource === 'workflow' && operation === 'run') return await executeRunWorkflow.call(this, this.continueOnFail());
		if (resource === 'campaign' && operation === 'trigger') return await executeTriggerCampaign.call(this, this.continueOnFail());
		if (resource === 'device' && operation === 'delete') return await executeDeleteDevices.call(this, this.continueOnFail());
		if (resource === 'spark' && operation === 'handOff') return await executeHandOff.call(this, this.continueOnFail());
		const perItem = PER_ITEM_OPERATIONS[`${resource}.${operation}`];
		if (perItem === undefined) throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}" of resource "${resource}"`);
		return [await runPerItem<unknown>(this, perItem, this.continueOnFail())];
	}
}
