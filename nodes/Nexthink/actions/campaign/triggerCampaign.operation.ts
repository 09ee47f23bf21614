/**
 * Trigger Campaign: like Run Remote Action (see remoteAction/run.operation.ts for the On Error
 * rules and the tool-mode protection), with users instead of devices. The answer reports each
 * distinct user: a `requestId` when the campaign was sent to that user, a `message` when not
 * (a 200 even when some or all users failed). Each item's outcome lists its users:
 * `triggered` when every one of them got a request, `partial` when some did, `failed` when none did.
 *
 * Grouping reuses shared/runPlan.ts: its "remote action ID / params / devices" are here
 * the campaign ID, its parameters and the user SIDs.
 *
 * With Wait for Results (shared/waitForResults.ts) the node then polls the user's status query
 * over campaign.responses for each user's request ID, at most `MAX_WAIT_REQUEST_IDS` users per run.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toolWritesOff } from '../../shared/toolMode';
import { planRequests, requestError, type FailedRequest, type PreparedRun } from '../shared/runPlan';
import { requestTimeoutMs } from '../../shared/requestTimeout';
import { itemResults, type WaitTarget } from '../shared/resultStatus';
import { sendPlannedRequests, withRequestsMade } from '../shared/runHelpers';
import { invalidItems, outcomeItems, prepareItems, stopIfAnyInvalid, type Preparation } from '../../shared/runItems';
import { checkSameWait, MAX_WAIT_REQUEST_IDS, readResultsWait, waitForResults, type ResultsWaitSettings } from '../shared/waitForResults';
import type { UserResult } from './answers';
import { DEFAULT_CAMPAIGN_REQUEST_TIMEOUT_SECONDS, triggerCampaign, type TriggerBody } from './api';
import { checkCampaignExpiry, checkCampaignParameters, normaliseCampaignId, parseUserSids } from './campaignInput';

export const CAMPAIGN_OUTCOME_KEY = 'nexthinkCampaign';

interface Prepared {
	run: PreparedRun;
	timeoutMs: number;
	validateOnly: boolean;
	wait?: ResultsWaitSettings;
}

type RequestResult = { ok: true; byUser: Map<string, UserResult> } | FailedRequest;

interface UserOutcome {
	userSid: string;
	requestId?: string;
	message?: string;
	sentWithItem?: number;
}

export async function executeTriggerCampaign(this: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	const preparations = prepareItems(this, (itemIndex) => prepareItem(this, itemIndex));
	checkSameWait(preparations);
	checkWaitedUsers(preparations);
	if (!continueOnFail) stopIfAnyInvalid(this, invalidItems(preparations));

	const ready = preparations.flatMap((preparation) => (preparation.ok ? [preparation.prepared] : []));
	const toSend = ready.filter((prepared) => !prepared.validateOnly);
	const plan = planRequests(toSend.map((prepared) => prepared.run));
	const checkPlan = planRequests(ready.filter((prepared) => prepared.validateOnly).map((prepared) => prepared.run));
	const timeoutOf = new Map(ready.map((prepared) => [prepared.run.itemIndex, prepared.timeoutMs]));

	const results: RequestResult[] = await sendPlannedRequests(this, plan.requests, {
		continueOnFail,
		send: async (request) => {
			const body: TriggerBody = { campaignNqlId: request.body.remoteActionId, userSid: request.body.devices, expiresInMinutes: request.body.expiresInMinutes };
			if (Object.keys(request.body.params).length > 0) body.parameters = request.body.params;
			return { byUser: await triggerCampaign(this, body, { timeoutMs: timeoutOf.get(request.itemIndexes[0]) as number, itemIndex: request.itemIndexes[0] }) };
		},
		requestIdsOf,
	});

	const outcomes = new Map<number, IDataObject>();
	for (const prepared of ready) {
		outcomes.set(prepared.run.itemIndex, outcomeOf(prepared, prepared.validateOnly ? checkPlan : plan, prepared.validateOnly ? undefined : results));
	}
	if (!continueOnFail) throwIfAnyUserFailed(this, outcomes);
	await waitForUsers(this, toSend.filter((prepared) => prepared.wait !== undefined), outcomes, continueOnFail, results);

	return [outcomeItems(this, preparations, outcomes, CAMPAIGN_OUTCOME_KEY)];
}

function prepareItem(ctx: IExecuteFunctions, itemIndex: number): Prepared {
	const options = ctx.getNodeParameter('campaignOptions', itemIndex, {}) as IDataObject;
	const parsed = parseUserSids(ctx.getNodeParameter('userSids', itemIndex));
	const entries = ctx.getNodeParameter('campaignParameters.parameter', itemIndex, []) as Array<{ name?: unknown; value?: unknown }>;
	const run: PreparedRun = {
		itemIndex,
		remoteActionId: normaliseCampaignId(ctx.getNodeParameter('campaignId', itemIndex)),
		params: checkCampaignParameters(entries),
		expiresInMinutes: checkCampaignExpiry(ctx.getNodeParameter('campaignExpiresInMinutes', itemIndex, undefined)),
		devices: parsed.users,
		duplicatesInItem: parsed.duplicates,
	};
	const timeoutMs = requestTimeoutMs(options.requestTimeoutSeconds, DEFAULT_CAMPAIGN_REQUEST_TIMEOUT_SECONDS);
	const prepared: Prepared = { run, timeoutMs, validateOnly: toolWritesOff(ctx, options) };
	const wait = readResultsWait(ctx, itemIndex);
	if (wait !== undefined) prepared.wait = wait;
	return prepared;
}

function outcomeOf(prepared: Prepared, plan: ReturnType<typeof planRequests>, results: readonly RequestResult[] | undefined): IDataObject {
	const { run } = prepared;
	const users: UserOutcome[] = [];
	let error: { message: string; description?: string; httpCode?: string } | undefined;
	for (const placement of plan.placements.get(run.itemIndex) ?? []) {
		const user: UserOutcome = { userSid: placement.collectorUid };
		if (placement.firstItem !== run.itemIndex) user.sentWithItem = placement.firstItem;
		const result = results?.[placement.request];
		if (result?.ok === true) {
			const answer = result.byUser.get(placement.collectorUid);
			if (answer?.requestId !== undefined) user.requestId = answer.requestId;
			else user.message = answer?.message ?? 'Nexthink did not report this user in its answer';
		} else if (result !== undefined) {
			user.message = result.message;
			error ??= requestError(result);
		}
		users.push(user);
	}
	const sent = users.filter((user) => user.requestId !== undefined).length;
	const status = results === undefined ? 'validated' : sent === users.length ? 'triggered' : sent === 0 ? 'failed' : 'partial';
	const outcome: IDataObject = { status, campaignId: run.remoteActionId, expiresInMinutes: run.expiresInMinutes };
	if (users.length === 1 && users[0].requestId !== undefined) outcome.requestId = users[0].requestId;
	outcome.users = users as unknown as IDataObject[];
	outcome.duplicates = run.duplicatesInItem;
	if (status === 'failed' || status === 'partial') {
		const failedUser = users.find((user) => user.requestId === undefined);
		outcome.error = error ?? { message: `${users.length - sent} of ${users.length} users did not get the campaign; the first, ${failedUser?.userSid}: ${failedUser?.message}` };
	}
	return outcome;
}

/** Under "Stop Workflow" a user the campaign did not reach (a 200 with a message) fails the run, after every request. */
function throwIfAnyUserFailed(ctx: IExecuteFunctions, outcomes: ReadonlyMap<number, IDataObject>): void {
	const failed = [...outcomes].filter(([, outcome]) => outcome.status === 'failed' || outcome.status === 'partial');
	if (failed.length === 0) return;
	const [itemIndex, first] = failed[0];
	throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: ${(first.error as { message: string }).message}`, {
		itemIndex,
		description: `${failed.length} item${failed.length === 1 ? '' : 's'} had users the campaign did not reach. The other users did get it: running all items again sends it to them again. Set "On Error" to continue to get each item's users with their request ID or Nexthink's message.`,
	});
}

/**
 * Wait for Results follows one request ID per user: at most MAX_WAIT_REQUEST_IDS distinct users
 * over the waiting items of a run. The item that goes past it fails before any request.
 */
function checkWaitedUsers(preparations: Array<Preparation<Prepared>>): void {
	const users = new Set<string>();
	preparations.forEach((preparation, itemIndex) => {
		if (!preparation.ok || preparation.prepared.wait === undefined || preparation.prepared.validateOnly) return;
		const fresh = preparation.prepared.run.devices.filter((sid) => !users.has(sid));
		if (users.size + fresh.length > MAX_WAIT_REQUEST_IDS) {
			preparations[itemIndex] = {
				ok: false,
				field: 'Wait for Results',
				message: `With Wait for Results a run follows at most ${MAX_WAIT_REQUEST_IDS} users (each user's campaign has its own request ID, and every poll reads each one); this item brings the run to ${users.size + fresh.length}. Send the other users in another run, or trigger without waiting and read campaign.responses later`,
			};
			return;
		}
		for (const sid of fresh) users.add(sid);
	});
}

/** Wait for Results over the users who got the campaign; adds `results` to each waiting item's outcome. */
async function waitForUsers(
	ctx: IExecuteFunctions,
	waiting: readonly Prepared[],
	outcomes: Map<number, IDataObject>,
	continueOnFail: boolean,
	results: readonly RequestResult[],
): Promise<void> {
	const settings = waiting[0]?.wait;
	if (settings === undefined) return;
	const reached = (itemIndex: number) =>
		((outcomes.get(itemIndex)?.users ?? []) as unknown as UserOutcome[]).flatMap((user) => (user.requestId !== undefined ? [{ id: user.userSid, requestId: user.requestId }] : []));
	const targets = new Map<string, WaitTarget>();
	for (const prepared of waiting) for (const user of reached(prepared.run.itemIndex)) targets.set(user.requestId, { requestId: user.requestId, target: user.id });
	if (targets.size === 0) return;
	const wait = await waitForResults(ctx, 'campaign', [...targets.values()], settings, { timeoutMs: waiting[0].timeoutMs });
	if (wait.error !== undefined && !continueOnFail) {
		throw withRequestsMade(new NodeOperationError(ctx.getNode(), wait.error.message, { description: wait.error.description }), requestIdsOf(results));
	}
	for (const prepared of waiting) {
		const users = reached(prepared.run.itemIndex);
		const outcome = outcomes.get(prepared.run.itemIndex);
		if (users.length === 0 || outcome === undefined) continue;
		outcome.results = itemResults('userSid', users, wait.resultOf, { ...wait, queryId: settings.queryId, maxWaitMs: settings.maxWaitMs }) as IDataObject;
	}
}

function requestIdsOf(results: readonly RequestResult[]): string[] {
	return results.flatMap((result) => (result.ok ? [...result.byUser.values()].flatMap((user) => (user.requestId !== undefined ? [user.requestId] : [])) : []));
}
