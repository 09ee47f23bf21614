// @ts-check
'use strict';

/**
 * What every server starts with: a few manual custom fields and a handful of objects with readable,
 * fixed names and uids, so tests can enrich them without setting anything up. The uids follow a
 * pattern per type (d… devices, e… their Collectors, a… users, b… binaries, c… packages).
 */

const DEFAULT_CUSTOM_FIELDS = {
	device: ['#tier', '#cmdb_id', '#owner_team'],
	user: ['#cost_center'],
	organization: ['#region', '#business_unit'],
	binary: ['#approved'],
	package: ['#owner'],
};

/** @param {string} prefix @param {number} n */
const uid = (prefix, n) => `${prefix}0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const DEFAULT_DEVICES = [
	{ name: 'LAPTOP-ZRH-001', uid: uid('d', 1), collectorUid: uid('e', 1) },
	{ name: 'LAPTOP-ZRH-002', uid: uid('d', 2), collectorUid: uid('e', 2) },
	{ name: 'DESKTOP-LIS-001', uid: uid('d', 3), collectorUid: uid('e', 3) },
	{ name: 'VDI-POOL-001', uid: uid('d', 4), collectorUid: uid('e', 4) },
	{ name: 'SRV-FRA-001', uid: uid('d', 5), collectorUid: uid('e', 5) },
];

const DEFAULT_USERS = [
	{ name: 'Alice Martin', upn: 'alice.martin@example.com', sid: 'S-1-5-21-1004336348-1177238915-682003330-1001', uid: uid('a', 1) },
	{ name: 'Bob Keller', upn: 'bob.keller@example.com', sid: 'S-1-5-21-1004336348-1177238915-682003330-1002', uid: uid('a', 2) },
	{ name: 'Chloé Dubois', upn: 'chloe.dubois@example.com', sid: 'S-1-5-21-1004336348-1177238915-682003330-1003', uid: uid('a', 3) },
];

const DEFAULT_BINARIES = [
	{ name: 'chrome.exe', uid: uid('b', 1) },
	{ name: 'ms-teams.exe', uid: uid('b', 2) },
	{ name: 'outlook.exe', uid: uid('b', 3) },
];

const DEFAULT_PACKAGES = [
	{ name: 'Google Chrome', uid: uid('c', 1) },
	{ name: 'Microsoft Teams', uid: uid('c', 2) },
	{ name: '7-Zip', uid: uid('c', 3) },
];

/** @param {import('./inventory').Inventory} inventory */
function loadDefaultInventory(inventory) {
	for (const [scope, names] of Object.entries(DEFAULT_CUSTOM_FIELDS)) {
		for (const name of names) inventory.addCustomField(/** @type {import('./inventory').CustomFieldScope} */ (scope), name);
	}
	for (const device of DEFAULT_DEVICES) inventory.addDevice(device);
	for (const user of DEFAULT_USERS) inventory.addUser(user);
	for (const binary of DEFAULT_BINARIES) inventory.addBinary(binary);
	for (const pkg of DEFAULT_PACKAGES) inventory.addPackage(pkg);
}

module.exports = { loadDefaultInventory, DEFAULT_DEVICES, DEFAULT_USERS, DEFAULT_BINARIES, DEFAULT_PACKAGES, DEFAULT_CUSTOM_FIELDS };
