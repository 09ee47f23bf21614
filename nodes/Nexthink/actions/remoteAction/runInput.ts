/** Checks of a Run Remote Action item, before any request (no n8n imports), with the OpenAPI document's limits. */
import { MAX_DEVICES_PER_REQUEST, type TriggerInfo } from '../shared/runPlan';
import type { ScriptInput } from './answers';
import { describeValue, InputError } from '../../shared/inputError';
import { parseIdList, UUID, valueText } from '../shared/inputChecks';
import { objectNqlId } from '../../shared/nqlIds';
import { readWholeNumber } from '../../shared/parameterValues';
import { setOwn } from '../../shared/ownKeys';

export const MIN_EXPIRY_MINUTES = 60;
export const MAX_EXPIRY_MINUTES = 10_080;
export const DEFAULT_EXPIRY_MINUTES = 60;
export const MAX_REASON_CHARS = 500;

export function normaliseRemoteActionId(raw: unknown): string {
	const empty = 'No remote action is selected. Pick one from the list or enter its NQL ID, e.g. #restart_service';
	return objectNqlId(raw, { name: 'remote action', field: 'Remote Action', example: '#restart_service', empty, copyFrom: ' ("Copy NQL ID" in Manage remote actions)' });
}

/** The Collector UIDs of one item, distinct (compared without case), and the entries given again. */
export function parseCollectorUids(raw: unknown): { devices: string[]; duplicates: string[] } {
	const { ids, duplicates } = parseIdList(raw, {
		entry: 'Collector UID',
		field: 'Collector UIDs',
		shape: 'a UUID',
		pattern: UUID,
		foldCase: true,
		empty: 'No target device: "Collector UIDs" is empty. Map the devices\' Collector UID, e.g. {{ $json["device.collector.uid"] }}',
		takes: 'Remote actions target devices by their Collector UID (device.collector.uid, e.g. 3fa85f64-5717-4562-b3fc-2c963f66afa6), not by device name or device.uid',
		max: { count: MAX_DEVICES_PER_REQUEST, targets: 'devices', api: 'Remote Actions API' },
	});
	return { devices: ids, duplicates };
}

/** `expiresInMinutes`: a whole number from 60 to 10,080 (7 days); empty means the default, 60. */
export function checkExpiry(raw: unknown): number {
	return readWholeNumber(raw, 'Expires After (Minutes)', DEFAULT_EXPIRY_MINUTES, MIN_EXPIRY_MINUTES, MAX_EXPIRY_MINUTES, ' (7 days)');
}

/** The trigger information, or undefined when every field is empty (then none is sent). */
export function checkTriggerInfo(raw: { externalSource?: unknown; reason?: unknown; externalReference?: unknown }): TriggerInfo | undefined {
	const info: TriggerInfo = {};
	const labels = { externalSource: 'External Source', reason: 'Reason', externalReference: 'External Reference' } as const;
	for (const key of Object.keys(labels) as Array<keyof typeof labels>) {
		const value = raw[key];
		if (value === undefined || value === null || value === '') continue;
		if (typeof value !== 'string' && typeof value !== 'number') {
			throw new InputError(`${labels[key]} must be text, got ${describeValue(value)}`, labels[key]);
		}
		const text = String(value).trim();
		if (text !== '') info[key] = text;
	}
	if (info.reason !== undefined && [...info.reason].length > MAX_REASON_CHARS) {
		throw new InputError(`Reason is ${[...info.reason].length} characters long; Nexthink accepts at most ${MAX_REASON_CHARS}`, 'Reason');
	}
	return Object.keys(info).length === 0 ? undefined : info;
}

/** The script inputs as the API's `params` (input ID → text); objects, lists and empty IDs are refused. */
export function checkScriptInputs(raw: Record<string, unknown> | undefined | null): Record<string, string> {
	const params: Record<string, string> = {};
	if (raw === undefined || raw === null) return params;
	for (const [id, value] of Object.entries(raw)) {
		if (id.trim() === '') throw new InputError('A script input has an empty ID', 'Script Inputs');
		if (value === undefined || value === null) continue;
		const text = valueText(value);
		if (text === undefined) throw new InputError(`Script input "${id}" must be text, got ${describeValue(value)}`, 'Script Inputs');
		setOwn(params, id, text);
	}
	return params;
}

/**
 * The script inputs of one item against the remote action's details (`scriptInfo.inputs`): no unknown
 * input, none without a value, no value outside a fixed list (exact, by ID, case-sensitive). Why:
 * docs/decisions.md, row "Script inputs checked before the run".
 */
export function checkParamsAgainstInputs(remoteActionId: string, params: Record<string, string>, inputs: readonly ScriptInput[]): void {
	const label = (input: ScriptInput) => (input.name !== input.id ? `"${input.id}" (${input.name})` : `"${input.id}"`);
	const known = new Map(inputs.map((input) => [input.id, input]));
	const unknown = Object.keys(params).filter((id) => !known.has(id));
	if (unknown.length > 0) {
		const names = inputs.map((input) => input.id).join(', ');
		throw new InputError(
			`${unknown.length === 1 ? 'Script input' : 'Script inputs'} ${unknown.map((id) => `"${id}"`).join(', ')} ${unknown.length === 1 ? 'is not an input' : 'are not inputs'} of ${remoteActionId}; ${inputs.length === 0 ? 'it has no script inputs' : `its inputs are ${names}`}. Reload the Script Inputs (the remote action may have changed in Nexthink)`,
			'Script Inputs',
		);
	}
	for (const input of inputs) {
		if (!Object.prototype.hasOwnProperty.call(params, input.id)) {
			throw new InputError(`Script input ${label(input)} of ${remoteActionId} has no value; Nexthink needs a value for every input of the remote action`, 'Script Inputs');
		}
		const value = params[input.id];
		if (!input.allowCustomValue && !input.options.includes(value)) {
			throw new InputError(
				`Script input ${label(input)} of ${remoteActionId} must be one of ${input.options.map((option) => `"${option}"`).join(', ')} (the remote action allows no other value), got "${value.slice(0, 60)}"`,
				'Script Inputs',
			);
		}
	}
}
