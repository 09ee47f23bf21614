/**
 * Device → Delete: one device per input item (UID and name), sent in batches of at most 100 distinct
 * devices (deleteInput.ts), each request with its own `x-request-id` UUID. Every input item gets
 * exactly one outcome under `nexthinkDevice`, paired with it, from the per-device answer:
 * `scheduled` (queued: Nexthink deletes it in the background, and there is no status to poll),
 * `invalid` (Nexthink judged the UID malformed and skipped it) or `failed` (Nexthink's FAILED, a
 * failed request, or an answer that does not account for the device).
 *
 * Hard to do by accident:
 * - every item is checked before the first request (a missing or malformed UID, a blank name), and
 *   under "Stop Workflow" one bad item means nothing is sent;
 * - Maximum Devices per Run fails the node before any request when the input holds more distinct
 *   devices, whatever the On Error setting;
 * - Preview (and an AI agent's tool run without "Allow Writes When Used as a Tool") sends nothing and
 *   returns the requests that would be sent, one item per batch;
 * - a request is never sent twice (api.ts); after a 401 or 403 the later batches are not sent.
 *
 * On Error as in Run Remote Action (remoteAction/run.operation.ts): under "Stop Workflow" a failed
 * request, or a device Nexthink did not schedule, stops the node after every request, saying which
 * requests did run; with "Continue" every item comes out with its outcome, and under "Continue (using
 * error output)" the invalid and failed ones go to the error output.
 */
import { randomUUID } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toolWritesOff, WRITES_OFF_NOTE } from '../../shared/toolMode';
import { readBoolean } from '../../shared/booleanParameter';
import { nodeErrorOf } from '../../shared/nodeErrors';
import { requestTimeoutMs } from '../../shared/requestTimeout';
import { sendPlannedRequests, withRequestsMade } from '../shared/runHelpers';
import { requestError, type FailedRequest } from '../shared/runPlan';
import { invalidItems, outcomeItems, prepareItems, stopIfAnyInvalid, type Preparation } from '../../shared/runItems';
import { KNOWN_DEVICE_STATUSES } from './answers';
import { DEFAULT_DELETION_REQUEST_TIMEOUT_SECONDS, deleteDevices, DELETIONS_PATH, type DeletionResult } from './api';
import {
	checkCount,
	checkDeviceName,
	checkDeviceUid,
	DEFAULT_MAX_DEVICES_PER_RUN,
	MAX_DEVICES_PER_DELETION,
	planDeletions,
	runCapProblem,
	type DeletionBatch,
	type DeletionPlan,
	type DeviceToDelete,
} from './deleteInput';

export const DEVICE_OUTCOME_KEY = 'nexthinkDevice';
export const DEVICE_PREVIEW_KEY = 'nexthinkDeletionPreview';

const QUEUED =
	'Nexthink queued the device for deletion (202). It is removed in the background and Nexthink offers no status to poll: check later in NQL that the device is no longer listed.';

interface RunSettings {
	maxPerRun: number;
	perRequest: number;
	timeoutMs: number;
	/** Preview, or a tool run without "Allow Writes When Used as a Tool". */
	sendNothing: 'preview' | 'tool' | false;
}

type BatchResult = ({ ok: true } & DeletionResult) | FailedRequest;

export async function executeDeleteDevices(this: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	const settings = readRunSettings(this);
	const preparations = prepareItems(this, (itemIndex) => prepareItem(this, itemIndex));
	const plan = planDeletions(
		preparations.flatMap((preparation, itemIndex) => (preparation.ok ? [{ itemIndex, device: preparation.prepared }] : [])),
		settings.perRequest,
	);
	for (const [itemIndex, message] of plan.conflicts) preparations[itemIndex] = { ok: false, message, field: 'Device UID' };
	if (!continueOnFail) stopIfAnyInvalid(this, invalidItems(preparations));
	const overCap = runCapProblem(plan.deviceCount, settings.maxPerRun);
	if (overCap !== undefined) throw new NodeOperationError(this.getNode(), overCap, { description: 'Maximum Devices per Run is a safety limit of Device → Delete; it applies whatever the On Error setting.' });

	if (settings.sendNothing !== false) return [previewItems(this, preparations, plan, settings.sendNothing)];

	const batches = plan.batches.map((batch) => ({ ...batch, requestId: randomUUID() }));
	const results: BatchResult[] = await sendPlannedRequests(this, batches, {
		continueOnFail,
		send: async (batch) => await deleteDevices(this, batch.devices, batch.requestId, { timeoutMs: settings.timeoutMs, itemIndex: batch.itemIndexes[0] }),
		requestIdsOf: (sent) => sent.flatMap((result, index) => (result.ok ? [batches[index].requestId] : [])),
		// one API, one permission: a 403 refuses every later batch too
		objectOf: () => DELETIONS_PATH,
	});

	const outcomes = new Map<number, IDataObject>();
	preparations.forEach((preparation, itemIndex) => {
		const placement = plan.placements.get(itemIndex);
		if (!preparation.ok || placement === undefined) return;
		outcomes.set(itemIndex, deviceOutcome(preparation.prepared, placement, batches[placement.batch], results[placement.batch], itemIndex));
	});
	if (!continueOnFail) throwIfAnyNotScheduled(this, outcomes, batches, results);
	return [outcomeItems(this, preparations, outcomes, DEVICE_OUTCOME_KEY, undefined, (outcome) => outcome.status !== 'scheduled')];
}

/** The run-wide settings, from the first item; a bad one fails the node before any request. */
function readRunSettings(ctx: IExecuteFunctions): RunSettings {
	try {
		const options = ctx.getNodeParameter('deviceOptions', 0, {}) as IDataObject;
		const preview = readBoolean(ctx.getNodeParameter('preview', 0, false), 'Preview', false);
		const asToolReadOnly = toolWritesOff(ctx, options);
		return {
			maxPerRun: checkCount(ctx.getNodeParameter('maxDevicesPerRun', 0, DEFAULT_MAX_DEVICES_PER_RUN), 'Maximum Devices per Run', DEFAULT_MAX_DEVICES_PER_RUN),
			perRequest: checkCount(options.devicesPerRequest, 'Devices per Request', MAX_DEVICES_PER_DELETION, MAX_DEVICES_PER_DELETION),
			timeoutMs: requestTimeoutMs(options.requestTimeoutSeconds, DEFAULT_DELETION_REQUEST_TIMEOUT_SECONDS),
			sendNothing: preview ? 'preview' : asToolReadOnly ? 'tool' : false,
		};
	} catch (error) {
		const nodeError = nodeErrorOf(ctx.getNode(), error);
		nodeError.description = [nodeError.description, 'Nothing was sent to Nexthink.'].filter((part) => typeof part === 'string' && part !== '').join(' ');
		throw nodeError;
	}
}

function prepareItem(ctx: IExecuteFunctions, itemIndex: number): DeviceToDelete {
	const options = ctx.getNodeParameter('deviceOptions', itemIndex, {}) as IDataObject;
	const uid = checkDeviceUid(ctx.getNodeParameter('deviceUid', itemIndex, ''), readBoolean(options.letNexthinkJudgeUids, 'Let Nexthink Judge Malformed UIDs', false));
	return { uid, name: checkDeviceName(ctx.getNodeParameter('deviceName', itemIndex, '')) };
}

/**
 * What would be sent, one output item per request (paired with the items whose devices it carries),
 * then the items that would not be sent (their checks failed) with their error.
 */
function previewItems(ctx: IExecuteFunctions, preparations: ReadonlyArray<Preparation<DeviceToDelete>>, plan: DeletionPlan, why: 'preview' | 'tool'): INodeExecutionData[] {
	const note =
		why === 'preview'
			? 'Preview: nothing was sent to Nexthink. Turn Preview off to send these requests (each gets its own x-request-id when sent).'
			: WRITES_OFF_NOTE;
	const sameAs = new Map<number, number[]>();
	for (const [itemIndex, placement] of plan.placements) {
		if (placement.firstItem !== itemIndex) sameAs.set(placement.firstItem, [...(sameAs.get(placement.firstItem) ?? []), itemIndex]);
	}
	const batchItems: INodeExecutionData[] = plan.batches.map((batch: DeletionBatch, index) => {
		const items = batch.itemIndexes.flatMap((itemIndex) => [itemIndex, ...(sameAs.get(itemIndex) ?? [])]).sort((a, b) => a - b);
		const preview: IDataObject = {
			batch: index + 1,
			batches: plan.batches.length,
			method: 'POST',
			path: DELETIONS_PATH,
			body: { devices: batch.devices.map((device) => ({ ...device })) } as IDataObject,
			items,
			note,
		};
		return { json: { [DEVICE_PREVIEW_KEY]: preview }, pairedItem: items.map((item) => ({ item })) };
	});
	// outcomeItems gives every input item its item; only the refused ones are kept (the others are in the batches)
	const placeholders = new Map(preparations.flatMap((preparation, itemIndex) => (preparation.ok ? [[itemIndex, { status: 'preview' }]] : [])));
	const refused = outcomeItems(ctx, preparations, placeholders, DEVICE_OUTCOME_KEY).filter((_item, itemIndex) => !preparations[itemIndex].ok);
	return [...batchItems, ...refused];
}

function deviceOutcome(
	device: DeviceToDelete,
	placement: { batch: number; position: number; firstItem: number },
	batch: DeletionBatch & { requestId: string },
	result: BatchResult,
	itemIndex: number,
): IDataObject {
	const outcome: IDataObject = { status: 'failed', uid: device.uid, name: device.name, requestId: batch.requestId, batch: placement.batch + 1 };
	if (placement.firstItem !== itemIndex) outcome.sentWithItem = placement.firstItem;
	if (!result.ok) {
		outcome.error = requestError(result);
		return outcome;
	}
	if (result.answeredRequestId !== undefined) outcome.answeredRequestId = result.answeredRequestId;
	if (result.traceId !== undefined) outcome.traceId = result.traceId;
	if (result.answer.scheduledCount !== undefined) outcome.scheduledCount = result.answer.scheduledCount;
	const deviceStatus = result.answer.statuses[placement.position];
	if (deviceStatus !== undefined) outcome.deviceStatus = deviceStatus;
	if (deviceStatus === 'SCHEDULED') return { ...outcome, status: 'scheduled', message: QUEUED };
	if (deviceStatus === 'INVALID') {
		return { ...outcome, status: 'invalid', error: { message: `Nexthink skipped device ${device.name} (${device.uid.slice(0, 60)}): it judged the UID malformed (INVALID). Check the UID; nothing was queued for this device` } };
	}
	outcome.error = {
		message:
			deviceStatus === 'FAILED'
				? `Nexthink could not schedule the deletion of device ${device.name} (FAILED: a downstream error in Nexthink). It was not queued; send it again later`
				: deviceStatus === undefined
					? `Nexthink's answer to request ${batch.requestId} did not list device ${device.name} (${device.uid}); whether it was queued is unknown: check in NQL whether it is still listed before sending it again`
					: `Nexthink answered the status "${deviceStatus.slice(0, 40)}" for device ${device.name}, which this node does not know (known: ${KNOWN_DEVICE_STATUSES.join(', ')}); whether it was queued is unknown: check in NQL whether it is still listed before sending it again`,
	};
	return outcome;
}

/** Under "Stop Workflow" a device Nexthink did not schedule fails the node, after every request. */
function throwIfAnyNotScheduled(ctx: IExecuteFunctions, outcomes: ReadonlyMap<number, IDataObject>, batches: ReadonlyArray<{ requestId: string }>, results: readonly BatchResult[]): void {
	const notScheduled = [...outcomes].filter(([, outcome]) => outcome.status !== 'scheduled');
	if (notScheduled.length === 0) return;
	const [itemIndex, first] = notScheduled[0];
	const scheduled = outcomes.size - notScheduled.length;
	const error = new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: ${(first.error as { message: string }).message}`, {
		itemIndex,
		description: `${notScheduled.length} of ${outcomes.size} item${outcomes.size === 1 ? '' : 's'} were not scheduled for deletion; ${scheduled} were. Set "On Error" to continue to get each item's outcome.`,
	});
	throw withRequestsMade(error, results.flatMap((result, index) => (result.ok ? [batches[index].requestId] : [])));
}
