/**
 * Run Remote Action: every item is checked first (nothing is sent while any item is bad under
 * "Stop Workflow"), the valid items are grouped and sent (shared/runPlan.ts), and each input item
 * gets exactly one output item with its outcome, paired to it.
 *
 * On Error:
 * - Stop Workflow: a bad item stops the run before any request; a failed request stops the run,
 *   and the error lists the requests already made (they ran, running the items again repeats them).
 * - Continue (regular output): every item comes out with `nexthinkRemoteAction.status`.
 * - Continue (using error output): failed items go to the error output.
 * A 401 means no later request can succeed: the rest are not sent. A 403 refuses that remote action
 * (missing permission or its API checkbox): its other requests are not sent, other remote actions are.
 *
 * As an AI tool the node only checks and reports what it would send, unless "Allow Writes When
 * Used as a Tool" is on.
 *
 * Before any run request, the script inputs of every item are checked against the remote action's
 * details (one details call per distinct remote action): unknown inputs, missing inputs and values
 * a fixed-list input does not allow fail that item, naming the input.
 *
 * With Wait for Results (shared/waitForResults.ts) the node then polls the user's status query
 * until every device has a final status or Maximum Wait runs out, and adds `results` to each item's
 * outcome. Requests then carry at most 1,000 devices (one status answer per request).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { toolWritesOff } from '../../shared/toolMode';
import { itemResults, targetKey, type WaitTarget } from '../shared/resultStatus';
import { sendPlannedRequests, withRequestsMade } from '../shared/runHelpers';
import { invalidItems, outcomeItems, prepareItems, stopIfAnyInvalid, type Preparation } from '../../shared/runItems';
import { failureOf } from '../../shared/nodeErrors';
import { checkSameWait, readResultsWait, RESULTS_MAX_TARGETS_PER_REQUEST, waitForResults, type ResultsWaitOutcome, type ResultsWaitSettings } from '../shared/waitForResults';
import { scriptInputsOf } from './answers';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, executeRemoteAction, getRemoteAction } from './api';
import { MAX_DEVICES_PER_REQUEST, planRequests, runOutcome, type PreparedRun, type RequestResult, type RunOutcome } from '../shared/runPlan';
import {
	checkExpiry,
	checkParamsAgainstInputs,
	checkScriptInputs,
	checkTriggerInfo,
	normaliseRemoteActionId,
	parseCollectorUids,
} from './runInput';
import { requestTimeoutMs } from '../../shared/requestTimeout';
import { InputError } from '../../shared/inputError';

export const OUTCOME_KEY = 'nexthinkRemoteAction';

interface Prepared {
	run: PreparedRun;
	timeoutMs: number;
	/** As a tool without "Allow Writes When Used as a Tool": check only. */
	validateOnly: boolean;
	/** Wait for Results, when on. */
	wait?: ResultsWaitSettings;
}

export async function executeRunRemoteAction(this: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	const preparations = prepareItems(this, (itemIndex) => prepareItem(this, itemIndex));
	checkSameWait(preparations);
	// under "Stop Workflow" a bad item stops the run before any request, the details calls included
	if (!continueOnFail) stopIfAnyInvalid(this, invalidItems(preparations));
	await checkInputsAgainstDetails(this, preparations, continueOnFail);
	if (!continueOnFail) stopIfAnyInvalid(this, invalidItems(preparations));

	const ready = preparations.flatMap((preparation) => (preparation.ok ? [preparation.prepared] : []));
	const toSend = ready.filter((prepared) => !prepared.validateOnly);
	const toCheck = ready.filter((prepared) => prepared.validateOnly);
	const waiting = toSend.filter((prepared) => prepared.wait !== undefined);
	const plan = planRequests(
		toSend.map((prepared) => prepared.run),
		waiting.length > 0 ? RESULTS_MAX_TARGETS_PER_REQUEST : MAX_DEVICES_PER_REQUEST,
	);
	const checkPlan = planRequests(toCheck.map((prepared) => prepared.run));
	const timeoutOf = new Map(ready.map((prepared) => [prepared.run.itemIndex, prepared.timeoutMs]));

	const results: RequestResult[] = await sendPlannedRequests(this, plan.requests, {
		continueOnFail,
		send: async (request) => await executeRemoteAction(this, request.body, { timeoutMs: timeoutOf.get(request.itemIndexes[0]) as number, itemIndex: request.itemIndexes[0] }),
		requestIdsOf: (sent) => sent.flatMap((result) => (result.ok ? [result.requestId] : [])),
	});

	const outcomes = new Map<number, RunOutcome>();
	for (const prepared of toSend) outcomes.set(prepared.run.itemIndex, runOutcome(prepared.run, plan, results));
	for (const prepared of toCheck) outcomes.set(prepared.run.itemIndex, runOutcome(prepared.run, checkPlan, undefined));

	const waited = await waitForDevices(this, waiting, outcomes, continueOnFail, results);

	return [outcomeItems(this, preparations, outcomes, OUTCOME_KEY, waited)];
}

/**
 * Checks each item's script inputs against its remote action's details, read once per remote
 * action before any run request. A remote action whose details cannot be read fails its items
 * (under "Stop Workflow": the node, with nothing sent).
 */
async function checkInputsAgainstDetails(ctx: IExecuteFunctions, preparations: Array<Preparation<Prepared>>, continueOnFail: boolean): Promise<void> {
	const byRemoteAction = new Map<string, number[]>();
	preparations.forEach((preparation, itemIndex) => {
		if (!preparation.ok) return;
		const id = preparation.prepared.run.remoteActionId;
		byRemoteAction.set(id, [...(byRemoteAction.get(id) ?? []), itemIndex]);
	});
	for (const [remoteActionId, itemIndexes] of byRemoteAction) {
		const first = preparations[itemIndexes[0]] as { ok: true; prepared: Prepared };
		let inputs: ReturnType<typeof scriptInputsOf>;
		try {
			inputs = scriptInputsOf(await getRemoteAction(ctx, remoteActionId, { timeoutMs: first.prepared.timeoutMs, itemIndex: itemIndexes[0] }));
		} catch (error) {
			const nothingSent = `Nothing was sent: the script inputs are checked against the remote action's details before any run request.`;
			if (!continueOnFail) throw withDescription(error, nothingSent);
			const described = failureOf(error);
			for (const itemIndex of itemIndexes) {
				preparations[itemIndex] = { ok: false, message: described.message, field: 'Remote Action', description: [described.description, nothingSent].filter(Boolean).join(' ') };
			}
			continue;
		}
		for (const itemIndex of itemIndexes) {
			const preparation = preparations[itemIndex] as { ok: true; prepared: Prepared };
			try {
				checkParamsAgainstInputs(remoteActionId, preparation.prepared.run.params, inputs);
			} catch (error) {
				preparations[itemIndex] = { ok: false, ...failureOf(error) };
			}
		}
	}
}

function withDescription(error: unknown, sentence: string): unknown {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.description = [typeof error.description === 'string' ? error.description : '', sentence].filter((part) => part !== '').join(' ');
	}
	return error;
}

/**
 * Wait for Results over the devices the run reached (each device once, even when several items
 * named it), then each waiting item's `results`, keyed by item index. Under "Stop Workflow" a
 * status query that fails stops the node, saying which requests ran (they are not sent again).
 */
async function waitForDevices(
	ctx: IExecuteFunctions,
	waiting: readonly Prepared[],
	outcomes: ReadonlyMap<number, RunOutcome>,
	continueOnFail: boolean,
	results: readonly RequestResult[],
): Promise<Map<number, IDataObject>> {
	const perItem = new Map<number, IDataObject>();
	const settings = waiting[0]?.wait;
	if (settings === undefined) return perItem;
	const sentDevices = (itemIndex: number) =>
		(outcomes.get(itemIndex)?.devices ?? []).flatMap((device) => (device.requestId !== undefined ? [{ id: device.collectorUid, requestId: device.requestId }] : []));
	const targets = new Map<string, WaitTarget>();
	for (const prepared of waiting) {
		for (const device of sentDevices(prepared.run.itemIndex)) {
			const target = { requestId: device.requestId, target: device.id };
			targets.set(targetKey(target), target);
		}
	}
	if (targets.size === 0) return perItem;
	const wait: ResultsWaitOutcome = await waitForResults(ctx, 'remote_action', [...targets.values()], settings, { timeoutMs: waiting[0].timeoutMs });
	if (wait.error !== undefined && !continueOnFail) {
		const requestIds = results.flatMap((result) => (result.ok ? [result.requestId] : []));
		throw withRequestsMade(new NodeOperationError(ctx.getNode(), wait.error.message, { description: wait.error.description }), requestIds);
	}
	for (const prepared of waiting) {
		const devices = sentDevices(prepared.run.itemIndex);
		if (devices.length === 0) continue;
		perItem.set(prepared.run.itemIndex, itemResults('collectorUid', devices, wait.resultOf, { ...wait, queryId: settings.queryId, maxWaitMs: settings.maxWaitMs }) as IDataObject);
	}
	return perItem;
}

function prepareItem(ctx: IExecuteFunctions, itemIndex: number): Prepared {
	const options = ctx.getNodeParameter('runOptions', itemIndex, {}) as IDataObject;
	const scriptInputs = ctx.getNodeParameter('scriptInputs', itemIndex, {}) as { value?: Record<string, unknown> | null };
	const parsed = parseCollectorUids(ctx.getNodeParameter('collectorUids', itemIndex));
	const run: PreparedRun = {
		itemIndex,
		remoteActionId: normaliseRemoteActionId(ctx.getNodeParameter('remoteAction', itemIndex, '', { extractValue: true })),
		params: checkScriptInputs(scriptInputs?.value),
		expiresInMinutes: checkExpiry(options.expiresInMinutes),
		devices: parsed.devices,
		duplicatesInItem: parsed.duplicates,
	};
	const triggerInfo = checkTriggerInfo(options);
	if (triggerInfo !== undefined) run.triggerInfo = triggerInfo;
	const timeoutMs = requestTimeoutMs(options.requestTimeoutSeconds, DEFAULT_REQUEST_TIMEOUT_SECONDS);
	const wait = readResultsWait(ctx, itemIndex);
	if (wait !== undefined && run.devices.length > RESULTS_MAX_TARGETS_PER_REQUEST) {
		throw new InputError(
			`One item names ${run.devices.length} devices; with Wait for Results an item may name at most ${RESULTS_MAX_TARGETS_PER_REQUEST} (one status query answer holds about ${RESULTS_MAX_TARGETS_PER_REQUEST} rows). Split the list over several items`,
			'Collector UIDs',
		);
	}
	const prepared: Prepared = { run, timeoutMs, validateOnly: toolWritesOff(ctx, options) };
	if (wait !== undefined) prepared.wait = wait;
	return prepared;
}
