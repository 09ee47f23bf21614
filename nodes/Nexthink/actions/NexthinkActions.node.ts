import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { runOperation, type Operation } from '../shared/runItems';
import { actionsToolDescriptionProperties } from '../shared/toolDescriptions';
import { campaignOperationProperty } from './campaign/description';
import { description as triggerCampaign, triggerCampaignOperation } from './campaign/triggerCampaign.operation';
import { description as deleteDevices, deleteDevicesOperation } from './device/delete.operation';
import { deviceOperationProperty } from './device/description';
import { remoteActionLocator, remoteActionOperationProperty } from './remoteAction/description';
import { description as getRemoteAction, getOperation } from './remoteAction/get.operation';
import { description as getManyRemoteActions, getManyOperation } from './remoteAction/getMany.operation';
import { getScriptInputs, searchRemoteActions } from './remoteAction/methods';
import { description as runRemoteAction, runRemoteActionOperation } from './remoteAction/run.operation';
import { sparkOperationProperty } from './spark/description';
import { description as handOff, handOffOperation } from './spark/handOff.operation';
import { workflowLocator, workflowOperationProperty } from './workflow/description';
import { description as getWorkflow, getWorkflowOperation } from './workflow/get.operation';
import { description as getManyWorkflows, getManyWorkflowsOperation } from './workflow/getMany.operation';
import { getWorkflowParameters, searchWorkflows } from './workflow/methods';
import { description as resumeWorkflow, resumeOperation } from './workflow/resume.operation';
import { description as runWorkflow, runWorkflowOperation } from './workflow/run.operation';

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

/** The resource, each resource's operation picker, then each operation's own fields. */
const actionsProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Campaign', value: 'campaign' },
			{ name: 'Device', value: 'device' },
			{ name: 'Remote Action', value: 'remoteAction' },
			{ name: 'Spark', value: 'spark' },
			{ name: 'Workflow', value: 'workflow' },
		],
		default: 'remoteAction',
	},
	remoteActionOperationProperty,
	workflowOperationProperty,
	campaignOperationProperty,
	deviceOperationProperty,
	sparkOperationProperty,
	...actionsToolDescriptionProperties,
	remoteActionLocator,
	...runRemoteAction,
	...getManyRemoteActions,
	...getRemoteAction,
	workflowLocator,
	...runWorkflow,
	...resumeWorkflow,
	...getManyWorkflows,
	...getWorkflow,
	...triggerCampaign,
	...deleteDevices,
	...handOff,
];

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
