import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { enrichmentProperties } from './description';
import { runOperation } from '../shared/runItems';
import { enrichmentOperation } from './execute';

export class NexthinkEnrichment implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Nexthink Enrichment',
		name: 'nexthinkEnrichment',
		icon: { light: 'file:../icons/nexthink.svg', dark: 'file:../icons/nexthink.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{"Enrich " + $parameter["objectType"] + "s"}}',
		description: 'Write custom fields, virtualization, Entra ID and organization fields to Nexthink devices, users, binaries and packages',
		defaults: { name: 'Nexthink Enrichment' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'nexthinkApi', required: true }],
		properties: enrichmentProperties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperation(this, enrichmentOperation, this.continueOnFail());
	}
}
