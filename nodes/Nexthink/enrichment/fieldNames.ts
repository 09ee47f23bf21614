/**
 * Auto-mapping: which input keys name a field of the chosen object type, under any of three
 * spellings (dots and slashes alike): the API's name (`device/device/#tier`), the Export's column
 * name (`device.#tier`) or a short form (`#tier`, `ad.department`). Prefixes and fixed names match
 * in any case; NQL IDs keep theirs.
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
