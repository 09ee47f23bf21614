/**
 * Run Workflow's requests, outcomes and followed targets (no n8n imports). Why: docs/decisions.md, rows
 * beginning "Workflow: grouping", "Workflow: execution IDs", "1,000 workflow targets" and "Workflow targets".
 */
import type { RequestResult } from '../../shared/runItems';
import { groupRequests, requestError } from '../shared/runPlan';
import type { WorkflowExecutionAnswer } from './answers';
import { MAX_WORKFLOW_TARGETS_PER_LIST, type ApiVersion, type WorkflowTarget } from './runInput';

export interface PreparedWorkflowRun {
	itemIndex: number;
	workflowId: string;
	version: ApiVersion;
	params: Record<string, string>;
	/** Distinct within the item. */
	targets: WorkflowTarget[];
	duplicatesInItem: string[];
}

/** v1: `devices`/`users` are strings; v2: identifier objects. `params` only when there is one. */
export interface WorkflowExecutionBody {
	workflowId: string;
	devices: Array<string | Record<string, string>>;
	users: Array<string | Record<string, string>>;
	params?: Record<string, string>;
}

/** A request's API version and body, and the items with at least one target in it (in input order). */
export type PlannedWorkflowRequest = WorkflowPlan['requests'][number];

/** A target's `position` is in its request's `devices` or `users`. */
export type WorkflowPlan = ReturnType<typeof planWorkflowRequests>;

export function planWorkflowRequests(runs: readonly PreparedWorkflowRun[], maxPerList = MAX_WORKFLOW_TARGETS_PER_LIST, maxPerRequest = Infinity) {
	return groupRequests(runs, {
		group: (run) => JSON.stringify([run.workflowId, run.version, Object.entries(run.params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]),
		targets: (run) => run.targets,
		key: (target) => target.key,
		open(run) {
			const body: WorkflowExecutionBody = { workflowId: run.workflowId, devices: [], users: [] };
			if (Object.keys(run.params).length > 0) body.params = { ...run.params };
			return { version: run.version, body, itemIndexes: [] as number[] };
		},
		fits({ body }, fresh) {
			const devices = fresh.filter((target) => target.kind === 'device').length;
			return (
				body.devices.length + devices <= maxPerList &&
				body.users.length + fresh.length - devices <= maxPerList &&
				body.devices.length + body.users.length + fresh.length <= maxPerRequest
			);
		},
		add({ version, body }, target) {
			const list = target.kind === 'device' ? body.devices : body.users;
			return list.push(version === 'v1' ? Object.values(target.ids)[0] : { ...target.ids }) - 1;
		},
		place: (target, sent) => ({ target, ...sent }),
	});
}

export interface WorkflowTargetOutcome {
	type: 'device' | 'user';
	collectorUid?: string;
	uid?: string;
	name?: string;
	sid?: string;
	upn?: string;
	requestId?: string;
	executionId?: string;
	sentWithItem?: number;
	error?: string;
}

/** The outcome of one item (docs/actions.md); `results[i]` answers `plan.requests[i]`, undefined when only checked. */
export function workflowRunOutcome(run: PreparedWorkflowRun, plan: WorkflowPlan, results: ReadonlyArray<RequestResult<WorkflowExecutionAnswer> | undefined> | undefined) {
	const targets: WorkflowTargetOutcome[] = [];
	const requestIds: string[] = [];
	const executionIds: string[] = [];
	let paired = true;
	let error: ReturnType<typeof requestError> | undefined;
	for (const placement of plan.placements.get(run.itemIndex) ?? []) {
		const target: WorkflowTargetOutcome = { type: placement.target.kind, ...placement.target.ids };
		if (placement.firstItem !== run.itemIndex) target.sentWithItem = placement.firstItem;
		const result = results?.[placement.request];
		if (result?.ok === true) {
			target.requestId = result.requestUuid;
			if (!requestIds.includes(result.requestUuid)) requestIds.push(result.requestUuid);
			const { body } = plan.requests[placement.request];
			if (result.executionsUuids.length === body.devices.length + body.users.length) {
				const executionId = result.executionsUuids[(placement.target.kind === 'device' ? 0 : body.devices.length) + placement.position];
				target.executionId = executionId;
				executionIds.push(executionId);
			} else {
				paired = false;
			}
		} else if (result !== undefined) {
			target.error = result.message;
			error ??= requestError(result);
		}
		targets.push(target);
	}
	return {
		status: results === undefined ? 'validated' : error === undefined ? 'triggered' : 'failed',
		workflowId: run.workflowId,
		apiVersion: run.version,
		...(requestIds.length === 1 && error === undefined ? { requestId: requestIds[0] } : {}),
		requestIds,
		// in the order of `targets`; false `executionIdsPaired`: the answer had not one execution ID per target sent
		executionIds,
		...(paired ? {} : { executionIdsPaired: false }),
		targets,
		duplicates: run.duplicatesInItem,
		...(error !== undefined ? { error } : {}),
	};
}

/** An item's `results` with the targets the wait could not follow: counted, `complete` false, `message` says why. */
export function withUnfollowed(results: Record<string, unknown>, unfollowed: number, queryId: string): Record<string, unknown> {
	if (unfollowed === 0) return results;
	const sentence = `${unfollowed} target${unfollowed === 1 ? '' : 's'} ran but could not be followed: Nexthink's answer did not give one execution ID per target (executionIdsPaired false), so the status rows cannot be paired with ${unfollowed === 1 ? 'it' : 'them'}. Read ${unfollowed === 1 ? 'it' : 'them'} with ${queryId} and the request ID.`;
	const { targets, message, ...rest } = results;
	return {
		...rest,
		complete: false,
		unfollowed,
		message: typeof message === 'string' ? `${message} ${sentence}` : sentence,
		targets,
	};
}
