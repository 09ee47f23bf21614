// @ts-check
'use strict';

const { isObject, parseJsonObject, sendJson } = require('./http');
const { IDENTIFICATIONS, fieldSpec, checkValue, identificationValueValid } = require('./enrichment-fields');

/**
 * `POST /api/v1/enrichment/data/fields`. Request-level problems answer 400 with a bare
 * `{ message, code }`; problems of single objects are collected per object. An object with any error
 * is left untouched; the others are applied in request order (a later object naming the same target
 * overwrites an earlier one). All objects fine → 200 success, some → 207 partial_success, none → 400
 * error, each failed object listed with its identification and every error found.
 *
 * @typedef {{ name: string, value: string }} Identification
 * @typedef {{ name: string, value: unknown }} Field
 * @typedef {{ identification: Identification[], fields: Field[] }} Enrichment
 * @typedef {{ message: string, code: string }} EnrichmentError
 */

const MAX_ENRICHMENTS = 10000;

/** Error codes this server uses (the real API's list is not public). */
const CODES = {
	invalidJson: 'INVALID_JSON',
	invalidRequest: 'INVALID_REQUEST',
	emptyRequest: 'EMPTY_REQUEST',
	batchSizeExceeded: 'BATCH_SIZE_EXCEEDED',
	invalidIdentification: 'INVALID_IDENTIFICATION',
	objectNotFound: 'OBJECT_NOT_FOUND',
	noFields: 'NO_FIELDS',
	invalidFieldName: 'INVALID_FIELD_NAME',
	customFieldNotFound: 'CUSTOM_FIELD_NOT_FOUND',
	invalidFieldValue: 'INVALID_FIELD_VALUE',
};

/**
 * @param {unknown} value
 * @returns {value is { name: string, value: string }}
 */
const isNameValue = (value) =>
	isObject(value) && typeof (/** @type {any} */ (value).name) === 'string' && typeof (/** @type {any} */ (value).value) === 'string';

/**
 * Shape of the whole request; the message of the first problem, or the enrichments.
 * @param {string} body
 * @returns {{ ok: true, enrichments: Enrichment[] } | { ok: false, error: EnrichmentError }}
 */
function parseRequest(body) {
	/** @param {string} code @param {string} message */
	const fail = (code, message) => ({ ok: /** @type {const} */ (false), error: { message, code } });
	const read = parseJsonObject(body);
	if (!read.ok) return fail(CODES[read.problem], read.message);
	const parsed = read.value;
	if (typeof parsed.domain !== 'string' || parsed.domain.length === 0) {
		return fail(CODES.invalidRequest, 'domain is required and must be a non-empty string');
	}
	const { enrichments } = parsed;
	if (!Array.isArray(enrichments)) return fail(CODES.invalidRequest, 'enrichments is required and must be an array');
	if (enrichments.length === 0) return fail(CODES.emptyRequest, 'enrichments must contain at least 1 object');
	if (enrichments.length > MAX_ENRICHMENTS) {
		return fail(CODES.batchSizeExceeded, `enrichments must contain at most ${MAX_ENRICHMENTS} objects, got ${enrichments.length}`);
	}
	for (const [index, item] of enrichments.entries()) {
		const where = `enrichments[${index}]`;
		if (!isObject(item)) return fail(CODES.invalidRequest, `${where} must be an object`);
		if (!Array.isArray(item.identification) || !item.identification.every(isNameValue)) {
			return fail(CODES.invalidRequest, `${where}.identification must be an array of {name, value} strings`);
		}
		if (!Array.isArray(item.fields) || !item.fields.every((/** @type {any} */ field) => isObject(field) && typeof field.name === 'string' && 'value' in field)) {
			return fail(CODES.invalidRequest, `${where}.fields must be an array of {name, value}`);
		}
	}
	return { ok: true, enrichments };
}

/**
 * Checks one object; returns its errors and, when there are none, the changes to apply.
 * @param {Enrichment} enrichment
 * @param {import('./inventory').Inventory} inventory
 * @returns {{ errors: EnrichmentError[], target?: import('./inventory').InventoryObject, changes: Array<[string, string | number | null]> }}
 */
function checkEnrichment(enrichment, inventory) {
	/** @type {Array<[string, string | number | null]>} */
	const changes = [];
	const { identification, fields } = enrichment;
	if (identification.length !== 1) {
		return { errors: [{ message: `Exactly one identification is required, got ${identification.length}`, code: CODES.invalidIdentification }], changes };
	}
	const { name, value } = identification[0];
	const objectType = IDENTIFICATIONS[name];
	if (!objectType) return { errors: [{ message: `Unknown identification name ${name}`, code: CODES.invalidIdentification }], changes };
	if (!identificationValueValid(name, value)) {
		const expected = name.endsWith('/uid') ? 'a UUID' : 'a non-empty string';
		return { errors: [{ message: `Identification ${name} must be ${expected}`, code: CODES.invalidIdentification }], changes };
	}
	/** @type {EnrichmentError[]} */
	const errors = [];
	if (fields.length === 0) errors.push({ message: 'At least one field is required', code: CODES.noFields });
	for (const field of fields) {
		const spec = fieldSpec(objectType, field.name);
		if (!spec) {
			errors.push({ message: `Field ${field.name} cannot be enriched on a ${objectType}`, code: CODES.invalidFieldName });
			continue;
		}
		if (spec.kind === 'custom' && !inventory.customFields[spec.scope].has(spec.customName)) {
			errors.push({ message: `Manual custom field ${spec.customName} does not exist for ${spec.scope}`, code: CODES.customFieldNotFound });
			continue;
		}
		const checked = checkValue(spec.kind === 'custom' ? 'string' : spec.valueKind, field.value);
		if (!checked.ok) {
			errors.push({ message: `Field ${field.name}: ${checked.message}`, code: CODES.invalidFieldValue });
			continue;
		}
		changes.push([field.name, checked.value]);
	}
	const target = inventory.find(name, value);
	if (!target) errors.push({ message: `No ${objectType} found with ${name} = ${value}`, code: CODES.objectNotFound });
	return { errors, target, changes };
}

/**
 * @param {import('./router').Context} ctx
 * @param {import('./inventory').Inventory} inventory
 */
function handleEnrichment(ctx, inventory) {
	const parsed = parseRequest(ctx.body);
	if (!parsed.ok) {
		sendJson(ctx.res, 400, parsed.error);
		return;
	}
	const failed = [];
	for (const enrichment of parsed.enrichments) {
		const { errors, target, changes } = checkEnrichment(enrichment, inventory);
		if (errors.length > 0 || !target) {
			failed.push({
				identification: enrichment.identification.map(({ name, value }) => ({ name, value })),
				errors,
			});
			continue;
		}
		for (const [fieldName, value] of changes) {
			if (value === null) delete target.fields[fieldName];
			else target.fields[fieldName] = value;
		}
	}
	if (failed.length === 0) sendJson(ctx.res, 200, { status: 'success' });
	else if (failed.length < parsed.enrichments.length) sendJson(ctx.res, 207, { status: 'partial_success', errors: failed });
	else sendJson(ctx.res, 400, { status: 'error', errors: failed });
}

module.exports = { handleEnrichment, ENRICHMENT_ERROR_CODES: CODES };
