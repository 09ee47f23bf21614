/**
 * The Event Trigger's `options` collections (one per channel) in n8n's editor and engine, with the
 * n8n-workflow of each generation: a new node and a node saved without options read their body
 * themselves (`options.binaryData`, what n8n's parseRequestBody evaluates), and a channel switch
 * (n8n's editor update, test/helpers/editorChange.ts) keeps the options both channels have.
 */
import type { INode, INodeParameters } from 'n8n-workflow';

import { NexthinkEventTrigger } from '../../../nodes/Nexthink/eventTrigger/NexthinkEventTrigger.node';
import { editorChange } from '../../helpers/editorChange';
import { N8N_WORKFLOW_VERSION, NodeTypes } from '../../helpers/harness';

const n8nWorkflow = require('n8n-workflow');

const nodeType = new NexthinkEventTrigger();
const description = nodeType.description;
const TYPE = 'n8n-nodes-nexthink.nexthinkEventTrigger';

/** `$parameter["options"]["binaryData"]` of a saved node, evaluated as n8n's parseRequestBody does. */
function readsBodyItself(parameters: INodeParameters): unknown {
	const node: INode = { id: 'n', name: 'Nexthink Event Trigger', type: TYPE, typeVersion: 1, position: [0, 0], parameters };
	const workflow = new n8nWorkflow.Workflow({ id: 'wf', nodes: [node], connections: {}, active: true, nodeTypes: new NodeTypes({ [TYPE]: nodeType }) });
	return workflow.expression.getSimpleParameterValue(workflow.getNode(node.name), '={{$parameter["options"]["binaryData"]}}', 'webhook', {}, undefined, false);
}

describe(`Event Trigger options (n8n-workflow ${N8N_WORKFLOW_VERSION})`, () => {
	it.each(['webhook', 'dataExporter', 'workflowCall'])('a %s node saved without options reads its body itself', (mode) => {
		expect(readsBodyItself({ mode, path: 'p' })).toBe(true);
	});

	it('a node the editor created, then given options, still reads its body itself', () => {
		const created = n8nWorkflow.NodeHelpers.getNodeParameters(description.properties, {}, true, false, { typeVersion: 1, parameters: {} }, description) as INodeParameters;
		expect(created.options).toEqual({ binaryData: true });
		const options = { ...(created.options as INodeParameters), maxBodySizeMb: 2 };
		const after = editorChange(description, 1, { ...created, options }, 'path', 'nexthink/alerts');
		expect(after.options).toEqual({ binaryData: true, maxBodySizeMb: 2 });
		expect(readsBodyItself(after)).toBe(true);
	});

	it('Data Exporter → Webhook keeps Maximum Body Size and drops the exporter\'s own options', () => {
		const exporter = { mode: 'dataExporter', options: { binaryData: true, recordsProperty: 'users', includeRequest: true, maxBodySizeMb: 2 } };
		const after = editorChange(description, 1, exporter, 'mode', 'webhook');
		expect(after.options).toEqual({ binaryData: true, maxBodySizeMb: 2 });
		expect(readsBodyItself(after)).toBe(true);
	});

	it('Webhook → Workflow Call → Data Exporter keeps Maximum Body Size', () => {
		const call = editorChange(description, 1, { mode: 'webhook', options: { binaryData: true, maxBodySizeMb: 3 } }, 'mode', 'workflowCall');
		const exporter = editorChange(description, 1, call, 'mode', 'dataExporter');
		expect([call.options, exporter.options]).toEqual([
			{ binaryData: true, maxBodySizeMb: 3 },
			{ binaryData: true, maxBodySizeMb: 3 },
		]);
	});
});
