/**
 * Auto-mapping: which input keys name a field of the chosen object type.
 *
 * A user meets a field under three spellings, all accepted (dots and slashes are interchangeable):
 * - the API's name: `device/device/#tier`, `device/device/virtualization/desktop_pool`;
 * - the Export node's column name: `device.#tier`, `device.virtualization.desktop_pool`, `user.ad.department`;
 * - a short form without the object: `#tier`, `virtualization.desktop_pool`, `ad.department`.
 * Object prefixes and fixed field names are matched case-insensitively; custom field and organization
 * NQL IDs keep the case they were written in.
 */
import {
	customFieldTarget,
	fixedFieldTarget,
	findFixedField,
	isIdentificationKind,
	isObjectType,
	normaliseNqlId,
	organizationTarget,
	type FieldTarget,
	type ObjectType,
} from './fieldCatalogue';

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
	if (isObjectType(prefix)) {
		if (prefix !== objectType) return UNMAPPED;
		rest = segments.slice(segments[1]?.toLowerCase() === prefix ? 2 : 1);
	}
	const hasObjectPrefix = rest !== segments;
	if (rest.length === 0) return UNMAPPED;

	if (rest.length === 1 && rest[0].startsWith('#')) {
		const id = normaliseNqlId(rest[0]);
		return id === undefined ? UNMAPPED : { kind: 'field', target: customFieldTarget(objectType, id) };
	}
	if (objectType === 'user' && rest.length === 2 && rest[0].toLowerCase() === 'organization' && rest[1].startsWith('#')) {
		const id = normaliseNqlId(rest[1]);
		return id === undefined ? UNMAPPED : { kind: 'field', target: organizationTarget(id) };
	}

	const path = rest.join('/').toLowerCase();
	const fixed = findFixedField(objectType, path);
	if (fixed !== undefined) return { kind: 'field', target: fixedFieldTarget(fixed) };
	if (hasObjectPrefix && isIdentificationKind(objectType, path)) return IDENTIFICATION;
	return UNMAPPED;
}

/**
 * A resolver that remembers each key's meaning: a run of many items repeats the same few keys, and
 * resolving is the per-key cost of auto-mapping.
 */
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
