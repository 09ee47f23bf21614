/**
 * The Enrichment node's run: prepare every item, send the valid ones in batches, read each answer
 * back onto the items, and emit one output item per input item, in input order.
 *
 * Failures follow the node's "On Error" setting:
 * - Stop Workflow: an item that fails the node's own checks stops the run before anything is sent;
 *   API failures stop it after every batch ran, saying how many items were applied and failed.
 * - Continue (regular output): every item comes out with its outcome.
 * - Continue (using error output): failed items go to the error output, their outcome under `error`.
 * A 401 (after the token was renewed once) or 403 means no further batch can succeed, so the
 * remaining batches are not sent and their items fail with the same explanation.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { readBoolean } from '../shared/booleanParameter';
import { InputError } from '../shared/inputError';
import { nodeErrorOf } from '../shared/nodeErrors';
import { requestTimeoutMs } from '../shared/requestTimeout';
import { errorOutputItem, notSentAfterRefusal, stopIfAnyInvalid, usesErrorOutput } from '../shared/runItems';
import { runsAsTool, toolWritesOff } from '../shared/toolMode';
import { cancelSignalOf } from '../transport';
import { enrichBatch } from './api';
import { buildBatches, DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE } from './batching';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, fieldsParameterName, MAPPING_MODES, UNMAPPED_KEY_HANDLING } from './description';
import { isIdentificationKind, isObjectType, type IdentificationKind, type ObjectType } from './fieldCatalogue';
import { createKeyResolver, type KeyMeaning } from './fieldNames';
import { enrichmentErrorOf, type EnrichmentError } from './itemErrors';
import {
	batchItemOutcomes,
	describeFailure,
	failedOutcome,
	OUTCOME_KEY,
	summariseFailures,
	type ItemOutcome,
} from './itemOutcome';
import { fieldsFromEntries, fieldsFromInput, prepareIdentification, type FieldEntry, type Identification, type PreparedItem } from './itemPreparation';
import { BATCH_ERROR_CODES, failBatch, type ObjectResult } from './batchAnswer';
import type { Batch } from './batching';
import type { ConversionContext } from './valueConversion';
import { plural } from '../shared/wording';

/** Statuses after which no later batch can succeed either. */
const FATAL_STATUSES: ReadonlySet<string> = new Set(['401', '403']);

interface RunSettings {
	objectType: ObjectType;
	identifyBy: IdentificationKind;
	autoMap: boolean;
	reportUnmappedKeys: boolean;
	domain: string;
	batchSize: number;
	/** Nothing is sent: "Validate Only", or a tool run without "Allow Writes When Used as a Tool". */
	validateOnly: boolean;
	/** Why nothing is sent in a tool run, for the model (see toolRunNote); undefined outside tool runs or when writes are allowed. */
	toolNote?: string;
	/** Bound of each request (the Request Timeout option). */
	timeoutMs: number;
	conversion: ConversionContext;
}

type Preparation =
	| { ok: true; item: PreparedItem; unmappedKeys?: string[] }
	| { ok: false; outcome: ItemOutcome };

/** `continueOnFail` is the node's `this.continueOnFail()`, read in its own `execute()`. */
export async function executeEnrichment(this: IExecuteFunctions, continueOnFail: boolean): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	if (items.length === 0) return [[]];
	const settings = readRunSettings(this, items.length);

	const resolveKey = createKeyResolver(settings.objectType);
	const preparations = items.map((item, itemIndex) => prepareItem(this, settings, resolveKey, item, itemIndex));
	if (!continueOnFail) {
		stopIfAnyInvalid(
			this,
			preparations.flatMap((preparation, itemIndex) =>
				preparation.ok ? [] : [{ itemIndex, message: preparation.outcome.errors[0].message, line: describeFailure(itemIndex, preparation.outcome) }],
			),
		);
	}

	const valid = preparations.flatMap((preparation) => (preparation.ok ? [preparation.item] : []));
	const outcomes: Array<ItemOutcome | undefined> = preparations.map((preparation) => (preparation.ok ? undefined : preparation.outcome));
	let fatal: NodeApiError | undefined;
	for (const batch of buildBatches(valid, settings.batchSize)) {
		const step = await runBatch(this, settings, batch, fatal);
		fatal = step.fatal;
		for (const [itemIndex, outcome] of batchItemOutcomes(batch, step.results, settings.objectType, settings.validateOnly ? 'valid' : 'applied')) {
			outcomes[itemIndex] = outcome;
		}
	}

	const finished = outcomes.map((outcome, itemIndex) => {
		const preparation = preparations[itemIndex];
		if (outcome === undefined) throw new NodeOperationError(this.getNode(), `Item ${itemIndex} got no outcome`, { itemIndex });
		if (preparation.ok && preparation.unmappedKeys !== undefined) outcome.unmappedKeys = preparation.unmappedKeys;
		if (settings.toolNote !== undefined) outcome.note = settings.toolNote;
		return outcome;
	});
	if (settings.toolNote !== undefined) this.addExecutionHints?.({ message: settings.toolNote, location: 'outputPane' });
	if (!continueOnFail) throwIfAnyFailed(this, finished, fatal);
	return [toOutputItems(this, items, finished)];
}

/**
 * One batch's step, and the run's fatal error after it: nothing is sent under Validate Only (or a
 * tool run without writes); nothing is sent after an earlier 401 or 403 of this run (the batch
 * fails with that explanation); otherwise the batch is sent and its answer read onto its objects.
 * A 401 or 403 of this batch becomes the run's fatal error.
 */
async function runBatch(
	ctx: IExecuteFunctions,
	settings: RunSettings,
	batch: Batch,
	fatal: NodeApiError | undefined,
): Promise<{ results: ObjectResult[]; fatal: NodeApiError | undefined }> {
	if (settings.validateOnly) return { results: batch.objects.map(() => ({ applied: false, errors: [], warnings: [] })), fatal };
	if (fatal !== undefined) return { results: failBatch(batch, errorOfRequest(fatal, notSentAfterRefusal())), fatal };
	try {
		return { results: await enrichBatch(ctx, batch, settings), fatal };
	} catch (error) {
		if (cancelSignalOf(ctx)?.aborted === true) throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled');
		const isFatal = error instanceof NodeApiError && FATAL_STATUSES.has(String(error.httpCode));
		return { results: failBatch(batch, errorOfRequest(error)), fatal: isFatal ? error : fatal };
	}
}

/**
 * The run's settings. Object type, identification, mapping mode, domain and options describe the
 * whole run (one domain per request, one batch size), so they are read for every item and must be
 * the same for all: an expression that gives item 3 another domain is an error naming both values,
 * never a silent use of item 0's.
 */
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

function readItemRunSettings(ctx: IExecuteFunctions, itemIndex: number): RunSettings {
	const objectType = ctx.getNodeParameter('objectType', itemIndex) as string;
	if (!isObjectType(objectType)) {
		throw new InputError(`Unknown object type "${String(objectType)}"`, 'Object Type');
	}
	const identifyBy = ctx.getNodeParameter('identifyBy', itemIndex) as string;
	if (!isIdentificationKind(objectType, identifyBy)) {
		throw new InputError(`A ${objectType} cannot be identified by "${String(identifyBy)}"`, 'Identify By');
	}
	const domain = readDomain(ctx, itemIndex);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const batchSize = Number(options.batchSize ?? DEFAULT_BATCH_SIZE);
	if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
		throw new InputError(`Batch size must be a whole number from 1 to ${MAX_BATCH_SIZE}, got ${String(options.batchSize)}`, 'Batch Size');
	}
	const timeoutMs = requestTimeoutMs(options.requestTimeoutSeconds, DEFAULT_REQUEST_TIMEOUT_SECONDS);
	const autoMap = ctx.getNodeParameter('mappingMode', itemIndex) === MAPPING_MODES.autoMapInputData;
	return {
		objectType,
		identifyBy,
		autoMap,
		reportUnmappedKeys: autoMap && options.unmappedKeys === UNMAPPED_KEY_HANDLING.report,
		domain,
		batchSize,
		...validation(ctx, options),
		timeoutMs,
		conversion: { timezone: ctx.getTimezone() },
	};
}

/**
 * Whether the run sends anything. An AI agent's tool run only validates unless the workflow's
 * author switched on "Allow Writes When Used as a Tool": a model can be talked into writing
 * (a prompt injection in data it read, a misunderstanding), and enrichment overwrites values
 * across the estate. The note goes into every item's outcome so the model can tell the user.
 */
function validation(ctx: IExecuteFunctions, options: IDataObject): Pick<RunSettings, 'validateOnly' | 'toolNote'> {
	const validateOnly = readBoolean(options.validateOnly, 'Validate Only', false);
	const writesOff = toolWritesOff(ctx, options);
	if (!runsAsTool(ctx)) return { validateOnly };
	if (validateOnly) {
		return {
			validateOnly,
			toolNote:
				'Nothing was written to Nexthink: "Validate Only" is on in the node\'s options, so the values were only checked. Tell the user that nothing was changed.',
		};
	}
	if (!writesOff) return { validateOnly: false };
	return {
		validateOnly: true,
		toolNote:
			'Nothing was written to Nexthink: this node ran as an AI agent\'s tool, and writing from an agent is off ("Allow Writes When Used as a Tool" in the node\'s options), so the values were only checked. Tell the user that nothing was changed; the workflow\'s author can switch that option on to let the agent write.',
	};
}

/** The domain as text: an expression giving an object or a list is refused, never sent as "[object Object]". */
function readDomain(ctx: IExecuteFunctions, itemIndex: number): string {
	const raw = ctx.getNodeParameter('domain', itemIndex);
	if (raw !== null && raw !== undefined && typeof raw !== 'string' && !(typeof raw === 'number' && Number.isFinite(raw))) {
		const got = Array.isArray(raw) ? 'a list' : typeof raw === 'object' ? 'an object' : `${typeof raw} ${String(raw)}`;
		throw new NodeOperationError(ctx.getNode(), `The domain must be text, got ${got}`, {
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

function prepareItem(ctx: IExecuteFunctions, settings: RunSettings, resolveKey: (key: string) => KeyMeaning, item: INodeExecutionData, itemIndex: number): Preparation {
	const { objectType } = settings;
	let identification: Identification | null = null;
	try {
		identification = prepareIdentification(objectType, settings.identifyBy, ctx.getNodeParameter('identificationValue', itemIndex));
		if (settings.autoMap) {
			const mapped = fieldsFromInput(objectType, item.json, resolveKey, settings.conversion);
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

function throwIfAnyFailed(ctx: IExecuteFunctions, outcomes: readonly ItemOutcome[], fatal: NodeApiError | undefined): void {
	const summary = summariseFailures(outcomes);
	if (summary.failed === 0) return;
	if (fatal !== undefined && summary.applied === 0) throw fatal;
	throw new NodeOperationError(
		ctx.getNode(),
		`Nexthink enrichment: ${plural(summary.applied, 'item')} applied, ${plural(summary.failed, 'item')} failed`,
		{
			description: [
				...(fatal !== undefined ? [`${fatal.message}. ${fatal.description ?? ''}`.trim()] : []),
				...summary.firstFailures,
				'Set the node\'s "On Error" setting to continue to get every item with its outcome.',
			].join('\n'),
		},
	);
}

function errorOfRequest(error: unknown, prefix = ''): EnrichmentError {
	if (error instanceof NodeApiError) {
		const message = [error.message, error.description].filter((part) => typeof part === 'string' && part !== '').join('. ');
		// a 2xx that proves nothing (the transport's rule for a write's answer) is an unexpected answer, not an HTTP error
		const code = /^2\d\d$/.test(error.httpCode ?? '') ? BATCH_ERROR_CODES.unexpectedResponse : error.httpCode ? `HTTP_${error.httpCode}` : 'REQUEST_FAILED';
		return { code, message: `${prefix}${message}`, source: 'api' };
	}
	return { code: 'REQUEST_FAILED', message: `${prefix}${error instanceof Error ? error.message : String(error)}`, source: 'node' };
}

function toOutputItems(ctx: IExecuteFunctions, items: readonly INodeExecutionData[], outcomes: readonly ItemOutcome[]): INodeExecutionData[] {
	const toErrorOutput = usesErrorOutput(ctx);
	return items.map((item, itemIndex) => {
		const outcome = outcomes[itemIndex];
		if (toErrorOutput && outcome.status === 'failed') return errorOutputItem(itemIndex, { message: describeFailure(itemIndex, outcome), ...outcome });
		return { json: { ...item.json, [OUTCOME_KEY]: outcome as unknown as IDataObject }, pairedItem: { item: itemIndex } };
	});
}
