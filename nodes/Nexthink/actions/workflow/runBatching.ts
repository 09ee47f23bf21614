/**
 * Run Workflow: which items go together in which request, and what each item gets back (no n8n
 * imports): the grouping of Run Remote Action (shared/runPlan.ts) with devices and users, and each
 * target's execution ID paired by position. Why: docs/decisions.md, rows "Workflow: grouping and
 * duplicates", "Workflow: execution IDs per target" and "1,000 workflow targets per request while waiting".
 */
import type { RequestResult } from '../../shared/runBatched';
import { requestError } from '../shared/runPlan';
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

export interface PlannedWorkflowRequest {
	version: ApiVersion;
	body: WorkflowExecutionBody;
	/** Items with at least one target in this request, in input order. */
	itemIndexes: number[];
}

interface Placement {
	target: WorkflowTarget;
	request: number;
	/** Position in the request's `devices` or `users`. */
	position: number;
	firstItem: number;
}

export interface WorkflowPlan {
	requests: PlannedWorkflowRequest[];
	placements: Map<number, Placement[]>;
}

export function planWorkflowRequests(runs: readonly PreparedWorkflowRun[], maxPerList = MAX_WORKFLOW_TARGETS_PER_LIST, maxPerRequest = Infinity): WorkflowPlan {
	const requests: PlannedWorkflowRequest[] = [];
	const placements = new Map<number, Placement[]>();
	const groups = new Map<string, { current: number; sent: Map<string, Omit<Placement, 'target'>> }>();
	for (const run of runs) {
		const key = JSON.stringify([run.workflowId, run.version, Object.entries(run.params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
		let group = groups.get(key);
		if (group === undefined) {
			group = { current: -1, sent: new Map() };
			groups.set(key, group);
		}
		const fresh = run.targets.filter((target) => !group.sent.has(target.key));
		const freshDevices = fresh.filter((target) => target.kind === 'device').length;
		const freshUsers = fresh.length - freshDevices;
		const current = group.current < 0 ? undefined : requests[group.current];
		if (
			fresh.length > 0 &&
			(current === undefined ||
				current.body.devices.length + freshDevices > maxPerList ||
				current.body.users.length + freshUsers > maxPerList ||
				current.body.devices.length + current.body.users.length + fresh.length > maxPerRequest)
		) {
			const body: WorkflowExecutionBody = { workflowId: run.workflowId, devices: [], users: [] };
			if (Object.keys(run.params).length > 0) body.params = { ...run.params };
			requests.push({ version: run.version, body, itemIndexes: [] });
			group.current = requests.length - 1;
		}
		for (const target of fresh) {
			const list = target.kind === 'device' ? requests[group.current].body.devices : requests[group.current].body.users;
			list.push(run.version === 'v1' ? Object.values(target.ids)[0] : { ...target.ids });
			group.sent.set(target.key, { request: group.current, position: list.length - 1, firstItem: run.itemIndex });
		}
		const placed = run.targets.map((target) => ({ target, ...(group.sent.get(target.key) as Omit<Placement, 'target'>) }));
		placements.set(run.itemIndex, placed);
		for (const request of new Set(placed.map((placement) => placement.request))) {
			if (!requests[request].itemIndexes.includes(run.itemIndex)) requests[request].itemIndexes.push(run.itemIndex);
		}
	}
	return { requests, placements };
}

export type WorkflowRequestResult = RequestResult<WorkflowExecutionAnswer>;

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

export interface WorkflowRunOutcome {
	status: 'triggered' | 'failed' | 'validated';
	workflowId: string;
	apiVersion: ApiVersion;
	requestId?: string;
	requestIds: string[];
	/** This item's execution IDs, in the order of `targets` (only when they could be paired). */
	executionIds: string[];
	/** False when Nexthink's answer had a different number of execution IDs than targets sent. */
	executionIdsPaired?: boolean;
	targets: WorkflowTargetOutcome[];
	duplicates: string[];
	error?: { message: string; description?: string; httpCode?: string };
}

/** `results[i]` answers `plan.requests[i]`; undefined in validate-only runs (nothing sent). */
export function workflowRunOutcome(run: PreparedWorkflowRun, plan: WorkflowPlan, results: ReadonlyArray<WorkflowRequestResult | undefined> | undefined): WorkflowRunOutcome {
	const targets: WorkflowTargetOutcome[] = [];
	const requestIds: string[] = [];
	const executionIds: string[] = [];
	let paired = true;
	let error: WorkflowRunOutcome['error'];
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
	const outcome: WorkflowRunOutcome = {
		status: results === undefined ? 'validated' : error === undefined ? 'triggered' : 'failed',
		workflowId: run.workflowId,
		apiVersion: run.version,
	} as WorkflowRunOutcome;
	if (requestIds.length === 1 && error === undefined) outcome.requestId = requestIds[0];
	outcome.requestIds = requestIds;
	outcome.executionIds = executionIds;
	if (!paired) outcome.executionIdsPaired = false;
	outcome.targets = targets;
	outcome.duplicates = run.duplicatesInItem;
	if (error !== undefined) outcome.error = error;
	return outcome;
}
