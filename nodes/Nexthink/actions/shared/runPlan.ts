/**
 * Which items go together in which request, and what each gets back (no n8n imports). Why: docs/decisions.md,
 * "Actions node: remote actions, workflows, campaign trigger".
 */
import type { FailedRequest, RequestResult } from '../../shared/runItems';

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
export type TriggerInfo = Partial<Record<'externalSource' | 'reason' | 'externalReference', string>>;

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

/** A request's body, and the items with at least one device in it (in input order). */
export type PlannedRequest = RunPlan['requests'][number];

/** Where a target went: the request (index into `requests`), its position there, and the item whose entry was sent. */
export interface Sent {
	request: number;
	position: number;
	firstItem: number;
}

/**
 * The requests of `runs`, in input order: runs of one `group` may share a request, a target (by
 * `key`) an earlier item of the group sent is not sent again, and an item's new targets go together
 * into the group's last request while it `fits` them, else into a new one (`open`). Each item's
 * targets, in its order, are `place`d where they were sent.
 */
export function groupRequests<Run extends { itemIndex: number }, Target, Request extends { itemIndexes: number[] }, Placement>(
	runs: readonly Run[],
	how: {
		group(run: Run): string;
		targets(run: Run): readonly Target[];
		key(target: Target): string;
		open(run: Run): Request;
		fits(request: Request, fresh: readonly Target[]): boolean;
		/** Adds the target to the request's body; its position there. */
		add(request: Request, target: Target): number;
		place(target: Target, sent: Sent): Placement;
	},
): { requests: Request[]; placements: Map<number, Placement[]> } {
	const requests: Request[] = [];
	const placements = new Map<number, Placement[]>();
	const groups = new Map<string, { current: number; sent: Map<string, Sent> }>();
	for (const run of runs) {
		const key = how.group(run);
		let group = groups.get(key);
		if (group === undefined) {
			group = { current: -1, sent: new Map() };
			groups.set(key, group);
		}
		const fresh = how.targets(run).filter((target) => !group.sent.has(how.key(target)));
		if (fresh.length > 0 && (group.current < 0 || !how.fits(requests[group.current], fresh))) {
			requests.push(how.open(run));
			group.current = requests.length - 1;
		}
		for (const target of fresh) {
			group.sent.set(how.key(target), { request: group.current, position: how.add(requests[group.current], target), firstItem: run.itemIndex });
		}
		const sent = how.targets(run).map((target) => [target, group.sent.get(how.key(target)) as Sent] as const);
		placements.set(run.itemIndex, sent.map(([target, where]) => how.place(target, where)));
		for (const request of new Set(sent.map(([, where]) => where.request))) {
			if (!requests[request].itemIndexes.includes(run.itemIndex)) requests[request].itemIndexes.push(run.itemIndex);
		}
	}
	return { requests, placements };
}

export type RunPlan = ReturnType<typeof planRequests>;

export function planRequests(runs: readonly PreparedRun[], maxDevices = MAX_DEVICES_PER_REQUEST) {
	return groupRequests(runs, {
		group: groupKey,
		targets: (run) => run.devices,
		key: (device) => device.toLowerCase(),
		open: (run) => ({ body: bodyOf(run), itemIndexes: [] as number[] }),
		fits: (request, fresh) => request.body.devices.length + fresh.length <= maxDevices,
		add: (request, device) => request.body.devices.push(device) - 1,
		place: (collectorUid, { request, firstItem }) => ({ collectorUid, request, firstItem }),
	});
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

/** The outcome of one item (docs/actions.md); `results[i]` answers `plan.requests[i]`, undefined when only checked. */
export function runOutcome(run: PreparedRun, plan: RunPlan, results: ReadonlyArray<RequestResult<{ requestId: string; expiresInMinutes?: number }> | undefined> | undefined) {
	const requestIds: string[] = [];
	let error: ReturnType<typeof requestError> | undefined;
	let expiresInMinutes = run.expiresInMinutes;
	const devices = (plan.placements.get(run.itemIndex) ?? []).map((placement) => {
		const device: { collectorUid: string; requestId?: string; sentWithItem?: number; error?: string } = { collectorUid: placement.collectorUid };
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
		return device;
	});
	return {
		// the request's ID when all of the item's devices went in one request (the usual case)
		...(requestIds.length === 1 && error === undefined ? { requestId: requestIds[0] } : {}),
		status: results === undefined ? 'validated' : error === undefined ? 'triggered' : 'failed',
		remoteActionId: run.remoteActionId,
		requestIds,
		expiresInMinutes,
		devices,
		duplicates: run.duplicatesInItem,
		...(error !== undefined ? { error } : {}),
	};
}
