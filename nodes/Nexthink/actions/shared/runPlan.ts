/**
 * Run Remote Action and Trigger Campaign: which items go together in which request, and what each
 * item gets back (no n8n imports). Why (grouping key, 10,000 devices, duplicates): docs/decisions.md,
 * "Actions node: remote actions, workflows, campaign trigger".
 */
import type { FailedRequest, RequestResult } from '../../shared/runBatched';

/** The `error` an item's outcome carries for a failed request: its message, and its description and HTTP code when known. */
export function requestError(result: FailedRequest): { message: string; description?: string; httpCode?: string } {
	return {
		message: result.message,
		...(result.description !== undefined ? { description: result.description } : {}),
		...(result.httpCode !== undefined ? { httpCode: result.httpCode } : {}),
	};
}

/** The Remote Actions API's limit of devices per execution request (ExecutionRequest). */
export const MAX_DEVICES_PER_REQUEST = 10_000;

/** Why and from where a run was asked for (`triggerInfo` of the request body). */
export interface TriggerInfo {
	externalSource?: string;
	reason?: string;
	externalReference?: string;
}

export interface PreparedRun {
	itemIndex: number;
	remoteActionId: string;
	params: Record<string, string>;
	expiresInMinutes: number;
	triggerInfo?: TriggerInfo;
	/** Distinct within the item. */
	devices: string[];
	/** Entries the item named more than once. */
	duplicatesInItem: string[];
}

/** The documented ExecutionRequest body. */
export type ExecutionBody = Omit<PreparedRun, 'itemIndex' | 'duplicatesInItem'>;

export interface PlannedRequest {
	body: ExecutionBody;
	/** Items with at least one device in this request, in input order. */
	itemIndexes: number[];
}

export interface DevicePlacement {
	collectorUid: string;
	/** Index into `requests`. */
	request: number;
	/** The item whose device entry was sent (this item, or an earlier one with the same device). */
	firstItem: number;
}

export interface RunPlan {
	requests: PlannedRequest[];
	/** Item index → where each of its devices went, in the item's order. */
	placements: Map<number, DevicePlacement[]>;
}

export function planRequests(runs: readonly PreparedRun[], maxDevices = MAX_DEVICES_PER_REQUEST): RunPlan {
	const requests: PlannedRequest[] = [];
	const placements = new Map<number, DevicePlacement[]>();
	const groups = new Map<string, { current: number; sent: Map<string, { request: number; firstItem: number }> }>();
	for (const run of runs) {
		const key = groupKey(run);
		let group = groups.get(key);
		if (group === undefined) {
			group = { current: -1, sent: new Map() };
			groups.set(key, group);
		}
		const fresh = run.devices.filter((device) => !group.sent.has(device.toLowerCase()));
		if (fresh.length > 0 && (group.current < 0 || requests[group.current].body.devices.length + fresh.length > maxDevices)) {
			requests.push({ body: bodyOf(run), itemIndexes: [] });
			group.current = requests.length - 1;
		}
		for (const device of fresh) {
			requests[group.current].body.devices.push(device);
			group.sent.set(device.toLowerCase(), { request: group.current, firstItem: run.itemIndex });
		}
		const placed = run.devices.map((device) => {
			const sent = group.sent.get(device.toLowerCase()) as { request: number; firstItem: number };
			return { collectorUid: device, request: sent.request, firstItem: sent.firstItem };
		});
		placements.set(run.itemIndex, placed);
		for (const request of new Set(placed.map((placement) => placement.request))) {
			if (!requests[request].itemIndexes.includes(run.itemIndex)) requests[request].itemIndexes.push(run.itemIndex);
		}
	}
	return { requests, placements };
}

function bodyOf(run: PreparedRun): ExecutionBody {
	const body: ExecutionBody = { remoteActionId: run.remoteActionId, devices: [], params: { ...run.params }, expiresInMinutes: run.expiresInMinutes };
	if (run.triggerInfo !== undefined) body.triggerInfo = { ...run.triggerInfo };
	return body;
}

/** Same key = may share a request. Object keys are sorted so that the order of inputs does not matter. */
function groupKey(run: PreparedRun): string {
	const sorted = (record: Record<string, string> | TriggerInfo | undefined) =>
		record === undefined ? null : Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return JSON.stringify([run.remoteActionId, sorted(run.params), run.expiresInMinutes, sorted(run.triggerInfo)]);
}


export interface DeviceOutcome {
	collectorUid: string;
	requestId?: string;
	/** Set when an earlier item named the same device: it was sent once, with that item. */
	sentWithItem?: number;
	error?: string;
}

export interface RunOutcome {
	status: 'triggered' | 'failed' | 'validated';
	remoteActionId: string;
	/** The request's ID when all of this item's devices went in one request (the usual case). */
	requestId?: string;
	requestIds: string[];
	expiresInMinutes: number;
	devices: DeviceOutcome[];
	/** Devices this item named more than once (sent once). */
	duplicates: string[];
	/** First failure, for items with status `failed`. */
	error?: { message: string; description?: string; httpCode?: string };
}

/**
 * The outcome of one prepared item. `results[i]` is the result of `plan.requests[i]`, or
 * undefined in validate-only runs (nothing sent).
 */
export function runOutcome(run: PreparedRun, plan: RunPlan, results: ReadonlyArray<RequestResult<{ requestId: string; expiresInMinutes?: number }> | undefined> | undefined): RunOutcome {
	const placements = plan.placements.get(run.itemIndex) ?? [];
	const devices: DeviceOutcome[] = [];
	const requestIds: string[] = [];
	let error: RunOutcome['error'];
	let expiresInMinutes = run.expiresInMinutes;
	for (const placement of placements) {
		const device: DeviceOutcome = { collectorUid: placement.collectorUid };
		if (placement.firstItem !== run.itemIndex) device.sentWithItem = placement.firstItem;
		const result = results?.[placement.request];
		if (result?.ok === true) {
			device.requestId = result.requestId;
			if (!requestIds.includes(result.requestId)) requestIds.push(result.requestId);
			if (result.expiresInMinutes !== undefined) expiresInMinutes = result.expiresInMinutes;
		} else if (result !== undefined) {
			device.error = result.message;
			error ??= requestError(result);
		}
		devices.push(device);
	}
	const outcome: RunOutcome = {
		status: results === undefined ? 'validated' : error === undefined ? 'triggered' : 'failed',
		remoteActionId: run.remoteActionId,
		requestIds,
		expiresInMinutes,
		devices,
		duplicates: run.duplicatesInItem,
	};
	if (requestIds.length === 1 && error === undefined) outcome.requestId = requestIds[0];
	if (error !== undefined) outcome.error = error;
	return { ...(outcome.requestId !== undefined ? { requestId: outcome.requestId } : {}), ...outcome };
}
