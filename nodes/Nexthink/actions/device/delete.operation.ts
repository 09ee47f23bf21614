/**
 * Device → Delete: one device per item, sent in batches (deleteInput.ts), each with its own `x-request-id`.
 * Why: docs/decisions.md, "Actions node: Device → Delete and Spark → Hand Off Conversation".
 */
import { randomUUID } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { toolWritesOff, WRITES_OFF_NOTE } from '../../shared/toolMode';
import { readBoolean, readWholeNumber } from '../../shared/parameterValues';
import { requestError } from '../shared/runPlan';
import { type BatchedOperation, outcomeItems, type Preparation, type RequestResult } from '../../shared/runItems';
import { KNOWN_DEVICE_STATUSES } from './answers';
import { deleteDevices, DELETIONS_PATH, type DeletionResult } from './api';
import {
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
import { readTimeoutMs, writeOptions } from '../shared/panelFields';
import { notice } from '../../shared/optionFields';
import { show } from './description';

export const description = updateDisplayOptions(show, [
	notice(
		'deleteNotice',
		'Deletes the devices from the Nexthink inventory. Nexthink only queues each deletion (202) and offers no status to poll: check later in NQL that the devices are gone. Uninstall the Collector first, or the device may come back when it reports again. Try Preview first.',
	),
	{
		displayName: 'Device UID',
		name: 'deviceUid',
		type: 'string',
		default: '={{ $json["device.uid"] }}',
		required: true,
		description: 'The UID of this item\'s device (device.uid, a UUID), as an export of devices gives it',
	},
	{
		displayName: 'Device Name',
		name: 'deviceName',
		type: 'string',
		default: '={{ $json["device.name"] }}',
		required: true,
		description: 'The name of this item\'s device (device.name); Nexthink needs it with the UID',
	},
	{
		displayName: 'Maximum Devices per Run',
		name: 'maxDevicesPerRun',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_MAX_DEVICES_PER_RUN,
		required: true,
		description: 'The node fails before sending anything when the input holds more devices than this, so that a workflow gone wrong cannot delete a whole estate',
	},
	{
		displayName: 'Preview',
		name: 'preview',
		type: 'boolean',
		default: false,
		description: 'Whether to only check the input and return the requests that would be sent, batch by batch, without sending anything',
	},
	writeOptions(show, 'delete devices', 'Longest time one deletion request may take. A request that times out is not sent again (it may have queued the deletions).', [
		{
			displayName: 'Devices per Request',
			name: 'devicesPerRequest',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_DEVICES_PER_DELETION },
			default: MAX_DEVICES_PER_DELETION,
			description: 'Devices in one deletion request: at most 100, the API\'s limit; lower it when Nexthink answers BATCH_SIZE_EXCEEDED (the limit is configurable per tenant)',
		},
		{
			displayName: 'Let Nexthink Judge Malformed UIDs',
			name: 'letNexthinkJudgeUids',
			type: 'boolean',
			default: false,
			description:
				'Whether to send a UID that is not a UUID anyway, for Nexthink to answer INVALID for that device. Off: such an item is refused before any request. A blank UID or name is always refused.',
		},
	]),
]);

const QUEUED =
	'Nexthink queued the device for deletion (202). It is removed in the background and Nexthink offers no status to poll: check later in NQL that the device is no longer listed.';

/** The run-wide settings, from the first item; a bad one fails the node before any request. */
function readRunSettings(this: IExecuteFunctions) {
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const preview = readBoolean(this.getNodeParameter('preview', 0, false), 'Preview', false);
	const asToolReadOnly = toolWritesOff(this, options);
	// Preview, or a tool run without "Allow Writes When Used as a Tool"
	const sendNothing: 'preview' | 'tool' | false = preview ? 'preview' : asToolReadOnly ? 'tool' : false;
	return {
		maxPerRun: readWholeNumber(this.getNodeParameter('maxDevicesPerRun', 0, DEFAULT_MAX_DEVICES_PER_RUN), 'Maximum Devices per Run', DEFAULT_MAX_DEVICES_PER_RUN, 1),
		perRequest: readWholeNumber(options.devicesPerRequest, 'Devices per Request', MAX_DEVICES_PER_DELETION, 1, MAX_DEVICES_PER_DELETION),
		timeoutMs: readTimeoutMs(options),
		sendNothing,
	};
}

type RunSettings = ReturnType<typeof readRunSettings>;

type Batch = DeletionBatch & { requestId: string };
type Plan = DeletionPlan & { requests: Batch[] };

const readyDevices = (itemIndexes: readonly number[], items: ReadonlyMap<number, DeviceToDelete>) => itemIndexes.map((itemIndex) => ({ itemIndex, device: items.get(itemIndex) as DeviceToDelete }));

export const deleteDevicesOperation: BatchedOperation<RunSettings, DeviceToDelete, Batch, DeletionResult, Plan, IDataObject> = {
	outcomeKey: 'nexthinkDevice',
	done: 'scheduled',
	settings: readRunSettings,
	prepare(itemIndex) {
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const uid = checkDeviceUid(this.getNodeParameter('deviceUid', itemIndex, ''), readBoolean(options.letNexthinkJudgeUids, 'Let Nexthink Judge Malformed UIDs', false));
		return { uid, name: checkDeviceName(this.getNodeParameter('deviceName', itemIndex, '')) };
	},
	check(preparations, { items, settings }) {
		const { conflicts } = planDeletions(readyDevices([...items.keys()], items), settings.perRequest);
		for (const [itemIndex, message] of conflicts) preparations[itemIndex] = { ok: false, message, field: 'Device UID' };
	},
	plan(itemIndexes, { items, settings }) {
		const plan = planDeletions(readyDevices(itemIndexes, items), settings.perRequest);
		const overCap = runCapProblem(plan.deviceCount, settings.maxPerRun);
		if (overCap !== undefined) throw new NodeOperationError(this.getNode(), overCap, { description: 'Maximum Devices per Run is a safety limit of Device → Delete; it applies whatever the On Error setting.' });
		// each request its own x-request-id: the API's idempotency key, and what the outcome names
		return { ...plan, requests: plan.batches.map((batch) => ({ ...batch, requestId: randomUUID() })) };
	},
	preview(plan, preparations, { settings }) {
		return settings.sendNothing === false ? undefined : previewItems(this, preparations, plan, settings.sendNothing);
	},
	async send(batch, { settings }) {
		return await deleteDevices(this, batch.devices, batch.requestId, { timeoutMs: settings.timeoutMs, itemIndex: batch.itemIndexes[0] });
	},
	// no refusedObject: one API, one permission, so a 403 refuses every later batch too
	requestIds: (batch) => [batch.requestId],
	outcomes(plan, results, { items }) {
		return new Map(
			[...plan.placements].map(([itemIndex, placement]) => [
				itemIndex,
				deviceOutcome(items.get(itemIndex) as DeviceToDelete, placement, plan.requests[placement.batch], (results as ReadonlyArray<RequestResult<DeletionResult>>)[placement.batch], itemIndex),
			]),
		);
	},
	fails: (outcome) => outcome.status !== 'scheduled',
};

/** What would be sent, one output item per request (paired with its items), then the items refused. */
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
		return { json: { nexthinkDeletionPreview: preview }, pairedItem: items.map((item) => ({ item })) };
	});
	// the items sent are in the batches; the refused ones follow
	const refused = outcomeItems(ctx, deleteDevicesOperation, preparations, new Map(), (itemIndex) => !preparations[itemIndex].ok);
	return [...batchItems, ...refused];
}

function deviceOutcome(
	device: DeviceToDelete,
	placement: { batch: number; position: number; firstItem: number },
	batch: Batch,
	result: RequestResult<DeletionResult>,
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
