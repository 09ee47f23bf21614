/**
 * The Enrichment node's run, on the batched runner (shared/runItems.ts): every item is prepared,
 * the valid ones are sent in batches, each answer is read back onto the items, and every input item
 * gets its outcome under `enrichment`.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readBoolean, readChoice, readWholeNumber, requestTimeoutMs } from '../shared/parameterValues';
import { nodeErrorOf } from '../shared/nodeErrors';
import type { BatchedOperation, FailedRequest } from '../shared/runItems';
import { runsAsTool, toolWritesOff } from '../shared/toolMode';
import { describeValue } from '../shared/inputError';
import { buildBatches, DEFAULT_BATCH_SIZE, enrichBatch, failBatch, MAX_BATCH_SIZE, unexpectedResponse, type Batch, type ObjectResult } from './api';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, fieldsParameterName, MAPPING_MODES, UNMAPPED_KEY_HANDLING } from './description';
import { createKeyResolver, IDENTIFICATION_KINDS, OBJECT_TYPES, type IdentificationKind, type KeyMeaning } from './fieldCatalogue';
import { batchItemOutcomes, describeFailure, enrichmentErrorOf, failedOutcome, type EnrichmentError, type ItemOutcome } from './itemOutcome';
import { fieldsFromEntries, fieldsFromInput, prepareIdentification, type FieldEntry, type Identification, type PreparedItem } from './itemPreparation';

type RunSettings = ReturnType<typeof readItemRunSettings>;

type Settings = RunSettings & { resolveKey: (key: string) => KeyMeaning };

/** An item after its checks: what to send, or (checks failed) its outcome, identification included when it was read. */
type Prepared = { ok: true; item: PreparedItem; unmappedKeys?: string[] } | { ok: false; outcome: ItemOutcome };

type Request = { batch: Batch; itemIndexes: number[] };

export const enrichmentOperation: BatchedOperation<Settings, Prepared, Request, { results: ObjectResult[] }, { requests: Request[] }, ItemOutcome> = {
	outcomeKey: 'enrichment',
	done: 'applied',
	settings() {
		const settings = readRunSettings(this, this.getInputData().length);
		if (settings.toolNote !== undefined) this.addExecutionHints?.({ message: settings.toolNote, location: 'outputPane' });
		return { ...settings, resolveKey: createKeyResolver(settings.objectType) };
	},
	prepare(itemIndex, settings) {
		return prepareItem(this, settings, this.getInputData()[itemIndex].json, itemIndex);
	},
	check(preparations, { settings }) {
		preparations.forEach((preparation, itemIndex) => {
			if (!preparation.ok || preparation.prepared.ok) return;
			const { outcome } = preparation.prepared;
			if (settings.toolNote !== undefined) outcome.note = settings.toolNote;
			preparations[itemIndex] = { ok: false, message: outcome.errors[0].message, outcome };
		});
	},
	validateOnly: (_prepared, settings) => settings.validateOnly,
	plan(itemIndexes, { items, settings }) {
		const valid = itemIndexes.map((itemIndex) => (items.get(itemIndex) as Extract<Prepared, { ok: true }>).item);
		return { requests: buildBatches(valid, settings.batchSize).map((batch) => ({ batch, itemIndexes: batch.objects.flatMap((object) => object.itemIndexes) })) };
	},
	async send({ batch }, { settings }) {
		return { results: await enrichBatch(this, batch, settings) };
	},
	// no refusedObject: after a 401 or 403 no later batch could succeed
	outcomes(plan, results, { items, settings }) {
		const outcomes = new Map<number, ItemOutcome>();
		plan.requests.forEach(({ batch }, index) => {
			const result = results?.[index];
			const objects =
				result === undefined
					? batch.objects.map(() => ({ applied: false, errors: [], warnings: [] }))
					: result.ok
						? result.results
						: failBatch(batch, errorOfRequest(result));
			for (const [itemIndex, outcome] of batchItemOutcomes(batch, objects, settings.objectType, settings.validateOnly ? 'valid' : 'applied')) {
				const { unmappedKeys } = items.get(itemIndex) as Extract<Prepared, { ok: true }>;
				if (unmappedKeys !== undefined) outcome.unmappedKeys = unmappedKeys;
				if (settings.toolNote !== undefined) outcome.note = settings.toolNote;
				outcomes.set(itemIndex, outcome);
			}
		});
		return outcomes;
	},
	failureLine: describeFailure,
};

/** The run's settings, read for every item and the same for all (docs/decisions.md, "Domain and options"). */
function readRunSettings(ctx: IExecuteFunctions, itemCount: number): RunSettings {
	const read = (itemIndex: number) => {
		try {
			return readItemRunSettings(ctx, itemIndex);
		} catch (error) {
			throw nodeErrorOf(ctx.getNode(), error, itemIndex);
		}
	};
	const settings = read(0);
	for (let itemIndex = 1; itemIndex < itemCount; itemIndex++) {
		const other = read(itemIndex);
		for (const [key, label] of RUN_SETTING_LABELS) {
			if (settings[key] !== other[key]) {
				throw new NodeOperationError(
					ctx.getNode(),
					`"${label}" must be the same for every item: item 0 has ${JSON.stringify(settings[key])}, item ${itemIndex} has ${JSON.stringify(other[key])}`,
					{
						itemIndex,
						description: `"${label}" applies to the whole run (every request of it), so it cannot change from item to item. Nothing was sent to Nexthink. Use one value, or split the items (e.g. with a Switch node) and enrich each group with its own node.`,
					},
				);
			}
		}
	}
	return settings;
}

type ComparableSetting = Exclude<keyof RunSettings, 'conversion' | 'toolNote'>;

const RUN_SETTING_LABELS: ReadonlyArray<[ComparableSetting, string]> = [
	['objectType', 'Object Type'],
	['identifyBy', 'Identify By'],
	['autoMap', 'Mapping Mode'],
	['domain', 'Domain'],
	['batchSize', 'Batch Size'],
	['validateOnly', 'Validate Only (or Allow Writes When Used as a Tool)'],
	['reportUnmappedKeys', 'Unmapped Keys'],
	['timeoutMs', 'Request Timeout'],
];

function readItemRunSettings(ctx: IExecuteFunctions, itemIndex: number) {
	const objectType = readChoice(ctx.getNodeParameter('objectType', itemIndex), 'Object Type', OBJECT_TYPES, 'device');
	const kinds: readonly IdentificationKind[] = IDENTIFICATION_KINDS[objectType];
	const identifyBy = readChoice(ctx.getNodeParameter('identifyBy', itemIndex), 'Identify By', kinds, kinds[0]);
	const domain = readDomain(ctx, itemIndex);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const batchSize = readWholeNumber(options.batchSize, 'Batch Size', DEFAULT_BATCH_SIZE, 1, MAX_BATCH_SIZE);
	const timeoutMs = requestTimeoutMs(options.requestTimeoutSeconds, DEFAULT_REQUEST_TIMEOUT_SECONDS);
	const autoMap = readChoice(ctx.getNodeParameter('mappingMode', itemIndex), 'Mapping Mode', Object.values(MAPPING_MODES), MAPPING_MODES.defineBelow) === MAPPING_MODES.autoMapInputData;
	const unmappedKeys = readChoice(options.unmappedKeys, 'Unmapped Input Keys', Object.values(UNMAPPED_KEY_HANDLING), UNMAPPED_KEY_HANDLING.ignore);
	return {
		objectType,
		identifyBy,
		autoMap,
		reportUnmappedKeys: autoMap && unmappedKeys === UNMAPPED_KEY_HANDLING.report,
		domain,
		batchSize,
		...validation(ctx, options),
		timeoutMs,
		conversion: { timezone: ctx.getTimezone() },
	};
}

/** Whether the run only validates, and in a tool run what every outcome tells the model (docs/decisions.md, "As an AI agent's tool"). */
function validation(ctx: IExecuteFunctions, options: IDataObject): { validateOnly: boolean; toolNote?: string } {
	const validateOnly = readBoolean(options.validateOnly, 'Validate Only', false);
	const writesOff = toolWritesOff(ctx, options);
	if (!runsAsTool(ctx) || (!validateOnly && !writesOff)) return { validateOnly };
	const toolNote = validateOnly
		? 'Nothing was written to Nexthink: "Validate Only" is on in the node\'s options, so the values were only checked. Tell the user that nothing was changed.'
		: 'Nothing was written to Nexthink: this node ran as an AI agent\'s tool, and writing from an agent is off ("Allow Writes When Used as a Tool" in the node\'s options), so the values were only checked. Tell the user that nothing was changed; the workflow\'s author can switch that option on to let the agent write.';
	return { validateOnly: true, toolNote };
}

/** The domain as text: an expression giving an object or a list is refused, never sent as "[object Object]". */
function readDomain(ctx: IExecuteFunctions, itemIndex: number): string {
	const raw = ctx.getNodeParameter('domain', itemIndex);
	if (raw !== null && raw !== undefined && typeof raw !== 'string' && !(typeof raw === 'number' && Number.isFinite(raw))) {
		throw new NodeOperationError(ctx.getNode(), `The domain must be text, got ${describeValue(raw)}`, {
			itemIndex,
			description: 'The domain labels where the values came from, e.g. "n8n" or "cmdb-sync". Map a single text value.',
		});
	}
	const domain = String(raw ?? '').trim();
	if (domain === '') {
		throw new NodeOperationError(ctx.getNode(), 'The domain is empty', {
			itemIndex,
			description: 'The Enrichment API requires a domain; it labels where the values came from. The default is "n8n".',
		});
	}
	return domain;
}

function prepareItem(ctx: IExecuteFunctions, settings: Settings, json: IDataObject, itemIndex: number): Prepared {
	const { objectType, resolveKey } = settings;
	let identification: Identification | null = null;
	try {
		identification = prepareIdentification(objectType, settings.identifyBy, ctx.getNodeParameter('identificationValue', itemIndex));
		if (settings.autoMap) {
			const mapped = fieldsFromInput(objectType, json, resolveKey, settings.conversion);
			return {
				ok: true,
				item: { itemIndex, identification, fields: mapped.fields },
				unmappedKeys: settings.reportUnmappedKeys ? mapped.unmappedKeys : undefined,
			};
		}
		const entries = ctx.getNodeParameter(`${fieldsParameterName(objectType)}.fieldValues`, itemIndex, []) as FieldEntry[];
		return { ok: true, item: { itemIndex, identification, fields: fieldsFromEntries(objectType, entries, settings.conversion) } };
	} catch (error) {
		return { ok: false, outcome: failedOutcome(objectType, identification, [enrichmentErrorOf(error)]) };
	}
}

/** A failed (or not sent) batch request as its objects' error: an HTTP code when there was an answer. */
function errorOfRequest(failed: FailedRequest): EnrichmentError {
	const message = [failed.message, failed.description].filter((part) => part !== undefined && part !== '').join('. ');
	if (failed.httpCode === undefined) return { code: 'REQUEST_FAILED', message, source: 'node' };
	// a 2xx that proves nothing (the transport's rule for a write's answer) is an unexpected answer, not an HTTP error
	return /^2\d\d$/.test(failed.httpCode) ? unexpectedResponse(message) : { code: `HTTP_${failed.httpCode}`, message, source: 'api' };
}
