/**
 * Run Workflow: like Run Remote Action (remoteAction/run.operation.ts, same On Error rules, 401/403
 * handling, never sending a request twice, tool-mode protection), with devices and users as targets
 * and the v1 or v2 execute endpoint. Each input item gets one output item, paired to it, with its
 * request ID and, per target, the execution ID Nexthink created.
 *
 * With Wait for Results (shared/waitForResults.ts) the node then polls the user's status query over
 * workflow.executions for each request ID, following each target by its execution ID
 * (waitTargets.ts), and adds `results` to each item's outcome. Requests then carry at most 1,000
 * targets, devices and users together (one status answer per request).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toolWritesOff } from '../../shared/toolMode';
import { requestTimeoutMs } from '../../shared/requestTimeout';
import { itemResults, targetKey, type WaitTarget } from '../shared/resultStatus';
import { sendPlannedRequests, withRequestsMade } from '../shared/runHelpers';
import { invalidItems, outcomeItems, prepareItems, stopIfAnyInvalid } from '../../shared/runItems';
import { checkSameWait, readResultsWait, RESULTS_MAX_TARGETS_PER_REQUEST, waitForResults, type ResultsWaitSettings } from '../shared/waitForResults';
import { DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS, executeWorkflow } from './api';
import { planWorkflowRequests, ranRequestIds, workflowRunOutcome, type PreparedWorkflowRun, type WorkflowRequestResult, type WorkflowRunOutcome } from './runBatching';
import {
	checkMappedParameters,
	checkNameValueParameters,
	MAX_WORKFLOW_TARGETS_PER_LIST,
	normaliseWorkflowId,
	parseWorkflowTargets,
	type ApiVersion,
	type DeviceIdType,
	type UserIdType,
} from './runInput';
import { withUnfollowed, workflowWaitTargets } from './waitTargets';
import { InputError } from '../../shared/inputError';
import { setOwn, hasOwnKey } from '../../shared/ownKeys';

export const WORKFLOW_OUTCOME_KEY = 'nexthinkWorkflow';

interface Prepared {
	run: PreparedWorkflowRun;
	timeoutMs: number;
	/** As a tool without "Allow Writes When Used as a Tool": check only. */
	validateOnly: boolean;
	/** Wait for Results, when on. */
	wait?: ResultsWaitSettings;
}

export async function executeRunWorkflow(this: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	const preparations = prepareItems(this, (itemIndex) => prepareItem(this, itemIndex));
	checkSameWait(preparations);
	if (!continueOnFail) stopIfAnyInvalid(this, invalidItems(preparations));

	const ready = preparations.flatMap((preparation) => (preparation.ok ? [preparation.prepared] : []));
	const toSend = ready.filter((prepared) => !prepared.validateOnly);
	const toCheck = ready.filter((prepared) => prepared.validateOnly);
	const waiting = toSend.filter((prepared) => prepared.wait !== undefined);
	const plan = planWorkflowRequests(
		toSend.map((prepared) => prepared.run),
		MAX_WORKFLOW_TARGETS_PER_LIST,
		waiting.length > 0 ? RESULTS_MAX_TARGETS_PER_REQUEST : Infinity,
	);
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

	const waited = await waitForExecutions(this, waiting, outcomes, continueOnFail, results);

	return [outcomeItems(this, preparations, outcomes, WORKFLOW_OUTCOME_KEY, waited)];
}

/**
 * Wait for Results over the executions the run created (each once, even when several items named
 * the same target), then each waiting item's `results`, keyed by item index. Under "Stop Workflow" a
 * status query that fails stops the node, saying which requests ran (they are not sent again).
 */
async function waitForExecutions(
	ctx: IExecuteFunctions,
	waiting: readonly Prepared[],
	outcomes: ReadonlyMap<number, WorkflowRunOutcome>,
	continueOnFail: boolean,
	results: readonly WorkflowRequestResult[],
): Promise<Map<number, IDataObject>> {
	const perItem = new Map<number, IDataObject>();
	const settings = waiting[0]?.wait;
	if (settings === undefined) return perItem;
	const targetsOf = (itemIndex: number) => workflowWaitTargets(outcomes.get(itemIndex)?.targets ?? []);
	const targets = new Map<string, WaitTarget>();
	for (const prepared of waiting) {
		for (const execution of targetsOf(prepared.run.itemIndex).followed) {
			const target = { requestId: execution.requestId, target: execution.id };
			targets.set(targetKey(target), target);
		}
	}
	// no execution to follow (every request failed, or none was paired): nothing is polled
	const wait = await waitForResults(ctx, 'workflow', [...targets.values()], settings, { timeoutMs: waiting[0].timeoutMs });
	if (wait.error !== undefined && !continueOnFail) {
		throw withRequestsMade(new NodeOperationError(ctx.getNode(), wait.error.message, { description: wait.error.description }), ranRequestIds(results));
	}
	for (const prepared of waiting) {
		const { followed, unfollowed } = targetsOf(prepared.run.itemIndex);
		if (followed.length === 0 && unfollowed === 0) continue;
		const itemWait = itemResults('executionId', followed, wait.resultOf, { ...wait, queryId: settings.queryId, maxWaitMs: settings.maxWaitMs });
		perItem.set(prepared.run.itemIndex, withUnfollowed(itemWait, unfollowed, settings.queryId) as IDataObject);
	}
	return perItem;
}

function prepareItem(ctx: IExecuteFunctions, itemIndex: number): Prepared {
	const options = ctx.getNodeParameter('workflowRunOptions', itemIndex, {}) as IDataObject;
	const version = ctx.getNodeParameter('workflowApiVersion', itemIndex, 'v2') as ApiVersion;
	if (version !== 'v1' && version !== 'v2') throw new InputError(`API Version must be v1 or v2, got ${String(version)}`, 'API Version');
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
		if (hasOwnKey(params, name)) {
			throw new InputError(`Parameter "${name}" is given in both "Workflow Parameters" and "Other Parameters"; give it once`, 'Other Parameters');
		}
		setOwn(params, name, value);
	}
	const run: PreparedWorkflowRun = { itemIndex, workflowId, version, params, targets: parsed.targets, duplicatesInItem: parsed.duplicates };
	const timeoutMs = requestTimeoutMs(options.requestTimeoutSeconds, DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS);
	const wait = readResultsWait(ctx, itemIndex);
	if (wait !== undefined && run.targets.length > RESULTS_MAX_TARGETS_PER_REQUEST) {
		throw new InputError(
			`One item names ${run.targets.length} targets (devices and users); with Wait for Results an item may name at most ${RESULTS_MAX_TARGETS_PER_REQUEST} (one status query answer holds about ${RESULTS_MAX_TARGETS_PER_REQUEST} rows). Split the lists over several items`,
			'Wait for Results',
		);
	}
	const prepared: Prepared = { run, timeoutMs, validateOnly: toolWritesOff(ctx, options) };
	if (wait !== undefined) prepared.wait = wait;
	return prepared;
}
