#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * Writes what n8n stores and shows of every node and credential of the built package (dist/, as
 * package.json's `n8n` section lists them), one JSON file each, so that two builds can be compared
 * with `diff -r`:
 *
 *   node scripts/dump-descriptions.js <output folder>
 *
 * - `<name>.json`: the description as the class declares it (keys sorted, arrays in order).
 * - `<name>@<version>.json` for every version of a node: the panel as n8n shows that version, with
 *   the `@version` display conditions resolved (a parameter that version does not show is left out,
 *   a condition that holds is removed), so the panel of a version can be compared with another
 *   build's, whatever the version numbers.
 */

const fs = require('node:fs');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..');

/** @param {unknown} value @returns {unknown} */
function sortKeys(value) {
	if (Array.isArray(value)) return value.map(sortKeys);
	if (value === null || typeof value !== 'object') return value;
	/** @type {Record<string, unknown>} */
	const sorted = {};
	for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(/** @type {Record<string, unknown>} */ (value)[key]);
	return sorted;
}

/**
 * Whether `version` meets one value of a `@version` condition: a number, or `{ _cnd: { gte: 1.1 } }`.
 * @param {unknown} condition @param {number} version
 */
function meets(condition, version) {
	if (typeof condition === 'number') return condition === version;
	const cnd = /** @type {{ _cnd?: Record<string, number> }} */ (condition)?._cnd ?? {};
	const tests = { eq: (/** @type {number} */ v) => version === v, not: (v) => version !== v, gte: (v) => version >= v, lte: (v) => version <= v, gt: (v) => version > v, lt: (v) => version < v };
	return Object.entries(cnd).every(([op, v]) => (op in tests ? tests[/** @type {keyof typeof tests} */ (op)](v) : false));
}

/**
 * The properties as `version` shows them: `@version` conditions evaluated and removed, recursively
 * (collection options, fixedCollection values).
 * @param {any[]} properties @param {number} version @returns {any[]}
 */
function atVersion(properties, version) {
	const shown = [];
	for (const property of properties) {
		const copy = { ...property };
		const display = copy.displayOptions;
		if (display) {
			const show = display.show?.['@version'];
			const hide = display.hide?.['@version'];
			if (show !== undefined && !show.some((/** @type {unknown} */ c) => meets(c, version))) continue;
			if (hide !== undefined && hide.some((/** @type {unknown} */ c) => meets(c, version))) continue;
			const rest = {};
			for (const kind of ['show', 'hide']) {
				if (!display[kind]) continue;
				const others = { ...display[kind] };
				delete others['@version'];
				if (Object.keys(others).length > 0) rest[kind] = others;
			}
			if (Object.keys(rest).length > 0) copy.displayOptions = rest;
			else delete copy.displayOptions;
		}
		if (Array.isArray(copy.options) && copy.options.some((/** @type {any} */ o) => o && typeof o === 'object' && ('type' in o || 'values' in o))) {
			copy.options = copy.options.map((/** @type {any} */ o) => (Array.isArray(o.values) ? { ...o, values: atVersion(o.values, version) } : o));
			if (copy.type === 'collection') copy.options = atVersion(copy.options, version);
		}
		shown.push(copy);
	}
	return shown;
}

/** @param {string} outDir */
function main(outDir) {
	if (!outDir) throw new Error('usage: node scripts/dump-descriptions.js <output folder>');
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
	fs.mkdirSync(outDir, { recursive: true });
	const write = (/** @type {string} */ name, /** @type {unknown} */ value) =>
		fs.writeFileSync(path.join(outDir, `${name}.json`), `${JSON.stringify(sortKeys(value), null, '\t')}\n`);
	for (const file of [...pkg.n8n.credentials, ...pkg.n8n.nodes]) {
		const exported = require(path.join(REPO, file));
		for (const Class of Object.values(exported)) {
			if (typeof Class !== 'function') continue;
			const instance = new Class();
			if (instance.nodeVersions) {
				// a versioned node type: one description per version
				for (const [version, node] of Object.entries(instance.nodeVersions)) write(`${instance.description.name}@${version}`, /** @type {any} */ (node).description);
				write(instance.description.name, instance.description);
			} else if (instance.description) {
				const description = instance.description;
				write(description.name, description);
				const versions = Array.isArray(description.version) ? description.version : [description.version];
				for (const version of versions) write(`${description.name}@${version}`, { ...description, version, properties: atVersion(description.properties, version) });
			} else {
				write(instance.name, instance);
			}
		}
	}
	console.log(`descriptions written to ${outDir}: ${fs.readdirSync(outDir).length} files`);
}

main(process.argv[2]);
