// @ts-check
'use strict';

const { FIXED_FIELDS, VIRTUALIZATION_TYPES, DESKTOP_BROKERS } = require('./enrichment-fields');

/**
 * Stored queries that read the enrichment inventory, so an export shows what enrichment wrote:
 * `#device_fields`, `#user_directory`, `#binary_fields`, `#package_fields`. Each lists the object's
 * name and uid (users also sid and upn), every fixed enrichable field and every manual custom field
 * defined at the time, with rows taken when the export starts.
 *
 * @typedef {import('./enrichment-fields').ObjectType} ObjectType
 * @typedef {import('./inventory').Inventory} Inventory
 * @typedef {import('./inventory').InventoryObject} InventoryObject
 */

/** @type {Record<ObjectType, string>} */
const QUERY_IDS = {
	device: '#device_fields',
	user: '#user_directory',
	binary: '#binary_fields',
	package: '#package_fields',
};

/**
 * `device/device/virtualization/type` → `device.virtualization.type`; `user/user/organization/#region` → `user.organization.#region`.
 * @param {string} fieldName
 */
function nqlColumn(fieldName) {
	const [object, , ...rest] = fieldName.split('/');
	return `${object}.${rest.join('.')}`;
}

/**
 * How NQL shows a stored enrichment value: enumerations by name, the rest as text.
 * @param {string} fieldName
 * @param {string | number | undefined} value
 */
function nqlValue(fieldName, value) {
	if (value === undefined) return '';
	if (fieldName.endsWith('/virtualization/type')) return VIRTUALIZATION_TYPES[/** @type {number} */ (value)] ?? String(value);
	if (fieldName.endsWith('/virtualization/desktop_broker')) return DESKTOP_BROKERS[/** @type {number} */ (value)] ?? String(value);
	return String(value);
}

/**
 * Enrichment field names shown for an object type: fixed ones, then organization and custom fields.
 * @param {Inventory} inventory
 * @param {ObjectType} type
 */
function enrichableFieldNames(inventory, type) {
	const prefix = `${type}/${type}/`;
	const organization = type === 'user' ? [...inventory.customFields.organization].sort().map((name) => `${prefix}organization/${name}`) : [];
	const custom = [...inventory.customFields[type]].sort().map((name) => `${prefix}${name}`);
	return [...Object.keys(FIXED_FIELDS[type]), ...organization, ...custom];
}

/**
 * @param {Inventory} inventory
 * @param {ObjectType} type
 * @returns {import('./queries').QuerySpec}
 */
function inventoryQuery(inventory, type) {
	const identity = type === 'user' ? ['name', 'uid', 'sid', 'upn'] : ['name', 'uid'];
	const fieldNames = enrichableFieldNames(inventory, type);
	return {
		id: QUERY_IDS[type],
		header: [...identity.map((key) => `${type}.${key}`), ...fieldNames.map(nqlColumn)],
		snapshot: true,
		rows: () =>
			[...inventory.objects[type].values()].map((object) => [
				...identity.map((key) => String(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (object))[key] ?? '')),
				...fieldNames.map((name) => nqlValue(name, object.fields[name])),
			]),
	};
}

/**
 * Registers the four queries and keeps their columns in step with the custom fields defined.
 * @param {import('./queries').QueryRegistry} queries
 * @param {Inventory} inventory
 */
function registerInventoryQueries(queries, inventory) {
	const register = () => {
		for (const type of /** @type {ObjectType[]} */ (Object.keys(QUERY_IDS))) queries.add(inventoryQuery(inventory, type));
	};
	register();
	inventory.customFieldListeners.push(register);
}

module.exports = { registerInventoryQueries, nqlColumn, nqlValue, QUERY_IDS };
