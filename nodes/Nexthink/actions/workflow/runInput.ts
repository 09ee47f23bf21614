/**
 * Checks of a Run or Resume Workflow item, before any request (no n8n imports). Why: docs/decisions.md,
 * rows "Workflow: v1 or v2", "Workflow: identifier checks" and "Resume".
 */
import { describeValue, InputError } from '../../shared/inputError';
import { setOwn, hasOwnKey } from '../../shared/ownKeys';
import { SID, UUID, valueText } from '../shared/inputChecks';
import { objectNqlId } from '../../shared/nqlIds';

export const MAX_WORKFLOW_TARGETS_PER_LIST = 10_000;

export const UPN = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;

export type ApiVersion = 'v1' | 'v2';
export type DeviceIdType = 'collectorUid' | 'uid' | 'name';
export type UserIdType = 'sid' | 'upn' | 'uid';
export type TargetKind = 'device' | 'user';

/** One target: its identifiers as sent (v1: only `collectorUid` or `sid`). */
export interface WorkflowTarget {
	kind: TargetKind;
	ids: Record<string, string>;
	/** Same key = same target (identifiers compared case-insensitively). */
	key: string;
}

const DEVICE_FIELDS: Record<DeviceIdType, { label: string; pattern?: RegExp; example: string }> = {
	collectorUid: { label: 'Collector UID', pattern: UUID, example: 'device.collector.uid, a UUID' },
	uid: { label: 'device UID', pattern: UUID, example: 'device.uid, a UUID' },
	name: { label: 'device name', example: 'device.name' },
};
const USER_FIELDS: Record<UserIdType, { label: string; pattern: RegExp; example: string }> = {
	sid: { label: 'SID', pattern: SID, example: 'user.sid, e.g. S-1-5-21-1004336348-1177238915-682003330-1001' },
	upn: { label: 'UPN', pattern: UPN, example: 'user.upn, e.g. jane.doe@example.com' },
	uid: { label: 'user UID', pattern: UUID, example: 'user.uid, a UUID' },
};

export function normaliseWorkflowId(raw: unknown): string {
	const empty = 'No workflow is selected. Pick one from the list or enter its NQL ID, e.g. #repair_teams';
	return objectNqlId(raw, { name: 'workflow', field: 'Workflow', example: '#repair_teams', empty, copyFrom: ' ("Copy NQL ID" in Manage workflows)' });
}

/** An item's targets, distinct in the order first given, and the entries it named again, as text. */
interface ParsedTargets {
	targets: WorkflowTarget[];
	duplicates: string[];
}

/**
 * The devices and users of one item: texts (split on commas, semicolons, line breaks and, but for
 * device names, spaces), lists, and in v2 identifier objects; plain entries read as the chosen type.
 */
export function parseWorkflowTargets(
	version: ApiVersion,
	devicesRaw: unknown,
	deviceIdType: DeviceIdType,
	usersRaw: unknown,
	userIdType: UserIdType,
): ParsedTargets {
	const deviceType: DeviceIdType = version === 'v1' ? 'collectorUid' : deviceIdType;
	const userType: UserIdType = version === 'v1' ? 'sid' : userIdType;
	const devices = parseList(version, 'device', devicesRaw, deviceType);
	const users = parseList(version, 'user', usersRaw, userType);
	if (devices.targets.length === 0 && users.targets.length === 0) {
		throw new InputError(
			'No target: "Devices" and "Users" are both empty. Map the devices (e.g. {{ $json["device.collector.uid"] }}) or the users (e.g. {{ $json["user.sid"] }}) the workflow runs on',
			'Devices',
		);
	}
	return { targets: [...devices.targets, ...users.targets], duplicates: [...devices.duplicates, ...users.duplicates] };
}

function parseList(version: ApiVersion, kind: TargetKind, raw: unknown, type: string): ParsedTargets {
	const field = kind === 'device' ? 'Devices' : 'Users';
	const fields: Record<string, { label: string; pattern?: RegExp; example: string }> = kind === 'device' ? DEVICE_FIELDS : USER_FIELDS;
	const entries: Array<Record<string, string>> = [];
	for (const value of raw === null || raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
		if (value === null || value === undefined) continue;
		if (typeof value === 'string' || typeof value === 'number') {
			const separators = type === 'name' ? /[,;\r\n]+/ : /[\s,;]+/;
			for (const part of String(value).split(separators)) {
				const text = part.trim();
				if (text !== '') entries.push({ [type]: text });
			}
			continue;
		}
		if (typeof value === 'object' && !Array.isArray(value) && version === 'v2') {
			entries.push(identifierObject(kind, value as Record<string, unknown>, field, fields));
			continue;
		}
		const hint = version === 'v1' && typeof value === 'object' ? ' (identifier objects need API Version v2)' : '';
		throw new InputError(`A ${kind} entry must be text${version === 'v2' ? ' or an identifier object' : ''}, got ${describe(value)}${hint}`, field);
	}
	const invalid: string[] = [];
	for (const entry of entries) {
		for (const [key, text] of Object.entries(entry)) {
			const pattern = fields[key].pattern;
			if (pattern !== undefined && !pattern.test(text)) invalid.push(`${fields[key].label} "${text.slice(0, 60)}"`);
		}
	}
	if (invalid.length > 0) {
		const expected = fields[type];
		const more = invalid.length > 3 ? ` and ${invalid.length - 3} more` : '';
		throw new InputError(
			`${invalid.length === 1 ? `A ${kind} identifier is` : `${invalid.length} ${kind} identifiers are`} not valid: ${invalid.slice(0, 3).join(', ')}${more}. This item's ${field} are read as ${expected.label}s (${expected.example})${version === 'v1' ? '; API Version v1 takes only Collector UIDs and SIDs, v2 also device UIDs, device names, UPNs and user UIDs' : ''}`,
			field,
		);
	}
	const seen = new Set<string>();
	const targets: WorkflowTarget[] = [];
	const duplicates: string[] = [];
	for (const ids of entries) {
		const key = `${kind}:${JSON.stringify(Object.entries(ids).map(([k, v]) => [k, v.toLowerCase()]).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
		if (seen.has(key)) duplicates.push(Object.values(ids).join(' / '));
		else targets.push({ kind, ids, key });
		seen.add(key);
	}
	if (targets.length > MAX_WORKFLOW_TARGETS_PER_LIST) {
		throw new InputError(
			`One item names ${targets.length} ${kind}s; the Workflows API takes at most ${MAX_WORKFLOW_TARGETS_PER_LIST} per request. Split the list over several items`,
			field,
		);
	}
	return { targets, duplicates };
}

function identifierObject(
	kind: TargetKind,
	value: Record<string, unknown>,
	field: string,
	fields: Record<string, { label: string }>,
): Record<string, string> {
	const ids: Record<string, string> = {};
	for (const [key, id] of Object.entries(value)) {
		if (!hasOwnKey(fields, key)) {
			throw new InputError(`A ${kind} identifier object has the key "${key.slice(0, 40)}"; allowed are ${Object.keys(fields).join(', ')}`, field);
		}
		if (id === undefined || id === null || id === '') continue;
		if (typeof id !== 'string') throw new InputError(`${kind}.${key} must be text, got ${describe(id)}`, field);
		setOwn(ids, key, id.trim());
	}
	if (Object.keys(ids).length === 0) throw new InputError(`A ${kind} identifier object has none of ${Object.keys(fields).join(', ')}`, field);
	return ids;
}

/** Name/value pairs (workflow parameters, resume parameters): names non-empty and given once; values as text. */
export function checkNameValueParameters(
	entries: ReadonlyArray<{ name?: unknown; value?: unknown }> | undefined,
	field: string,
	options: { nonEmptyValues?: boolean } = {},
): Record<string, string> {
	const parameters: Record<string, string> = {};
	for (const entry of entries ?? []) {
		const name = typeof entry.name === 'string' ? entry.name.trim() : '';
		if (name === '') throw new InputError(`A parameter in "${field}" has no name`, field);
		if (hasOwnKey(parameters, name)) throw new InputError(`Parameter "${name}" is given twice in "${field}"; give each parameter once`, field);
		const text = parameterText(name, entry.value, field);
		setOwn(parameters, name, text);
		if (options.nonEmptyValues === true && text === '') {
			throw new InputError(`Parameter "${name}" is empty; the Workflows API needs a value for each parameter of the event`, field);
		}
	}
	return parameters;
}

/** A resource mapper's values (parameter ID → value) as text; empty values are left out. */
export function checkMappedParameters(raw: Record<string, unknown> | null | undefined, field: string): Record<string, string> {
	const parameters: Record<string, string> = {};
	for (const [name, value] of Object.entries(raw ?? {})) {
		if (value === undefined || value === null || value === '') continue;
		setOwn(parameters, name, parameterText(name, value, field));
	}
	return parameters;
}

function parameterText(name: string, value: unknown, field: string): string {
	const text = valueText(value);
	if (text === undefined) throw new InputError(`Parameter "${name}" must be text, got ${describe(value)}`, field);
	return text;
}

/** A UUID for the wait-for-event trigger's path. */
export function checkUuid(raw: unknown, field: string, what: string): string {
	const text = typeof raw === 'string' ? raw.trim() : raw;
	if (typeof text !== 'string' || !UUID.test(text)) {
		throw new InputError(`${field} must be a UUID (${what}), got ${describe(raw)}`, field);
	}
	return text;
}

/** `describeValue`, with nothing and an empty text named. */
function describe(value: unknown): string {
	if (value === undefined) return 'nothing';
	return value === '' ? 'an empty text' : describeValue(value);
}
