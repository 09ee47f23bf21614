/**
 * Runs a node of this package the way an n8n AI agent uses it as a tool, in process, through
 * n8n-core's own tool machinery.
 *
 * The workflow is Input → Agent, with the node under test connected to the agent's `ai_tool`
 * input as its tool variant (type `n8n-nodes-nexthink.<name>Tool`). The stand-in agent asks
 * n8n-core for its tools (`getInputConnectionData('ai_tool')`), which builds the tool from the node
 * with n8n-core's `createNodeAsTool` (schema from the `$fromAI()` placeholders, description from
 * the node's parameters and description) and runs the node's `execute` in a supply-data context
 * when the tool is invoked. The agent invokes it once with the arguments a model would send and
 * outputs what the model would get: the tool's name, description, schema and the answer text.
 *
 * The tool variant's description is derived as n8n does when it loads a `usableAsTool` node
 * (n8n's `convertNodeToAiTool`, which lives in n8n's server package, not in n8n-core): type name
 * + `Tool`, no main input, one `ai_tool` output, and the "Tool Description" parameters.
 */
import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	IRun,
} from 'n8n-workflow';

import { MemoryCredentialsHelper, inputNode, startWorkflow } from './harness';
import { NexthinkApi } from '../../credentials/NexthinkApi.credentials';

export const PACKAGE = 'n8n-nodes-nexthink';

/** The description n8n gives the tool variant of a `usableAsTool` node. */
export function toolVariant(nodeType: INodeType): INodeType {
	const base = nodeType.description;
	if (base.usableAsTool !== true) throw new Error(`${base.name} is not usable as a tool`);
	const properties: INodeProperties[] = [...base.properties];
	const hasOperation = properties.some((property) => property.name === 'operation' || property.name === 'resource');
	if (!properties.some((property) => property.name === 'toolDescription')) {
		const toolDescription: INodeProperties = {
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: base.description,
			required: true,
			...(hasOperation ? { displayOptions: { show: { descriptionType: ['manual'] } } } : {}),
		};
		const descriptionType: INodeProperties = {
			displayName: 'Tool Description',
			name: 'descriptionType',
			type: 'options',
			options: [
				{ name: 'Set Automatically', value: 'auto' },
				{ name: 'Set Manually', value: 'manual' },
			],
			default: 'auto',
		};
		properties.unshift(...(hasOperation ? [descriptionType, toolDescription] : [toolDescription]));
	}
	const description = {
		...base,
		name: `${base.name}Tool`,
		displayName: `${base.displayName} Tool`,
		inputs: [],
		outputs: ['ai_tool'],
		properties,
	};
	delete (description as { usableAsTool?: unknown }).usableAsTool;
	// the node's own execute, as n8n's runtime tool variant is the node with another description
	const tool = Object.create(nodeType) as INodeType;
	Object.defineProperty(tool, 'description', { value: description });
	return tool;
}

export interface AgentToolAnswer {
	/** The tool's name, description and parameters (key → description) as the model sees them. */
	tool: { name: string; description: string; parameters: Record<string, { type: string; description: string | null }> };
	/** The text the model gets back from the tool, when the call succeeded. */
	answer?: string;
	/** The error the agent got, when the call failed. */
	error?: string;
	run: IRun;
}

function agentNode(toolArguments: Record<string, unknown>): INodeType {
	return {
		description: {
			displayName: 'Agent',
			name: 'agent',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Agent' },
			inputs: ['main', { type: 'ai_tool', displayName: 'Tool', required: true }] as never,
			outputs: ['main'] as never,
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const tools = (await this.getInputConnectionData('ai_tool' as never, 0)) as any[];
			const tool = tools[0];
			const shape = tool.schema?.shape ?? {};
			const parameters = Object.fromEntries(
				Object.entries(shape).map(([key, schema]: [string, any]) => [key, { type: String(schema._def?.typeName ?? ''), description: schema.description ?? null }]),
			);
			const json: Record<string, unknown> = { tool: { name: tool.name, description: tool.description, parameters } };
			try {
				json.answer = await tool.invoke(toolArguments);
			} catch (error) {
				json.error = (error as Error).message;
			}
			return [[{ json: json as never }]];
		},
	};
}

let executionCounter = 0;

export async function runAsAgentTool(options: {
	nodeType: INodeType;
	parameters: INodeParameters;
	/** What the model sends: values for the `$fromAI()` keys. */
	toolArguments?: Record<string, unknown>;
	credentials: Record<string, ICredentialDataDecryptedObject>;
}): Promise<AgentToolAnswer> {
	const credentialsHelper = new MemoryCredentialsHelper({ nexthinkApi: new NexthinkApi() }, { ...options.credentials });
	const toolType = toolVariant(options.nodeType);
	const toolTypeName = `${PACKAGE}.${toolType.description.name}`;
	const run: IRun = await startWorkflow({
		id: 'wf-agent-test',
		name: 'agent test',
		types: {
			'test.input': inputNode([{ json: { chatInput: 'question' } }]),
			'test.agent': agentNode(options.toolArguments ?? {}),
			[toolTypeName]: toolType,
		},
		nodes: [
			{ id: 'n1', name: 'Input', type: 'test.input', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'n2', name: 'Agent', type: 'test.agent', typeVersion: 1, position: [200, 0], parameters: {} },
			{
				id: 'n3',
				name: 'Nexthink',
				type: toolTypeName,
				typeVersion: 1,
				position: [200, 200],
				parameters: options.parameters,
				credentials: { nexthinkApi: { id: 'cred-nexthinkApi', name: 'nexthinkApi' } },
			},
		],
		connections: {
			Input: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			Nexthink: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
		},
		credentialsHelper,
		executionId: `agent-test-exec-${++executionCounter}`,
	});
	const agentRun = run.data.resultData.runData.Agent?.[0];
	const json = agentRun?.data?.main?.[0]?.[0]?.json as any;
	if (json === undefined) {
		throw new Error(`The agent produced no output: ${String(run.data.resultData.error?.message ?? agentRun?.error?.message)}`);
	}
	return { ...json, run };
}
