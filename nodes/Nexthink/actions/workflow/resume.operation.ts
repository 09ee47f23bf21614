/**
 * Resume Workflow: the wait-for-event trigger, one request per item, never sent twice; as a tool
 * only `validated` unless writes are allowed. Why: docs/decisions.md, row "Resume".
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { type ItemOperation, withRequestsMade } from '../../shared/runItems';
import { runsAsTool, toolWritesItem, toolWritesOff, WRITES_OFF_NOTE } from '../../shared/toolMode';
import { nodeErrorOf } from '../../shared/nodeErrors';
import { resumeWorkflow } from './api';
import { checkNameValueParameters, checkUuid } from './runInput';
import { readTimeoutMs, writeOptions } from '../shared/panelFields';
import { nameValueCollection, show } from './description';

export const description = updateDisplayOptions(show(['resume']), [
	{
		displayName: 'Workflow UUID',
		name: 'workflowUuid',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'f2000000-0000-4000-8000-000000000004',
		description: 'The workflow\'s "uuid" (Get Workflow returns it), not its NQL ID',
	},
	{
		displayName: 'Execution UUID',
		name: 'executionUuid',
		type: 'string',
		default: '={{ $json.nexthinkWorkflow.executionIds[0] }}',
		required: true,
		description: 'The execution waiting for the event: an execution ID from Run Workflow (executionIds) or from NQL (workflow.executions.execution_id)',
	},
	nameValueCollection('resumeParameters', 'Event Parameters', 'Values the waiting step receives, by name (each value non-empty)'),
	writeOptions(show(['resume']), 'resume the execution', 'Longest time one request may take. A request that times out is not sent again (it may have resumed the execution).'),
]);

/** Request IDs of the items already resumed in this run, for the error under "Stop Workflow". */
const madeByRun = new WeakMap<object, string[]>();

function prepareResume(this: IExecuteFunctions, itemIndex: number) {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		workflowUuid: checkUuid(this.getNodeParameter('workflowUuid', itemIndex, ''), 'Workflow UUID', 'the workflow\'s "uuid" from Get Workflow, not its NQL ID'),
		executionUuid: checkUuid(this.getNodeParameter('executionUuid', itemIndex, ''), 'Execution UUID', "one of Run Workflow's executionIds"),
		parameters: checkNameValueParameters(
			this.getNodeParameter('resumeParameters.parameter', itemIndex, []) as Array<{ name?: unknown; value?: unknown }>,
			'Event Parameters',
			{ nonEmptyValues: true },
		),
		timeoutMs: readTimeoutMs(options),
		validateOnly: toolWritesOff(this, options),
	};
}

async function runResume(this: IExecuteFunctions, itemIndex: number, prepared: ReturnType<typeof prepareResume>): Promise<INodeExecutionData[]> {
	const item = this.getInputData()[itemIndex];
	const outcome: IDataObject = { status: 'validated', workflowUuid: prepared.workflowUuid, executionUuid: prepared.executionUuid, parameters: prepared.parameters };
	if (prepared.validateOnly) outcome.note = WRITES_OFF_NOTE;
	else {
		const made = madeByRun.get(this) ?? [];
		madeByRun.set(this, made);
		let requestIds: string[];
		try {
			requestIds = await resumeWorkflow(this, prepared.workflowUuid, prepared.executionUuid, prepared.parameters, { timeoutMs: prepared.timeoutMs, itemIndex });
		} catch (error) {
			throw this.continueOnFail() ? error : withRequestsMade(nodeErrorOf(this.getNode(), error, itemIndex), made.map((requestId) => ({ requestIds: [requestId], items: [], ok: true })));
		}
		made.push(...requestIds);
		outcome.status = 'resumed';
		outcome.requestId = requestIds[0];
		outcome.requestIds = requestIds;
	}
	const output: INodeExecutionData[] = [{ json: { ...item.json, nexthinkWorkflowResume: outcome }, pairedItem: { item: itemIndex } }];
	if (runsAsTool(this)) {
		// a tool run has one item: its request, as every write tool reports it (shared/toolMode.ts)
		const sent = prepared.validateOnly ? [] : [{ target: prepared.workflowUuid, requestIds: outcome.requestIds as string[], items: [itemIndex], ok: true }];
		output.push(toolWritesItem(sent, itemIndex));
	}
	return output;
}

export const resumeOperation: ItemOperation<ReturnType<typeof prepareResume>> = { prepare: prepareResume, run: runResume };
