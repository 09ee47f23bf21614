// @ts-check
'use strict';

/**
 * The Enrichment API's vocabulary: which identification names exist, which field names each object
 * type accepts, and what value each field takes.
 *
 * @typedef {'device' | 'user' | 'binary' | 'package'} ObjectType
 * @typedef {ObjectType | 'organization'} CustomFieldScope  where a manual custom field is defined
 * @typedef {'string' | 'timestamp' | 'virtualization_type' | 'desktop_broker'} ValueKind
 * @typedef {{ kind: 'custom', scope: CustomFieldScope, customName: string } | { kind: 'fixed', valueKind: ValueKind }} FieldSpec
 */

/** @type {Record<string, ObjectType>} */
const IDENTIFICATIONS = {
	'device/device/name': 'device',
	'device/device/uid': 'device',
	'user/user/sid': 'user',
	'user/user/uid': 'user',
	'user/user/upn': 'user',
	'binary/binary/uid': 'binary',
	'package/package/uid': 'package',
};

const VIRTUALIZATION_STRING_FIELDS = [
	'desktop_pool',
	'disk_image',
	'environment_name',
	'hostname',
	'hypervisor_name',
	'instance_size',
	'region',
];
const AD_STRING_FIELDS = [
	'city',
	'country_code',
	'department',
	'distinguished_name',
	'email_address',
	'full_name',
	'job_title',
	'office',
	'organizational_unit',
	'username',
];

/** @type {Record<ObjectType, Record<string, ValueKind>>} */
const FIXED_FIELDS = {
	device: {
		'device/device/configuration_tag': 'string',
		'device/device/virtualization/type': 'virtualization_type',
		'device/device/virtualization/desktop_broker': 'desktop_broker',
		'device/device/virtualization/last_update': 'timestamp',
		...Object.fromEntries(VIRTUALIZATION_STRING_FIELDS.map((name) => [`device/device/virtualization/${name}`, 'string'])),
	},
	user: {
		'user/user/ad/last_update': 'timestamp',
		...Object.fromEntries(AD_STRING_FIELDS.map((name) => [`user/user/ad/${name}`, 'string'])),
	},
	binary: {},
	package: {},
};

/** NQL renders these enumerations by name. */
const VIRTUALIZATION_TYPES = ['', 'shared', 'personal', 'pooled'];
const DESKTOP_BROKERS = [
	'',
	'citrix_cvad',
	'citrix_daas',
	'azure_virtual_desktops',
	'windows_365',
	'horizon_on_prem',
	'aws_workspace',
	'aws_appstream',
];

const CUSTOM_NAME = /^#[a-z0-9_]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * What a field name means for an object type, or undefined when the name is not valid there.
 * @param {ObjectType} objectType
 * @param {string} name
 * @returns {FieldSpec | undefined}
 */
function fieldSpec(objectType, name) {
	const fixed = FIXED_FIELDS[objectType][name];
	if (fixed) return { kind: 'fixed', valueKind: fixed };
	const prefix = `${objectType}/${objectType}/`;
	if (!name.startsWith(prefix)) return undefined;
	const rest = name.slice(prefix.length);
	if (CUSTOM_NAME.test(rest)) return { kind: 'custom', scope: objectType, customName: rest };
	if (objectType === 'user' && rest.startsWith('organization/') && CUSTOM_NAME.test(rest.slice('organization/'.length))) {
		return { kind: 'custom', scope: 'organization', customName: rest.slice('organization/'.length) };
	}
	return undefined;
}

/**
 * The value to store, `null` to clear the field, or an error message when the value does not fit.
 * An empty string clears any field; `desktop_broker` 0 also clears ("set null").
 * @param {ValueKind} kind
 * @param {unknown} value
 * @returns {{ ok: true, value: string | number | null } | { ok: false, message: string }}
 */
function checkValue(kind, value) {
	if (value === '') return { ok: true, value: null };
	switch (kind) {
		case 'string':
			return typeof value === 'string' ? { ok: true, value } : { ok: false, message: 'Value must be a string' };
		case 'timestamp':
			return typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value))
				? { ok: true, value: new Date(value).toISOString() }
				: { ok: false, message: 'Value must be an ISO 8601 timestamp such as 2026-11-23T10:15:00.000Z' };
		case 'virtualization_type':
			return Number.isInteger(value) && /** @type {number} */ (value) >= 1 && /** @type {number} */ (value) <= 3
				? { ok: true, value: /** @type {number} */ (value) }
				: { ok: false, message: 'Value must be an integer: 1 (shared), 2 (personal) or 3 (pooled)' };
		case 'desktop_broker':
			if (value === 0) return { ok: true, value: null };
			return Number.isInteger(value) && /** @type {number} */ (value) >= 1 && /** @type {number} */ (value) <= 7
				? { ok: true, value: /** @type {number} */ (value) }
				: { ok: false, message: 'Value must be an integer from 0 to 7' };
	}
}

/**
 * Whether an identification value has the right shape (uids are UUIDs; nothing may be empty).
 * @param {string} name
 * @param {string} value
 */
function identificationValueValid(name, value) {
	if (value === '') return false;
	return !name.endsWith('/uid') || UUID.test(value);
}

module.exports = {
	IDENTIFICATIONS,
	FIXED_FIELDS,
	VIRTUALIZATION_TYPES,
	DESKTOP_BROKERS,
	fieldSpec,
	checkValue,
	identificationValueValid,
};
