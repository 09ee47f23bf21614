/**
 * Run Workflow: like Run Remote Action (remoteAction/run.operation.ts, same On Error rules, 401/403
 * handling, never sending a request twice, tool-mode protection), with devices and users as targets
 * and the v1 or v2 execute endpoint. Each input item gets one output item, paired to it, with its
 * request ID and, per target, the execution ID Nexthink created.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runsAsTool } from '../../shared/toolMode';
import { checkRequestTimeout, RunInputError } from '../remoteAction/runInput';
import { sendPlannedRequests, throwIfAnyInvalid, type ItemPreparation } from '../shared/runHelpers';
import { DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS, executeWorkflow } from './api';
import { planWorkflowRequests, ranRequestIds, workflowRunOutcome, type PreparedWorkflowRun, type WorkflowRequestResult, type WorkflowRunOutcome } from './runBatching';
import {
	checkMappedParameters,
	checkNameValueParameters,
	normaliseWorkflowId,
	parseWorkflowTargets,
	type ApiVersion,
	type DeviceIdType,
	type UserIdType,
} from './runInput';

export const WORKFLOW_OUTCOME_KEY = 'nexthinkWorkflow';

interface Prepared {
	run: PreparedWorkflowRun;
	timeoutMs: number;
	/** As a tool without "Allow Writes When Used as a Tool": check only. */
	validateOnly: boolean;
}

export async function executeRunWorkflow(this: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const asTool = runsAsTool(this);
	const preparations = items.map((_item, itemIndex) => prepareItem(this, itemIndex, asTool, continueOnFail));
	if (!continueOnFail) throwIfAnyInvalid(this, preparations);

	const ready = preparations.flatMap((preparation) => (preparation.ok ? [preparation.prepared] : []));
	const toSend = ready.filter((prepared) => !prepared.validateOnly);
	const toCheck = ready.filter((prepared) => prepared.validateOnly);
	const plan = planWorkflowRequests(toSend.map((prepared) => prepared.run));
	const checkPlan = planWorkflowRequests(toCheck.map((prepared) => prepared.run));
	const timeoutOf = new Map(ready.map((prepared) => [prepared.run.itemIndex, prepared.timeoutMs]));

	const results: WorkflowRequestResult[] = await sendPlannedRequests(this, plan.requests, {
		continueOnFail,
		send: async (request) => await executeWorkflow(this, request, { timeoutMs: timeoutOf.get(request.itemIndexes[0]) as number, itemIndex: request.itemIndexes[0] }),
		requestIdsOf: ranRequestIds,
		objectOf: (request) => request.body.workflowId,
	});

	const outcomes = new Map<number, WorkflowRunOutcome>();
	for (const prepared of toSend) outcomes.set(prepared.run.itemIndex, workflowRunOutcome(prepared.run, plan, results));
	for (const prepared of toCheck) outcomes.set(prepared.run.itemIndex, workflowRunOutcome(prepared.run, checkPlan, undefined));

	// Seam for "Wait for Results" (nodes/Nexthink/actions/shared/waitForResults.ts, written separately):
	// when the user names a stored NQL query, it is polled here with the request IDs of `outcomes`
	// (status `triggered`) and `workflow.executions` per execution ID, before the items are built.

	const toErrorOutput = this.getNode().onError === 'continueErrorOutput';
	return [
		items.map((item, itemIndex) => {
			const preparation = preparations[itemIndex];
			const outcome: IDataObject = preparation.ok
				? (outcomes.get(itemIndex) as unknown as IDataObject)
				: { status: 'failed', error: { message: preparation.message, field: preparation.field } };
			if (outcome.status === 'failed' && toErrorOutput) {
				// n8n sends an item whose only key is `error` to the error output (see remoteAction/run.operation.ts).
				const message = (outcome.error as { message: string }).message;
				return { json: { error: { message: `Item ${itemIndex}: ${message}`, ...outcome } }, pairedItem: { item: itemIndex } };
			}
			return { json: { ...item.json, [WORKFLOW_OUTCOME_KEY]: outcome }, pairedItem: { item: itemIndex } };
		}),
	];
}

function prepareItem(ctx: IExecuteFunctions, itemIndex: number, asTool: boolean, continueOnFail: boolean): ItemPreparation<Prepared> {
	try {
		const options = ctx.getNodeParameter('workflowRunOptions', itemIndex, {}) as IDataObject;
		const version = ctx.getNodeParameter('workflowApiVersion', itemIndex, 'v2') as ApiVersion;
		if (version !== 'v1' && version !== 'v2') throw new RunInputError(`API Version must be v1 or v2, got ${String(version)}`, 'API Version');
		const workflowId = normaliseWorkflowId(ctx.getNodeParameter('workflow', itemIndex, '', { extractValue: true }));
		const parsed = parseWorkflowTargets(
			version,
			ctx.getNodeParameter('workflowDevices', itemIndex, ''),
			ctx.getNodeParameter('workflowDeviceIdType', itemIndex, 'collectorUid') as DeviceIdType,
			ctx.getNodeParameter('workflowUsers', itemIndex, ''),
			ctx.getNodeParameter('workflowUserIdType', itemIndex, 'sid') as UserIdType,
		);
		const mapped = ctx.getNodeParameter('workflowParameters', itemIndex, {}) as { value?: Record<string, unknown> | null };
		const params = checkMappedParameters(mapped?.value, 'Workflow Parameters');
		const others = checkNameValueParameters(
			ctx.getNodeParameter('workflowOtherParameters.parameter', itemIndex, []) as Array<{ name?: unknown; value?: unknown }>,
			'Other Parameters',
		);
		for (const [name, value] of Object.entries(others)) {
			if (Object.prototype.hasOwnProperty.call(params, name)) {
				throw new RunInputError(`Parameter "${name}" is given in both "Workflow Parameters" and "Other Parameters"; give it once`, 'Other Parameters');
			}
			params[name] = value;
		}
		const run: PreparedWorkflowRun = { itemIndex, workflowId, version, params, targets: parsed.targets, duplicatesInItem: parsed.duplicates };
		const timeoutMs = checkRequestTimeout(options.requestTimeoutSeconds, DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS);
		return { ok: true, prepared: { run, timeoutMs, validateOnly: asTool && options.allowWritesAsTool !== true } };
	} catch (error) {
		if (error instanceof RunInputError) return { ok: false, message: error.message, field: error.field };
		// anything else (an expression that fails) stops the run unless the user chose to continue
		if (!continueOnFail) throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
		return { ok: false, message: error instanceof Error ? error.message : String(error) };
	}
}
