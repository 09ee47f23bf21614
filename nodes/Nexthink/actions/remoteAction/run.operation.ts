/**
 * Run Remote Action: every item is checked first (nothing is sent while any item is bad under
 * "Stop Workflow"), the valid items are grouped and sent (runBatching.ts), and each input item
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
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runsAsTool } from '../../shared/toolMode';
import { sendPlannedRequests, throwIfAnyInvalid, type ItemPreparation } from '../shared/runHelpers';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, executeRemoteAction } from './api';
import { planRequests, runOutcome, type PreparedRun, type RequestResult, type RunOutcome } from './runBatching';
import { checkExpiry, checkRequestTimeout, checkScriptInputs, checkTriggerInfo, normaliseRemoteActionId, parseCollectorUids, RunInputError } from './runInput';

export const OUTCOME_KEY = 'nexthinkRemoteAction';

interface Prepared {
	run: PreparedRun;
	timeoutMs: number;
	/** As a tool without "Allow Writes When Used as a Tool": check only. */
	validateOnly: boolean;
}

type Preparation = ItemPreparation<Prepared>;

export async function executeRunRemoteAction(this: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const asTool = runsAsTool(this);
	const preparations = items.map((_item, itemIndex) => prepareItem(this, itemIndex, asTool, continueOnFail));
	if (!continueOnFail) throwIfAnyInvalid(this, preparations);

	const ready = preparations.flatMap((preparation) => (preparation.ok ? [preparation.prepared] : []));
	const toSend = ready.filter((prepared) => !prepared.validateOnly);
	const toCheck = ready.filter((prepared) => prepared.validateOnly);
	const plan = planRequests(toSend.map((prepared) => prepared.run));
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

	const toErrorOutput = this.getNode().onError === 'continueErrorOutput';
	return [
		items.map((item, itemIndex) => {
			const preparation = preparations[itemIndex];
			const outcome: IDataObject = preparation.ok
				? (outcomes.get(itemIndex) as unknown as IDataObject)
				: { status: 'failed', error: { message: preparation.message, field: preparation.field } };
			if (outcome.status === 'failed' && toErrorOutput) {
				// n8n sends an item whose only key is `error` to the error output (n8n-core
				// `handleNodeErrorOutput`, 1.x and 2.x) and adds the paired input item's JSON to it.
				const message = (outcome.error as { message: string }).message;
				return { json: { error: { message: `Item ${itemIndex}: ${message}`, ...outcome } }, pairedItem: { item: itemIndex } };
			}
			return { json: { ...item.json, [OUTCOME_KEY]: outcome }, pairedItem: { item: itemIndex } };
		}),
	];
}

function prepareItem(ctx: IExecuteFunctions, itemIndex: number, asTool: boolean, continueOnFail: boolean): Preparation {
	try {
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
		const timeoutMs = checkRequestTimeout(options.requestTimeoutSeconds, DEFAULT_REQUEST_TIMEOUT_SECONDS);
		return { ok: true, prepared: { run, timeoutMs, validateOnly: asTool && options.allowWritesAsTool !== true } };
	} catch (error) {
		if (error instanceof RunInputError) return { ok: false, message: error.message, field: error.field };
		// anything else (an expression that fails) stops the run unless the user chose to continue
		if (!continueOnFail) throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
		return { ok: false, message: error instanceof Error ? error.message : String(error) };
	}
}
