// @ts-check
'use strict';

const crypto = require('node:crypto');
const { DEVICE_COLUMNS, generateDeviceRows } = require('./device-rows');
const { nqlValue } = require('./inventory-queries');
const { addStatusQuery, STATUS_QUERY_NQL } = require('./actions');

/**
 * The demo estate (`demo: true`, `cli.js --demo`): a few thousand devices and users with realistic
 * names and uids, binaries, packages, and the stored queries the example workflows use. Everything is
 * derived from fixed seeds, so two runs show the same estate.
 *
 * @typedef {import('./inventory').Inventory} Inventory
 * @typedef {import('./queries').QueryRegistry} QueryRegistry
 */

const DEMO_DEVICE_COUNT = 2500;
const DEMO_USER_COUNT = 3000;
const DEMO_DEVICE_SEED = 2026;
const BIG_INVENTORY_SEED = 1;
const BIG_INVENTORY_ROWS = 1000000;

const FIRST_NAMES = ['Alice', 'Bruno', 'Chloé', 'Dmitri', 'Emma', 'François', 'Greta', 'Hiro', 'Inès', 'Jonas', 'Kasia', 'Luca', 'Mia', 'Noah', 'Olga', 'Pedro', 'Renée', 'Sven', 'Tanvi', 'Zoë'];
const LAST_NAMES = ['Müller', 'Martin', 'Rossi', 'García', 'Nowak', 'Silva', 'Dubois', 'Keller', 'Tanaka', "O'Brien", 'Johansson', 'Novák', 'Schmid', 'Costa', 'Weber'];
const DEPARTMENTS = ['Finance', 'Engineering', 'Sales, EMEA', 'Human Resources', 'IT Operations', 'Marketing'];
const JOB_TITLES = ['Analyst', 'Software Engineer', 'Account Executive', 'HR Partner', 'Service Desk Agent', 'Product Manager'];
const CITIES = ['Zürich', 'Lisboa', 'São Paulo', 'Kraków', 'Tokyo', 'New York', 'Frankfurt'];
const BINARIES = ['chrome.exe', 'msedge.exe', 'firefox.exe', 'ms-teams.exe', 'outlook.exe', 'winword.exe', 'excel.exe', 'powerpnt.exe', 'zoom.exe', 'slack.exe', 'code.exe', 'acrord32.exe', 'onedrive.exe', 'explorer.exe', 'svchost.exe'];
const PACKAGES = ['Google Chrome', 'Microsoft Edge', 'Mozilla Firefox', 'Microsoft Teams', 'Microsoft 365 Apps for enterprise', 'Zoom Workplace', 'Slack', 'Visual Studio Code', 'Adobe Acrobat Reader', '7-Zip', 'Notepad++', 'VLC media player', 'Citrix Workspace', 'VMware Horizon Client', 'Python 3.12'];
const VERSIONS = ['1.0', '2.3', '10.4', '124.0'];
const DESKTOP_POOLS = ['pool-zrh-finance', 'pool-lis-dev', 'pool-nyc-sales'];

/**
 * A stable UUID-shaped id for the i-th object of a kind.
 * @param {string} kind
 * @param {number} index
 */
function demoUid(kind, index) {
	const hex = crypto.createHash('sha1').update(`${kind}:${index}`).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** @param {Inventory} inventory */
function addDevices(inventory) {
	inventory.addCustomField('device', '#asset_note');
	const virtualizationTypes = { shared: 1, personal: 2, pooled: 3 };
	let index = 0;
	for (const row of generateDeviceRows(DEMO_DEVICE_COUNT, DEMO_DEVICE_SEED)) {
		const attributes = Object.fromEntries(DEVICE_COLUMNS.map((column, i) => [column, row[i]]));
		/** @type {Record<string, string | number>} */
		const fields = {};
		const note = attributes['device.#asset_note'];
		if (note) fields['device/device/#asset_note'] = note;
		const type = /** @type {keyof typeof virtualizationTypes | ''} */ (attributes['device.virtualization.type']);
		if (type) {
			fields['device/device/virtualization/type'] = virtualizationTypes[type];
			fields['device/device/virtualization/desktop_broker'] = 1 + (index % 7);
			fields['device/device/virtualization/desktop_pool'] = DESKTOP_POOLS[index % DESKTOP_POOLS.length];
			fields['device/device/virtualization/hypervisor_name'] = `esx-${String(1 + (index % 12)).padStart(2, '0')}.example.com`;
		}
		inventory.addDevice({ name: row[0], uid: row[1], collectorUid: demoUid('collector', index), attributes, fields });
		index += 1;
	}
}

/** @param {Inventory} inventory */
function addUsers(inventory) {
	for (let i = 0; i < DEMO_USER_COUNT; i++) {
		const first = FIRST_NAMES[i % FIRST_NAMES.length];
		const last = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length];
		const login = `${first}.${last}`.normalize('NFD').replace(/[^A-Za-z.]/g, '').toLowerCase();
		/** @type {Record<string, string>} */
		const fields = {};
		if (i % 4 !== 3) {
			fields['user/user/ad/department'] = DEPARTMENTS[i % DEPARTMENTS.length];
			fields['user/user/ad/job_title'] = JOB_TITLES[(i * 7) % JOB_TITLES.length];
			fields['user/user/ad/city'] = CITIES[(i * 3) % CITIES.length];
		}
		inventory.addUser({
			name: `${first} ${last}`,
			upn: `${login}${i >= FIRST_NAMES.length * LAST_NAMES.length ? i : ''}@contoso.example`,
			sid: `S-1-5-21-3623811015-3361044348-30300820-${10000 + i}`,
			uid: demoUid('user', i),
			fields,
		});
	}
}

/** @param {Inventory} inventory */
function addSoftware(inventory) {
	BINARIES.forEach((name, i) => {
		for (const [v, version] of VERSIONS.entries()) {
			inventory.addBinary({ name, uid: demoUid('binary', i * VERSIONS.length + v), attributes: { 'binary.version': version } });
		}
	});
	PACKAGES.forEach((name, i) => {
		for (const [v, version] of VERSIONS.entries()) {
			inventory.addPackage({ name, uid: demoUid('package', i * VERSIONS.length + v), attributes: { 'package.version': version } });
		}
	});
}

/**
 * The all-devices row of a device: its attributes, with the enrichable columns read from the fields
 * (so an enrichment shows up in the next export).
 * @param {import('./inventory').InventoryObject} device
 */
function allDevicesRow(device) {
	return DEVICE_COLUMNS.map((column) => {
		if (column === 'device.virtualization.type') {
			return nqlValue('device/device/virtualization/type', device.fields['device/device/virtualization/type']);
		}
		if (column === 'device.#asset_note') return String(device.fields['device/device/#asset_note'] ?? '');
		return device.attributes[column] ?? '';
	});
}

/**
 * NQL `==` on strings: case-insensitive, `*` matches any run of characters.
 * @param {string} pattern
 */
function nqlEqualsMatcher(pattern) {
	const source = pattern
		.split('*')
		.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
		.join('.*');
	const regex = new RegExp(`^${source}$`, 'i');
	return (/** @type {string} */ value) => regex.test(value);
}

/**
 * @param {Inventory} inventory
 * @param {QueryRegistry} queries
 * @param {{ slowExportMs: number }} options
 */
function registerDemoQueries(inventory, queries, options) {
	const devices = () => [...inventory.devices.values()].filter((device) => device.attributes['device.name'] !== undefined);
	const deviceColumnTypes = /** @type {const} */ ({ 'device.last_seen': 'timestamp', 'device.hardware.memory': 'number' });
	queries.add({
		id: '#all_devices',
		header: [...DEVICE_COLUMNS],
		rows: () => devices().map(allDevicesRow),
		snapshot: true,
		columnTypes: deviceColumnTypes,
		nql: `devices during past 30d | list ${DEVICE_COLUMNS.join(', ')}`,
	});
	queries.add({
		id: '#devices_by_os',
		header: [...DEVICE_COLUMNS],
		parameters: ['os'],
		rows: (params) => {
			const matches = nqlEqualsMatcher(params.os);
			return devices()
				.filter((device) => matches(device.attributes['device.operating_system.name']))
				.map(allDevicesRow);
		},
		snapshot: true,
		columnTypes: deviceColumnTypes,
		nql: `devices during past 30d | where device.operating_system.name == $os | list ${DEVICE_COLUMNS.join(', ')}`,
	});
	queries.add({
		id: '#devices_by_name',
		header: ['device.name', 'device.uid'],
		parameters: ['name'],
		rows: (params) => {
			const matches = nqlEqualsMatcher(params.name);
			return devices()
				.filter((device) => matches(device.name))
				.map((device) => [device.name, device.uid]);
		},
		snapshot: true,
		nql: 'devices during past 30d | where device.name == $name | list device.name, device.uid',
	});
	const vdiFields = ['type', 'desktop_broker', 'desktop_pool', 'hypervisor_name', 'last_update'].map(
		(name) => `device/device/virtualization/${name}`,
	);
	queries.add({
		id: '#vdi_devices',
		header: ['device.name', 'device.uid', ...vdiFields.map((name) => `device.${name.split('/').slice(2).join('.')}`)],
		rows: () =>
			[...inventory.devices.values()]
				.filter((device) => device.fields['device/device/virtualization/type'] !== undefined)
				.map((device) => [device.name, device.uid, ...vdiFields.map((name) => nqlValue(name, device.fields[name]))]),
		snapshot: true,
		columnTypes: { 'device.virtualization.last_update': 'timestamp' },
		nql: 'devices | where device.virtualization.type != null | list device.name, device.uid, device.virtualization.*',
	});
	queries.add({
		id: '#big_device_inventory',
		header: [...DEVICE_COLUMNS],
		rows: () => generateDeviceRows(BIG_INVENTORY_ROWS, BIG_INVENTORY_SEED),
		completeAfterPolls: 1,
		columnTypes: deviceColumnTypes,
		nql: `devices | list ${DEVICE_COLUMNS.join(', ')}`,
	});
	queries.add({
		id: '#slow_export',
		header: ['device.name', 'device.uid', 'device.entity'],
		rows: () => devices().slice(0, 100).map((device) => [device.name, device.uid, device.attributes['device.entity']]),
		snapshot: true,
		completeAfterMs: options.slowExportMs,
		nql: 'devices | list device.name, device.uid, device.entity | limit 100',
	});
}

/** Stored status queries of the demo, one per action table (the NQL a user creates in Nexthink). */
/** The status queries of Wait for Results, defined by exactly the NQL the README tells users to create. */
const DEMO_STATUS_QUERIES = /** @type {const} */ ([
	{ id: '#n8n_remote_action_status', nql: STATUS_QUERY_NQL['remote_action.executions'] },
	{ id: '#n8n_workflow_status', nql: STATUS_QUERY_NQL['workflow.executions'] },
	{ id: '#n8n_campaign_status', nql: STATUS_QUERY_NQL['campaign.responses'] },
]);

/**
 * Queries the action examples start from, and the status queries they wait with:
 * - `#high_cpu_devices`: every 50th demo device (with its Collector UID, what remote actions take)
 *   and a CPU usage of 85–99 %;
 * - `#old_device_users`: every 40th demo user with "their" device (the device of the same index) and
 *   an age of 4–7 years;
 * - `#n8n_remote_action_status`, `#n8n_workflow_status`, `#n8n_campaign_status`: `$request_id`.
 * @param {Inventory} inventory
 * @param {QueryRegistry} queries
 * @param {import('./actions').ActionStore} actions
 */
function registerActionQueries(inventory, queries, actions) {
	const demoDevices = () => [...inventory.devices.values()].filter((device) => device.attributes['device.name'] !== undefined);
	queries.add({
		id: '#high_cpu_devices',
		header: ['device.name', 'device.uid', 'device.collector.uid', 'device.operating_system.platform', 'cpu_usage_percent'],
		rows: () =>
			demoDevices()
				.filter((_, index) => index % 50 === 7)
				.map((device, index) => [device.name, device.uid, device.collectorUid, device.attributes['device.operating_system.platform'], 85 + (index % 15)]),
		snapshot: true,
		columnTypes: { cpu_usage_percent: 'number' },
		nql:
			'devices during past 24h | include device_performance.events during past 24h | compute cpu_usage_percent = cpu_usage.avg() ' +
			'| where cpu_usage_percent > 85 | list device.name, device.uid, device.collector.uid, device.operating_system.platform, cpu_usage_percent',
	});
	queries.add({
		id: '#old_device_users',
		header: ['user.name', 'user.sid', 'user.upn', 'device.name', 'device_age_years'],
		rows: () => {
			const devices = demoDevices();
			const users = [...inventory.users.values()].filter((user) => user.upn?.endsWith('@contoso.example'));
			return users
				.map((user, index) => ({ user, index }))
				.filter(({ index }) => index % 40 === 3 && index < devices.length)
				.map(({ user, index }) => [user.name, user.sid, user.upn, devices[index].name, 4 + (index % 4)]);
		},
		snapshot: true,
		columnTypes: { device_age_years: 'number' },
		nql: 'devices | where hardware.age > 4y | list user.name, user.sid, user.upn, device.name, device_age_years',
	});
	for (const spec of DEMO_STATUS_QUERIES) addStatusQuery(queries, actions, spec);
}

/**
 * @param {Inventory} inventory
 * @param {QueryRegistry} queries
 * @param {{ slowExportMs: number }} options
 * @param {import('./actions').ActionStore} actions
 */
function loadDemoEstate(inventory, queries, options, actions) {
	addDevices(inventory);
	addUsers(inventory);
	addSoftware(inventory);
	registerDemoQueries(inventory, queries, options);
	registerActionQueries(inventory, queries, actions);
}

module.exports = { loadDemoEstate, nqlEqualsMatcher, DEMO_STATUS_QUERIES, DEMO_DEVICE_COUNT, DEMO_USER_COUNT, BIG_INVENTORY_ROWS, BIG_INVENTORY_SEED };
