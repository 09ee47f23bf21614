/**
 * Turning one input item into what is sent for it: its identification and its typed fields, from the
 * "Map Each Field" entries or from the item's own keys. Every problem is an `InputError` for that item;
 * `null` or `undefined` means "no value" (the field is not sent); an item with no field is an error.
 */
import {
	apiFieldName,
	customFieldTarget,
	findFixedField,
	organizationTarget,
	type FieldTarget,
	type IdentificationKind,
	type KeyMeaning,
	type ObjectType,
} from './fieldCatalogue';
import { INPUT_ERROR_CODES } from './itemOutcome';
import { convertFieldValue, type ConversionContext, type WireValue } from './valueConversion';
import { describeValue, InputError } from '../shared/inputError';
import { fieldNqlId } from '../shared/nqlIds';

export interface Identification {
	name: string;
	value: string;
}

export interface WireField {
	name: string;
	value: WireValue;
}

/** An input item that passed validation: what it identifies and the fields it sets, in order. */
export interface PreparedItem {
	itemIndex: number;
	identification: Identification;
	fields: WireField[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function prepareIdentification(objectType: ObjectType, kind: IdentificationKind, raw: unknown): Identification {
	const name = apiFieldName(objectType, kind);
	if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
		throw new InputError(`The ${objectType} ${kind.toUpperCase()} to identify the object is empty (${name}).`, undefined, INPUT_ERROR_CODES.missingIdentification);
	}
	if (typeof raw !== 'string' && typeof raw !== 'number') {
		throw new InputError(`The ${objectType} ${kind.toUpperCase()} must be text, got ${Array.isArray(raw) ? 'a list' : typeof raw} (${name}).`, undefined, INPUT_ERROR_CODES.invalidIdentification);
	}
	if (typeof raw === 'number' && !Number.isFinite(raw)) {
		throw new InputError(`The ${objectType} ${kind.toUpperCase()} is the number ${String(raw)}, which identifies nothing (${name}). Check the expression that computes it.`, undefined, INPUT_ERROR_CODES.invalidIdentification);
	}
	const value = String(raw).trim();
	if (kind === 'uid') {
		if (!UUID.test(value)) {
			throw new InputError(`"${value}" is not a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6 (${name}).`, undefined, INPUT_ERROR_CODES.invalidIdentification);
		}
		// Nexthink shows UIDs in lowercase; one spelling also lets duplicates in a batch be merged.
		return { name, value: value.toLowerCase() };
	}
	return { name, value };
}

/** One row of "Map Each Field" as n8n hands it over; which value property applies depends on the field. */
export interface FieldEntry {
	field?: string;
	/** Any JSON value an expression gives; checked by `nqlIdOf`. */
	customFieldId?: unknown;
	organizationLevel?: unknown;
	value?: unknown;
	dateValue?: unknown;
	desktopBroker?: unknown;
	virtualizationType?: unknown;
}

/** `field` values of entries that are not fixed fields. */
export const CUSTOM_FIELD = 'customField';
export const ORGANIZATION_LEVEL = 'organizationLevel';

/** The "Choose…" value Desktop Broker and Virtualization Type start at. */
export const NOT_CHOSEN = 'notChosen';

export function fieldsFromEntries(
	objectType: ObjectType,
	entries: readonly FieldEntry[],
	context: ConversionContext,
): WireField[] {
	const fields: WireField[] = [];
	for (const entry of entries) {
		const target = entryTarget(objectType, entry);
		const raw = entryValue(target, entry);
		if (raw === null || raw === undefined) continue;
		fields.push({ name: target.name, value: convertFieldValue(target, raw, context) });
	}
	if (fields.length === 0) {
		throw new InputError(entries.length === 0
				? 'No field to set: add at least one field under "Fields to Set".'
				: 'No field to set: every field value is empty (null). Use an empty string to clear a field.', undefined, INPUT_ERROR_CODES.noFields);
	}
	return fields;
}

function entryTarget(objectType: ObjectType, entry: FieldEntry): FieldTarget {
	const field = entry.field ?? CUSTOM_FIELD;
	if (field === CUSTOM_FIELD) return customFieldTarget(objectType, nqlIdOf(entry.customFieldId, 'custom field'));
	if (field === ORGANIZATION_LEVEL && objectType === 'user') {
		return organizationTarget(nqlIdOf(entry.organizationLevel, 'organization level'));
	}
	const fixed = findFixedField(objectType, field);
	if (fixed === undefined) {
		throw new InputError(`"${field}" is not a field of a ${objectType}.`, undefined, INPUT_ERROR_CODES.invalidField);
	}
	return fixed;
}

function nqlIdOf(raw: unknown, what: string): string {
	const id = typeof raw === 'string' ? fieldNqlId(raw) : undefined;
	if (id === undefined) {
		const problem =
			raw === undefined || raw === '' ? 'is empty' : typeof raw === 'string' ? `${describeValue(raw)} is not an NQL ID` : `must be text, got ${describeValue(raw)}`;
		throw new InputError(`The ${what} ID ${problem}: enter it as #name or name (letters, digits and underscores).`, undefined, INPUT_ERROR_CODES.invalidField);
	}
	return id;
}

function entryValue(target: FieldTarget, entry: FieldEntry): unknown {
	switch (target.kind) {
		case 'dateTime':
			return entry.dateValue;
		case 'desktopBroker':
			return chosen(entry.desktopBroker, 'Desktop Broker', 'a broker, or Clear to remove the desktop broker');
		case 'virtualizationType':
			return chosen(entry.virtualizationType, 'Virtualization Type', 'Personal, Pooled or Shared');
		case 'text':
			return entry.value;
	}
}

function chosen(value: unknown, label: string, choices: string): unknown {
	if (value === NOT_CHOSEN) {
		throw new InputError(`${label}: no value chosen. Pick ${choices} in the "${label}" list.`, undefined, INPUT_ERROR_CODES.invalidValue);
	}
	return value;
}

export function fieldsFromInput(
	objectType: ObjectType,
	json: Readonly<Record<string, unknown>>,
	resolveKey: (key: string) => KeyMeaning,
	context: ConversionContext,
): { fields: WireField[]; unmappedKeys: string[] } {
	const fields: WireField[] = [];
	/** Keys that name no field of the object type, in input order. */
	const unmappedKeys: string[] = [];
	for (const key of Object.keys(json)) {
		const meaning = resolveKey(key);
		if (meaning.kind === 'unmapped') unmappedKeys.push(key);
		if (meaning.kind !== 'field') continue;
		const raw = json[key];
		if (raw === null || raw === undefined) continue;
		fields.push({ name: meaning.target.name, value: convertFieldValue(meaning.target, raw, context) });
	}
	if (fields.length === 0) {
		throw new InputError(`No input key names a ${objectType} field that can be set (keys: ${Object.keys(json).slice(0, 10).join(', ') || 'none'}). ` +
				`Name keys like ${objectType === 'user' ? 'ad.department, user.ad.department' : `${objectType}.#my_field`} or #my_field.`, undefined, INPUT_ERROR_CODES.noFields);
	}
	return { fields, unmappedKeys };
}
