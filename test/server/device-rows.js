// @ts-check
'use strict';

/**
 * A synthetic device inventory for big exports and benchmarks. Row `i` depends only on `seed` and
 * `i`, so the same (count, seed) always gives the same rows, lazily, without holding them. Values
 * include what trips CSV handling: commas, double quotes, line breaks and non-ASCII text.
 */

const DEVICE_COLUMNS = Object.freeze([
	'device.name',
	'device.uid',
	'device.entity',
	'device.operating_system.name',
	'device.operating_system.platform',
	'device.operating_system.build',
	'device.hardware.manufacturer',
	'device.hardware.model',
	'device.hardware.type',
	'device.hardware.memory',
	'device.last_seen',
	'device.collector.local_ip',
	'device.collector.version',
	'device.#asset_note',
	'device.virtualization.type',
]);

const SITES = [
	{ code: 'ZRH', entity: 'Zürich HQ' },
	{ code: 'LIS', entity: 'Lisboa, Alfama' },
	{ code: 'SAO', entity: 'São Paulo' },
	{ code: 'KRK', entity: 'Kraków' },
	{ code: 'TYO', entity: '東京オフィス' },
	{ code: 'NYC', entity: 'New York, Midtown' },
	{ code: 'FRA', entity: 'Frankfurt am Main' },
];
const SYSTEMS = [
	{ name: 'Windows 11 Pro 23H2', platform: 'Windows', build: '[22631, 4169]', weight: 5 },
	{ name: 'Windows 10 Enterprise 22H2', platform: 'Windows', build: '[19045, 5011]', weight: 3 },
	{ name: 'macOS Sonoma 14.6', platform: 'macOS', build: '[23G80]', weight: 2 },
	{ name: 'Ubuntu 22.04.4 LTS', platform: 'Linux', build: '[5, 15, 0]', weight: 1 },
];
const HARDWARE = {
	Windows: [
		{ manufacturer: 'Dell Inc.', model: 'Latitude 7440, 14"' },
		{ manufacturer: 'LENOVO', model: 'ThinkPad T14s Gen 4' },
		{ manufacturer: 'HP', model: 'EliteBook 840 G10' },
		{ manufacturer: 'Microsoft Corporation', model: 'Surface Laptop 5' },
	],
	macOS: [
		{ manufacturer: 'Apple Inc.', model: 'MacBook Pro (14-inch, M3)' },
		{ manufacturer: 'Apple Inc.', model: 'MacBook Air (13-inch, M2)' },
	],
	Linux: [{ manufacturer: 'LENOVO', model: 'ThinkPad P16s' }],
};
const TYPES = [
	{ type: 'laptop', prefix: 'LT', weight: 6 },
	{ type: 'desktop', prefix: 'DT', weight: 2 },
	{ type: 'virtual', prefix: 'VD', weight: 2 },
];
const NOTES = ['Replaced "battery" in 2025', 'Line one of the note\nline two, after a break', 'Owner: Renée Müller', 'Loaner; return to IT'];
const VIRTUALIZATION_TYPES = ['shared', 'personal', 'pooled'];
const MEMORY_GIB = [8, 16, 32, 64];
const LAST_SEEN_BASE_MS = Date.UTC(2026, 10, 23);
const THIRTY_DAYS_S = 30 * 24 * 3600;

/**
 * A 32-bit generator (mulberry32 construction) for one row.
 * @param {number} state
 * @returns {() => number} uniform unsigned 32-bit integers
 */
function rowRandom32(state) {
	let s = state >>> 0;
	return () => {
		s = (s + 0x6d2b79f5) >>> 0;
		let t = Math.imul(s ^ (s >>> 15), 1 | s);
		t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
		return (t ^ (t >>> 14)) >>> 0;
	};
}

/**
 * @param {number} seed
 * @param {number} index
 */
function rowSeed(seed, index) {
	let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
	h ^= h >>> 16;
	return Math.imul(h, 0x27d4eb2f) >>> 0;
}

/**
 * @template {{ weight: number }} T
 * @param {readonly T[]} items
 * @param {number} r uniform in [0, 1)
 */
function weighted(items, r) {
	const total = items.reduce((sum, item) => sum + item.weight, 0);
	let point = r * total;
	for (const item of items) {
		point -= item.weight;
		if (point < 0) return item;
	}
	return items[items.length - 1];
}

/**
 * @template T
 * @param {readonly T[]} items
 * @param {number} r
 */
const pick = (items, r) => items[Math.floor(r * items.length)];

// Lookup tables: Number#toString(16) and Date#toISOString dominate the cost of a million rows otherwise.
const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const LAST_SEEN_DAYS = Array.from({ length: 30 }, (_, day) => new Date(LAST_SEEN_BASE_MS - (day + 1) * 86400000).toISOString().slice(0, 11));

/** @param {number} value unsigned 32-bit */
const hex8 = (value) => BYTE_HEX[value >>> 24] + BYTE_HEX[(value >>> 16) & 0xff] + BYTE_HEX[(value >>> 8) & 0xff] + BYTE_HEX[value & 0xff];

/** @param {number} value */
const hex4 = (value) => BYTE_HEX[(value >>> 8) & 0xff] + BYTE_HEX[value & 0xff];

/**
 * A timestamp in the 30 days before LAST_SEEN_BASE_MS, as `toISOString` would write it.
 * @param {number} secondsBack below THIRTY_DAYS_S
 */
function lastSeenTimestamp(secondsBack) {
	const day = Math.floor(secondsBack / 86400);
	const second = 86400 - 1 - (secondsBack % 86400);
	const hours = TWO_DIGITS[Math.floor(second / 3600)];
	const minutes = TWO_DIGITS[Math.floor(second / 60) % 60];
	return `${LAST_SEEN_DAYS[day]}${hours}:${minutes}:${TWO_DIGITS[second % 60]}.000Z`;
}

/**
 * UUID-shaped (version 4 layout); the last 8 digits are the row index, so uids never collide.
 * @param {() => number} random32
 * @param {number} index
 */
function uuidFor(random32, index) {
	const a = random32();
	const b = random32();
	const c = random32();
	return `${hex8(a)}-${hex4(b >>> 16)}-${hex4(0x4000 | (b & 0xfff))}-${hex4(0x8000 | (c & 0x3fff))}-${hex4(c >>> 16)}${hex8(index >>> 0)}`;
}

/**
 * Row `index` of the inventory for `seed`.
 * @param {number} index
 * @param {number} seed
 * @returns {string[]}
 */
function deviceRow(index, seed) {
	const random32 = rowRandom32(rowSeed(seed, index));
	const random = () => random32() / 4294967296;
	const site = pick(SITES, random());
	const system = weighted(SYSTEMS, random());
	const kind = weighted(TYPES, random());
	const hardware = pick(HARDWARE[/** @type {keyof typeof HARDWARE} */ (system.platform)], random());
	const lastSeen = lastSeenTimestamp(random32() % THIRTY_DAYS_S);
	const address = random32();
	const ip = `::ffff:10.${address >>> 24}.${(address >>> 16) & 0xff}.${1 + ((address & 0xffff) % 254)}`;
	const version = random32();
	const noteRoll = random();
	const note = noteRoll < 0.8 ? '' : pick(NOTES, (noteRoll - 0.8) / 0.2);
	return [
		`${kind.prefix}-${site.code}-${String(index + 1).padStart(7, '0')}`,
		uuidFor(random32, index),
		site.entity,
		system.name,
		system.platform,
		system.build,
		hardware.manufacturer,
		hardware.model,
		kind.type,
		String(pick(MEMORY_GIB, random()) * 1024 ** 3),
		lastSeen,
		ip,
		`25.${1 + (version % 4)}.${(version >>> 8) % 3}.${10 + ((version >>> 16) % 90)}`,
		note,
		kind.type === 'virtual' ? pick(VIRTUALIZATION_TYPES, random()) : '',
	];
}

/**
 * `count` device rows (columns: DEVICE_COLUMNS), generated lazily and deterministically from `seed`.
 * @param {number} count
 * @param {number} [seed]
 * @returns {Generator<string[]>}
 */
function* generateDeviceRows(count, seed = 1) {
	for (let index = 0; index < count; index++) yield deviceRow(index, seed);
}

module.exports = { DEVICE_COLUMNS, generateDeviceRows, deviceRow };
