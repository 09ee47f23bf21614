/**
 * Trigger Campaign: like Run Remote Action, with users as its devices (shared/runPlan.ts). Why: docs/decisions.md,
 * rows "Campaign partial success" and "100 campaign users per run while waiting".
 */
import { updateDisplayOptions } from 'n8n-workflow';

import { ALLOWED_CAMPAIGNS, allowListOption } from '../../shared/toolMode';
import { planRequests, requestError, type PlannedRequest, type PreparedRun, type RunPlan } from '../shared/runPlan';
import type { BatchedOperation, Preparation, RequestResult } from '../../shared/runItems';
import { checkSameWait, MAX_WAIT_REQUEST_IDS, preparedRunItem, waitForItems, waitForResultsProperties, waitOptions, type PreparedRunItem } from '../shared/waitForResults';
import type { UserResult } from './answers';
import { triggerCampaign, type TriggerBody } from './api';
import { writeOptions } from '../shared/panelFields';
import { pairsCollection } from '../../shared/optionFields';
import { checkCampaignExpiry, checkCampaignParameters, DEFAULT_CAMPAIGN_EXPIRY_MINUTES, MAX_CAMPAIGN_EXPIRY_MINUTES, MIN_CAMPAIGN_EXPIRY_MINUTES, normaliseCampaignId, parseUserSids } from './campaignInput';
import { show } from './description';

export const description = updateDisplayOptions(show, [
	{
		displayName: 'Campaign NQL ID',
		name: 'campaignId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '#it_satisfaction',
		description:
			'The campaign\'s NQL ID ("Copy NQL ID" in Campaigns > Manage campaigns). The Campaigns API cannot list campaigns, so it is typed. The campaign needs its "API" checkbox ticked.',
	},
	{
		displayName: 'User SIDs',
		name: 'userSids',
		type: 'string',
		default: '={{ $json["user.sid"] }}',
		required: true,
		description:
			'The target users of this item by SID (user.sid): one, several separated by commas or line breaks, or a list from an expression. The Campaigns API accepts SIDs only.',
	},
	{
		displayName: 'Expires After (Minutes)',
		name: 'campaignExpiresInMinutes',
		type: 'number',
		typeOptions: { minValue: MIN_CAMPAIGN_EXPIRY_MINUTES, maxValue: MAX_CAMPAIGN_EXPIRY_MINUTES },
		default: DEFAULT_CAMPAIGN_EXPIRY_MINUTES,
		required: true,
		description: 'How long users may still answer, counted from now: 1 to 525,600 minutes (one year)',
	},
	pairsCollection(
		{ displayName: 'Parameters', name: 'campaignParameters', placeholder: 'Add Parameter', description: "The campaign's parameters (at most 30). Nexthink expects exactly the campaign's parameter IDs." },
		{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'device_name' },
	),
	...waitForResultsProperties('campaign.responses', '#n8n_campaign_status'),
	writeOptions(show, 'send the campaign', 'Longest time the request may take. A trigger that times out is not sent again (it may have reached users).', [
		allowListOption(ALLOWED_CAMPAIGNS, '#it_satisfaction'),
		...waitOptions(),
	]),
]);

type Prepared = PreparedRunItem<PreparedRun>;

type Sent = { byUser: Map<string, UserResult> };

interface UserOutcome {
	userSid: string;
	requestId?: string;
	message?: string;
	sentWithItem?: number;
}

export const triggerCampaignOperation: BatchedOperation<undefined, Prepared, PlannedRequest, Sent, RunPlan, ReturnType<typeof outcomeOf>> = {
	outcomeKey: 'nexthinkCampaign',
	done: 'triggered',
	prepare(itemIndex) {
		const parsed = parseUserSids(this.getNodeParameter('userSids', itemIndex));
		const entries = this.getNodeParameter('campaignParameters.parameter', itemIndex, []) as Array<{ name?: unknown; value?: unknown }>;
		const run: PreparedRun = {
			itemIndex,
			remoteActionId: normaliseCampaignId(this.getNodeParameter('campaignId', itemIndex)),
			params: checkCampaignParameters(entries),
			expiresInMinutes: checkCampaignExpiry(this.getNodeParameter('campaignExpiresInMinutes', itemIndex, undefined)),
			devices: parsed.users,
			duplicatesInItem: parsed.duplicates,
		};
		return preparedRunItem(this, itemIndex, run, run.remoteActionId, ALLOWED_CAMPAIGNS);
	},
	check(preparations) {
		checkSameWait(preparations);
		checkWaitedUsers(preparations);
	},
	validateOnly: (prepared) => prepared.validateOnly,
	plan: (itemIndexes, { items }) => planRequests(itemIndexes.map((itemIndex) => (items.get(itemIndex) as Prepared).run)),
	async send(request, { items }) {
		const [itemIndex] = request.itemIndexes;
		const body: TriggerBody = { campaignNqlId: request.body.remoteActionId, userSid: request.body.devices, expiresInMinutes: request.body.expiresInMinutes };
		if (Object.keys(request.body.params).length > 0) body.parameters = request.body.params;
		return { byUser: await triggerCampaign(this, body, { timeoutMs: (items.get(itemIndex) as Prepared).timeoutMs, itemIndex }) };
	},
	refusedObject: (request) => request.body.remoteActionId,
	requestIds: (_request, result) => [...result.byUser.values()].flatMap((user) => (user.requestId !== undefined ? [user.requestId] : [])),
	outcomes(plan, results, { items }) {
		return new Map([...plan.placements.keys()].map((itemIndex) => [itemIndex, outcomeOf((items.get(itemIndex) as Prepared).run, plan, results)]));
	},
	// a user left out fails the run under "Stop Workflow", even in a `partial` item; only a `failed` one goes to the error output
	succeeded: (outcome) => outcome.status === 'triggered' || outcome.status === 'validated',
	async afterSending(outcomes, { items }) {
		return await waitForItems(this, 'campaign', items, outcomes, 'userSid', (outcome) => outcome.users);
	},
};

function outcomeOf(run: PreparedRun, plan: RunPlan, results: ReadonlyArray<RequestResult<Sent>> | undefined) {
	const users: UserOutcome[] = [];
	let error: ReturnType<typeof requestError> | undefined;
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
	const failedUser = users.find((user) => user.requestId === undefined);
	return {
		status,
		campaignId: run.remoteActionId,
		expiresInMinutes: run.expiresInMinutes,
		...(users.length === 1 && users[0].requestId !== undefined ? { requestId: users[0].requestId } : {}),
		users,
		duplicates: run.duplicatesInItem,
		...(status === 'failed' || status === 'partial'
			? { error: error ?? { message: `${users.length - sent} of ${users.length} users did not get the campaign; the first, ${failedUser?.userSid}: ${failedUser?.message}` } }
			: {}),
	};
}

/** Wait for Results follows at most MAX_WAIT_REQUEST_IDS distinct users per run; the item that goes past it fails. */
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
