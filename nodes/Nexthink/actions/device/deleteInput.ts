/** Device → Delete before any request (no n8n imports): each item's device and the batches. */
import { describeValue, InputError } from '../../shared/inputError';
import { UUID } from '../shared/inputChecks';

export const MAX_DEVICES_PER_DELETION = 100;
export const DEFAULT_MAX_DEVICES_PER_RUN = 500;

export interface DeviceToDelete {
	uid: string;
	name: string;
}

/** The device UID, trimmed: text, not blank; a UUID unless `letNexthinkJudge` (then Nexthink answers INVALID for it). */
export function checkDeviceUid(raw: unknown, letNexthinkJudge: boolean): string {
	const uid = textOf(raw, 'Device UID');
	if (uid === '') {
		throw new InputError('No device UID: "Device UID" is empty. Map the device\'s UID, e.g. {{ $json["device.uid"] }}', 'Device UID');
	}
	if (!letNexthinkJudge && !UUID.test(uid)) {
		throw new InputError(
			`The device UID "${uid.slice(0, 60)}" is not a UUID (e.g. 3fa85f64-5717-4562-b3fc-2c963f66afa6). Map device.uid, or turn on "Let Nexthink Judge Malformed UIDs" to have Nexthink answer INVALID for it`,
			'Device UID',
		);
	}
	return uid;
}

/** The device name: text, not blank. */
export function checkDeviceName(raw: unknown): string {
	const name = textOf(raw, 'Device Name');
	if (name === '') {
		throw new InputError('No device name: "Device Name" is blank. Map the device\'s name, e.g. {{ $json["device.name"] }}; Nexthink needs the name with the UID', 'Device Name');
	}
	return name;
}

function textOf(raw: unknown, field: string): string {
	if (raw === undefined || raw === null) return '';
	if (typeof raw !== 'string' && typeof raw !== 'number') throw new InputError(`${field} must be text, got ${describeValue(raw)}`, field);
	return String(raw).trim();
}

/** One request: its devices in order, and the items they came from (one per device). */
export interface DeletionBatch {
	devices: DeviceToDelete[];
	itemIndexes: number[];
}

export interface DeletionPlan {
	batches: DeletionBatch[];
	/** Where each sent item's device is: batch and position; `firstItem` when an earlier item already sends the same device. */
	placements: Map<number, { batch: number; position: number; firstItem: number }>;
	/** Items naming a device UID an earlier item names with another name: refused, not sent. */
	conflicts: Map<number, string>;
	/** Distinct devices the run would send. */
	deviceCount: number;
}

/**
 * Batches of at most `perRequest` distinct devices, in input order; a device an earlier item sends is
 * not sent again, the same UID with another name is refused (docs/decisions.md, row "Duplicates").
 */
export function planDeletions(devices: ReadonlyArray<{ itemIndex: number; device: DeviceToDelete }>, perRequest: number): DeletionPlan {
	const plan: DeletionPlan = { batches: [], placements: new Map(), conflicts: new Map(), deviceCount: 0 };
	const seen = new Map<string, { itemIndex: number; name: string }>();
	for (const { itemIndex, device } of devices) {
		const key = device.uid.toLowerCase();
		const earlier = seen.get(key);
		if (earlier !== undefined) {
			if (earlier.name !== device.name) {
				plan.conflicts.set(
					itemIndex,
					`Device UID ${device.uid} comes with the name "${device.name.slice(0, 60)}" here and "${earlier.name.slice(0, 60)}" in item ${earlier.itemIndex}; check which device is meant`,
				);
				continue;
			}
			const first = plan.placements.get(earlier.itemIndex) as { batch: number; position: number };
			plan.placements.set(itemIndex, { ...first, firstItem: earlier.itemIndex });
			continue;
		}
		seen.set(key, { itemIndex, name: device.name });
		let batch = plan.batches[plan.batches.length - 1];
		if (batch === undefined || batch.devices.length >= perRequest) {
			batch = { devices: [], itemIndexes: [] };
			plan.batches.push(batch);
		}
		plan.placements.set(itemIndex, { batch: plan.batches.length - 1, position: batch.devices.length, firstItem: itemIndex });
		batch.devices.push(device);
		batch.itemIndexes.push(itemIndex);
		plan.deviceCount++;
	}
	return plan;
}

/** The run cap's complaint, or undefined when the run stays within it. */
export function runCapProblem(deviceCount: number, maxPerRun: number): string | undefined {
	if (deviceCount <= maxPerRun) return undefined;
	return `The input holds ${deviceCount} devices to delete, more than Maximum Devices per Run (${maxPerRun}). Nothing was sent to Nexthink. If all ${deviceCount} devices really are to be deleted, raise Maximum Devices per Run to at least ${deviceCount}; otherwise check the step that chose them`;
}
