/** The deletion request's 202 (no n8n imports), one status per device. Why: docs/decisions.md, row "Reading the 202". */
import type { DeviceToDelete } from './deleteInput';

export const KNOWN_DEVICE_STATUSES = ['SCHEDULED', 'INVALID', 'FAILED'] as const;

export interface DeletionAnswer {
	/** Nexthink's count, when it sent one. */
	scheduledCount?: number;
	/** Per sent device, in request order: its status as Nexthink spelt it, or undefined when the answer does not list it. */
	statuses: Array<string | undefined>;
}

const STATUS_LIST = 'the list of per-device statuses';

/** The answer, or what it lacks (a phrase for "… was missing"). */
export function readDeletionAnswer(body: unknown, sent: readonly DeviceToDelete[]): { ok: true; answer: DeletionAnswer } | { ok: false; missing: string } {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, missing: STATUS_LIST };
	const { devices, status, scheduledCount } = body as Record<string, unknown>;
	if (status !== undefined && status !== 'ACCEPTED') return { ok: false, missing: `the batch status ACCEPTED (it said ${JSON.stringify(status).slice(0, 40)})` };
	if (!Array.isArray(devices) || devices.length === 0) return { ok: false, missing: STATUS_LIST };
	const entries: Array<{ uid: string; status: string }> = [];
	for (const entry of devices) {
		if (typeof entry !== 'object' || entry === null) return { ok: false, missing: STATUS_LIST };
		const { uid, status: deviceStatus } = entry as Record<string, unknown>;
		if (typeof uid !== 'string' || typeof deviceStatus !== 'string' || deviceStatus === '') return { ok: false, missing: 'a uid and a status in every per-device entry' };
		entries.push({ uid, status: deviceStatus });
	}
	const used = new Set<number>();
	const statuses = sent.map((device, position) => {
		const wanted = device.uid.toLowerCase();
		let index = entries[position]?.uid.toLowerCase() === wanted && !used.has(position) ? position : -1;
		if (index === -1) index = entries.findIndex((entry, i) => !used.has(i) && entry.uid.toLowerCase() === wanted);
		if (index === -1) return undefined;
		used.add(index);
		return entries[index].status;
	});
	const answer: DeletionAnswer = { statuses };
	if (typeof scheduledCount === 'number' && Number.isInteger(scheduledCount) && scheduledCount >= 0) answer.scheduledCount = scheduledCount;
	return { ok: true, answer };
}
