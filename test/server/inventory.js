// @ts-check
'use strict';

const crypto = require('node:crypto');

/**
 * The enrichment side's state: the objects that exist (devices, users, binaries, packages), the
 * manual custom fields defined per object type, and the values enrichment has written. Lookups by
 * uid, device name and UPN ignore case (uids are UUIDs; Windows names and UPNs are case-insensitive);
 * SIDs match exactly.
 *
 * @typedef {import('./enrichment-fields').ObjectType} ObjectType
 * @typedef {import('./enrichment-fields').CustomFieldScope} CustomFieldScope
 *
 * @typedef {object} InventoryObject
 * @property {ObjectType} type
 * @property {string} uid
 * @property {string} name
 * @property {string} [sid]       users
 * @property {string} [upn]       users
 * @property {string} [collectorUid]  devices: the Collector's UUID (`device.collector.uid`), the id the
 *                                Remote Actions API and the Workflows API v1 take
 * @property {Record<string, string>} attributes  further NQL columns for the object's queries (e.g. 'device.entity')
 * @property {Record<string, string | number>} fields  enriched values by enrichment field name ('device/device/#tier')
 *
 * @typedef {{ name: string, uid?: string, sid?: string, upn?: string, collectorUid?: string, attributes?: Record<string, string>, fields?: Record<string, string | number> }} ObjectInput
 */

class Inventory {
	constructor() {
		/** @type {Record<ObjectType, Map<string, InventoryObject>>} objects by lowercased uid */
		this.objects = { device: new Map(), user: new Map(), binary: new Map(), package: new Map() };
		/** @type {Record<CustomFieldScope, Set<string>>} names with their '#', e.g. '#tier' */
		this.customFields = {
			device: new Set(),
			user: new Set(),
			binary: new Set(),
			package: new Set(),
			organization: new Set(),
		};
		/** @type {Map<string, InventoryObject>} */
		this.devicesByName = new Map();
		/** @type {Map<string, InventoryObject>} lowercased collector uid → device */
		this.devicesByCollectorUid = new Map();
		/** @type {Map<string, InventoryObject>} */
		this.usersBySid = new Map();
		/** @type {Map<string, InventoryObject>} */
		this.usersByUpn = new Map();
		/** @type {Array<() => void>} */
		this.customFieldListeners = [];
	}

	get devices() {
		return this.objects.device;
	}

	get users() {
		return this.objects.user;
	}

	get binaries() {
		return this.objects.binary;
	}

	get packages() {
		return this.objects.package;
	}

	/**
	 * @param {ObjectType} type
	 * @param {ObjectInput} input
	 * @returns {InventoryObject}
	 */
	add(type, input) {
		/** @type {InventoryObject} */
		const object = {
			type,
			uid: input.uid ?? crypto.randomUUID(),
			name: input.name,
			attributes: { ...(input.attributes ?? {}) },
			fields: { ...(input.fields ?? {}) },
		};
		if (type === 'user') {
			object.sid = input.sid;
			object.upn = input.upn;
			if (object.sid) this.usersBySid.set(object.sid, object);
			if (object.upn) this.usersByUpn.set(object.upn.toLowerCase(), object);
		}
		if (type === 'device') {
			// Every device has a Collector; without one given it gets a random UUID.
			object.collectorUid = input.collectorUid ?? crypto.randomUUID();
			this.devicesByName.set(object.name.toLowerCase(), object);
			this.devicesByCollectorUid.set(object.collectorUid.toLowerCase(), object);
		}
		this.objects[type].set(object.uid.toLowerCase(), object);
		return object;
	}

	/**
	 * Removes an object and its lookups (by name, Collector UID, SID, UPN); the queries over the
	 * inventory no longer list it. Returns the removed object, or undefined when none has this uid.
	 * @param {ObjectType} type
	 * @param {string} uid
	 * @returns {InventoryObject | undefined}
	 */
	remove(type, uid) {
		const object = this.objects[type].get(uid.toLowerCase());
		if (object === undefined) return undefined;
		this.objects[type].delete(uid.toLowerCase());
		const drop = (/** @type {Map<string, InventoryObject>} */ index, /** @type {string | undefined} */ key) => {
			if (key !== undefined && index.get(key) === object) index.delete(key);
		};
		drop(this.devicesByName, object.name?.toLowerCase());
		drop(this.devicesByCollectorUid, object.collectorUid?.toLowerCase());
		drop(this.usersBySid, object.sid);
		drop(this.usersByUpn, object.upn?.toLowerCase());
		return object;
	}

	/** @param {ObjectInput} input */
	addDevice(input) {
		return this.add('device', input);
	}

	/** @param {ObjectInput} input */
	addUser(input) {
		return this.add('user', input);
	}

	/** @param {ObjectInput} input */
	addBinary(input) {
		return this.add('binary', input);
	}

	/** @param {ObjectInput} input */
	addPackage(input) {
		return this.add('package', input);
	}

	/**
	 * Defines a manual custom field; `scope` 'organization' is the users' organization level.
	 * @param {CustomFieldScope} scope
	 * @param {string} name with or without the leading '#'
	 */
	addCustomField(scope, name) {
		this.customFields[scope].add(name.startsWith('#') ? name : `#${name}`);
		for (const listener of this.customFieldListeners) listener();
	}

	/**
	 * The device whose Collector has this UUID (case-insensitive), if any.
	 * @param {string} collectorUid
	 */
	findDeviceByCollectorUid(collectorUid) {
		return this.devicesByCollectorUid.get(collectorUid.toLowerCase());
	}

	/**
	 * The object an identification names, if it exists.
	 * @param {string} identificationName e.g. 'device/device/name'
	 * @param {string} value
	 */
	find(identificationName, value) {
		switch (identificationName) {
			case 'device/device/name':
				return this.devicesByName.get(value.toLowerCase());
			case 'user/user/sid':
				return this.usersBySid.get(value);
			case 'user/user/upn':
				return this.usersByUpn.get(value.toLowerCase());
			default: {
				const type = /** @type {ObjectType} */ (identificationName.split('/')[0]);
				return this.objects[type]?.get(value.toLowerCase());
			}
		}
	}
}

module.exports = { Inventory };
