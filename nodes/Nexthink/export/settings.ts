/** Reads the Export node's options for one item into plain settings, checked before any request (InputError). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readBoolean, readChoice, readText, readWholeNumber, requestTimeoutMs } from '../shared/parameterValues';
import { InputError } from '../shared/inputError';
import { catalogueEntryOf, checkCatalogueParameters, readCatalogue, type CatalogueEntry } from '../shared/queryCatalogue';
import { runsAsTool } from '../shared/toolMode';
import { DEFAULT_TOOL_MAX_ROWS, readToolOutputShape, TOOL_ROWS_OPTION, toolMaxOutputBytes } from '../shared/toolOutput';
import { limitFromOption, MB, resultLimitsFromOptions } from '../results/limits';
import type { Compression } from '../results/decompress';
import { checkQueryFields, readQueryFields, validateLogTag, type QuerySettings } from '../nql/queryInput';
import { DEFAULT_MAX_ANSWER_BYTES } from '../nql/executeAnswer';
import { readWaitOptions, type WaitSettings } from '../nql/waitSchedule';

const METADATA_MODES = ['none', 'separateItem', 'eachRow'] as const;
export type MetadataMode = (typeof METADATA_MODES)[number];

export type ResultSettings = ReturnType<typeof readResultSettings>;

/** A tool run's bounds (shared/toolOutput.ts), its output shape and the query catalogue's Simplified Columns of the query. */
export type ToolLimits = NonNullable<ReturnType<typeof readToolLimits>>;

const EXECUTE_DEFAULT_TIMEOUT_SECONDS = 60;

/** Execute Query's settings; `simplifiedColumns`: the query catalogue's for the query, when it lists some. */
export function readExecuteSettings(ctx: IExecuteFunctions, itemIndex: number, simplifiedColumns?: readonly string[]) {
	const [options, advanced] = collections(ctx, itemIndex);
	return {
		apiVersion: readChoice(options.apiVersion, 'API Version', ['v2', 'v1'], 'v2'),
		asCsv: readChoice(options.responseFormat, 'Response Format', ['json', 'csv'], 'json') === 'csv',
		convertTypes: readBoolean(options.convertTypes, 'Convert Types', false),
		includeMetadata: readChoice(options.includeMetadata, 'Include Query Metadata', METADATA_MODES, 'none'),
		utcTimestamps: readBoolean(options.utcTimestamps, 'UTC Timestamps', false),
		timeoutMs: requestTimeoutMs(options.requestTimeoutSeconds, EXECUTE_DEFAULT_TIMEOUT_SECONDS),
		tool: readToolLimits(ctx, options, 0, simplifiedColumns),
		limits: resultLimitsFromOptions(advanced),
		maxAnswerBytes: limitFromOption(advanced.maxAnswerMB, 'Max Answer Size (MB)', DEFAULT_MAX_ANSWER_BYTES, MB),
	};
}

function collections(ctx: IExecuteFunctions, itemIndex: number): [IDataObject, IDataObject] {
	return [ctx.getNodeParameter('options', itemIndex, {}) as IDataObject, ctx.getNodeParameter('advancedOptions', itemIndex, {}) as IDataObject];
}

/** The query and its parameters, checked against the Query Catalogue when it lists queries (shared/queryCatalogue.ts). */
export function readQuerySettings(ctx: IExecuteFunctions, itemIndex: number): QuerySettings & { catalogueEntry?: CatalogueEntry } {
	// Query ID is a resource locator: `extractValue` gives its value, and a plain string as it is (n8n-core's extract-value.ts)
	const raw = readQueryFields((name, fallback) => ctx.getNodeParameter(name, itemIndex, fallback, name === 'queryId' ? { extractValue: true } : undefined));
	const catalogue = readCatalogue(ctx.getNodeParameter('queryCatalogue.query', itemIndex, []));
	if (catalogue === undefined) return checkQueryFields(raw);
	const catalogueEntry = catalogueEntryOf(catalogue, raw.queryId);
	const query = checkQueryFields(raw);
	checkCatalogueParameters(catalogueEntry, Object.keys(query.parameters));
	return { ...query, catalogueEntry };
}

export function readStartSettings(ctx: IExecuteFunctions, itemIndex: number) {
	const [options, advanced] = collections(ctx, itemIndex);
	return {
		compression: readChoice<Compression>(ctx.getNodeParameter('compression', itemIndex, 'GZIP'), 'Compression', ['GZIP', 'NONE', 'ZSTD'], 'GZIP'),
		method: readChoice(advanced.startMethod, 'Start Method', ['POST', 'GET'], 'POST'),
		logTag: validateLogTag(options.logTag),
	};
}

/** Request Timeout of the Export operations (default 300 s), checked before any request. */
export function readTimeoutMs(ctx: IExecuteFunctions, itemIndex: number): number {
	return requestTimeoutMs(collections(ctx, itemIndex)[0].requestTimeoutSeconds, 300);
}

export function readWaitSettings(ctx: IExecuteFunctions, itemIndex: number): WaitSettings & { failOnTimeout: boolean } {
	const [options, advanced] = collections(ctx, itemIndex);
	// Maximum Wait is an everyday option, the polling curve an advanced one
	const settings = readWaitOptions({ ...advanced, maxWaitSeconds: options.maxWaitSeconds });
	return { ...settings, failOnTimeout: readChoice(options.onTimeout, 'On Timeout', ['fail', 'returnStatus'], 'fail') === 'fail' };
}

/**
 * The tool-run options, checked whether or not the node runs as a tool; the bounds in a tool run only.
 * `maxRows`: Max Rows (0 = none), which applies when it is the lower limit.
 */
function readToolLimits(ctx: IExecuteFunctions, options: IDataObject, maxRows: number, simplifiedColumns?: readonly string[]) {
	const toolMaxRows = readWholeNumber(options.maxRowsAsTool, TOOL_ROWS_OPTION, DEFAULT_TOOL_MAX_ROWS, 1, Number.MAX_SAFE_INTEGER);
	const maxBytes = toolMaxOutputBytes(options.maxOutputKBAsTool);
	const shape = readToolOutputShape(options);
	if (!runsAsTool(ctx)) return undefined;
	const userLimitApplies = maxRows !== 0 && maxRows <= toolMaxRows;
	return {
		maxRows: userLimitApplies ? maxRows : toolMaxRows,
		rowLimitOption: userLimitApplies ? 'Max Rows' : TOOL_ROWS_OPTION,
		maxBytes,
		shape,
		simplifiedColumns,
	};
}

/** `simplifiedColumns`: the query catalogue's for the query, when it lists some; `tool`: set in a tool run only. */
export function readResultSettings(ctx: IExecuteFunctions, itemIndex: number, simplifiedColumns?: readonly string[]) {
	const [options, advanced] = collections(ctx, itemIndex);
	const output = readChoice(options.output, 'Output', ['rows', 'file', 'rowsAndFile'], 'rows');
	// beyond 2^53 - 1 counting is no longer exact
	const maxRows = readWholeNumber(options.maxRows, 'Max Rows', 0, 0, Number.MAX_SAFE_INTEGER);
	const tool = readToolLimits(ctx, options, maxRows, simplifiedColumns);
	const binaryPropertyName = readText(options.binaryPropertyName ?? 'data', 'Put File in Field').trim();
	if (output !== 'rows' && binaryPropertyName === '') throw new InputError('"Put File in Field" is empty.');
	return {
		output,
		includeMetadata: readChoice(options.includeMetadata, 'Include Export Metadata', METADATA_MODES, 'none'),
		convertTypes: readBoolean(options.convertTypes, 'Convert Types', false),
		maxRows: tool?.maxRows ?? maxRows,
		binaryPropertyName,
		failOnTruncated: readChoice(options.onTruncated, 'Truncated Results', ['report', 'fail'], 'report') === 'fail',
		limits: resultLimitsFromOptions(advanced),
		tool,
	};
}

export function readExportId(ctx: IExecuteFunctions, itemIndex: number): string {
	const exportId = readText(ctx.getNodeParameter('exportId', itemIndex, ''), 'Export ID').trim();
	if (exportId === '') {
		throw new InputError('The export ID is empty. Map it from Start Export, e.g. {{ $json.exportId }}.', 'Export ID');
	}
	return exportId;
}

export function readResultsFileUrl(ctx: IExecuteFunctions, itemIndex: number): string {
	const url = readText(ctx.getNodeParameter('resultsFileUrl', itemIndex, ''), 'Results File URL').trim();
	if (!/^https?:\/\/\S+$/i.test(url)) {
		throw new InputError(`The results file URL "${url.slice(0, 80)}" is not an http(s) URL. Map it from Get Status, e.g. {{ $json.resultsFileUrl }}.`, 'Results File URL');
	}
	return url;
}
