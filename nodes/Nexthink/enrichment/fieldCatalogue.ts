/**
 * What the Enrichment API can write: the object types, how each is identified, the fixed fields with
 * their kind of value, and the API's field names `<object>/<object>/<path>`, where `<path>` is a fixed
 * name, a custom field's NQL ID (`#tier`) or, for users, `organization/#region`. Auto-mapping
 * (resolveInputKey) reads the spellings docs/enrichment.md, "Map Automatically From Input", lists.
 */
import { fieldNqlId } from '../shared/nqlIds';

export const OBJECT_TYPES = ['device', 'user', 'binary', 'package'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

export const IDENTIFICATION_KINDS = {
	device: ['name', 'uid'],
	user: ['sid', 'uid', 'upn'],
	binary: ['uid'],
	package: ['uid'],
} as const satisfies Record<ObjectType, readonly string[]>;

export type IdentificationKind = (typeof IDENTIFICATION_KINDS)[ObjectType][number];

/** How a value goes on the wire: text, ISO 8601 UTC with milliseconds, or an enumeration's integer. */
export type ValueKind = 'text' | 'dateTime' | 'desktopBroker' | 'virtualizationType';

/** A field resolved to its API name and the kind of value it takes. */
export interface FieldTarget {
	name: string;
	kind: ValueKind;
}

export interface FixedField extends FieldTarget {
	objectType: ObjectType;
	/** The part after `<object>/<object>/`, e.g. `virtualization/desktop_pool`. */
	path: string;
	displayName: string;
}

/** Desktop broker names and their wire integers; 0 clears the field. */
export const DESKTOP_BROKERS = {
	clear: 0,
	citrix_cvad: 1,
	citrix_daas: 2,
	azure_virtual_desktops: 3,
	windows_365: 4,
	horizon_on_prem: 5,
	aws_workspace: 6,
	aws_appstream: 7,
} as const;

export const VIRTUALIZATION_TYPES = {
	shared: 1,
	personal: 2,
	pooled: 3,
} as const;

const fixedField = (objectType: ObjectType, path: string, displayName: string, kind: ValueKind = 'text'): FixedField => ({ objectType, path, name: apiFieldName(objectType, path), displayName, kind });

/** The fields of one group: `virtualization/…` on devices, `ad/…` (Entra ID) on users. */
const group =
	(objectType: ObjectType, prefix: string, label: string) =>
	(path: string, displayName: string, kind?: ValueKind) => fixedField(objectType, `${prefix}/${path}`, `${label}: ${displayName}`, kind);
const virtualization = group('device', 'virtualization', 'Virtualization');
const entraId = group('user', 'ad', 'Entra ID');

export const FIXED_FIELDS: readonly FixedField[] = [
	fixedField('device', 'configuration_tag', 'Configuration Tag'),
	virtualization('desktop_broker', 'Desktop Broker', 'desktopBroker'),
	virtualization('desktop_pool', 'Desktop Pool'),
	virtualization('disk_image', 'Disk Image'),
	virtualization('environment_name', 'Environment Name'),
	virtualization('hostname', 'Hostname'),
	virtualization('hypervisor_name', 'Hypervisor Name'),
	virtualization('instance_size', 'Instance Size'),
	virtualization('last_update', 'Last Update', 'dateTime'),
	virtualization('region', 'Region'),
	virtualization('type', 'Type', 'virtualizationType'),
	entraId('city', 'City'),
	entraId('country_code', 'Country Code'),
	entraId('department', 'Department'),
	entraId('distinguished_name', 'Distinguished Name'),
	entraId('email_address', 'Email Address'),
	entraId('full_name', 'Full Name'),
	entraId('job_title', 'Job Title'),
	entraId('last_update', 'Last Update', 'dateTime'),
	entraId('office', 'Office'),
	entraId('organizational_unit', 'Organizational Unit'),
	entraId('username', 'Username'),
];

export function findFixedField(objectType: ObjectType, path: string): FixedField | undefined {
	return FIXED_FIELDS.find((field) => field.objectType === objectType && field.path === path);
}

/** The API's name of a field or identification: `device/device/name`, `user/user/#tier`, … */
export function apiFieldName(objectType: ObjectType, path: string): string {
	return `${objectType}/${objectType}/${path}`;
}

/** Manual custom fields exist on every object type and hold strings. */
export function customFieldTarget(objectType: ObjectType, nqlId: string): FieldTarget {
	return { name: apiFieldName(objectType, nqlId), kind: 'text' };
}

/** Organization levels exist on users only. */
export function organizationTarget(nqlId: string): FieldTarget {
	return { name: apiFieldName('user', `organization/${nqlId}`), kind: 'text' };
}

export type KeyMeaning =
	| { kind: 'field'; target: FieldTarget }
	/** Names how the object is identified (`device.name`, `user/user/sid`): never a field to set, never reported. */
	| { kind: 'identification' }
	/** Not a field of this object type: another object's field, a read-only column, or any other key. */
	| { kind: 'unmapped' };

const UNMAPPED: KeyMeaning = { kind: 'unmapped' };
const IDENTIFICATION: KeyMeaning = { kind: 'identification' };

export function resolveInputKey(objectType: ObjectType, key: string): KeyMeaning {
	const segments = key.trim().split(/[./]/);
	let rest = segments;
	const prefix = segments[0].toLowerCase();
	if ((OBJECT_TYPES as readonly string[]).includes(prefix)) {
		if (prefix !== objectType) return UNMAPPED;
		rest = segments.slice(segments[1]?.toLowerCase() === prefix ? 2 : 1);
	}
	const hasObjectPrefix = rest !== segments;
	if (rest.length === 0) return UNMAPPED;

	if (rest.length === 1 && rest[0].startsWith('#')) {
		const id = fieldNqlId(rest[0]);
		return id === undefined ? UNMAPPED : { kind: 'field', target: customFieldTarget(objectType, id) };
	}
	if (objectType === 'user' && rest.length === 2 && rest[0].toLowerCase() === 'organization' && rest[1].startsWith('#')) {
		const id = fieldNqlId(rest[1]);
		return id === undefined ? UNMAPPED : { kind: 'field', target: organizationTarget(id) };
	}

	const path = rest.join('/').toLowerCase();
	const fixed = findFixedField(objectType, path);
	if (fixed !== undefined) return { kind: 'field', target: fixed };
	if (hasObjectPrefix && (IDENTIFICATION_KINDS[objectType] as readonly string[]).includes(path)) return IDENTIFICATION;
	return UNMAPPED;
}

/** A resolver that remembers each key's meaning: a run of many items repeats the same few keys. */
export function createKeyResolver(objectType: ObjectType): (key: string) => KeyMeaning {
	const known = new Map<string, KeyMeaning>();
	return (key) => {
		let meaning = known.get(key);
		if (meaning === undefined) {
			meaning = resolveInputKey(objectType, key);
			known.set(key, meaning);
		}
		return meaning;
	};
}
