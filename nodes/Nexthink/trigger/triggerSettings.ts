/**
 * Reads the trigger's parameters from the poll context and checks them before any request: the
 * query ID, parameters, log tag, wait and timeout with the Export node's own checks, the rest with
 * triggerInput.ts.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkQueryFields, QueryInputError, readQueryFields, validateLogTag } from '../export/shared/queryInput';
import { checkWaitSettings, DEFAULT_WAIT_SETTINGS, WaitSettingsError, type WaitSettings } from '../export/shared/waitSchedule';
import { requestTimeoutMs, RequestTimeoutError } from '../shared/requestTimeout';
import { CHANGE_KINDS, type ChangeKind, type CompareSettings } from './changeDetection';
import { DEFAULT_EXECUTE_TIMEOUT_SECONDS, DEFAULT_EXPORT_TIMEOUT_SECONDS, DEFAULT_MAX_WAIT_SECONDS } from './description';
import { readRemovalLimit, RemovalLimitSettingError, type RemovalLimit } from './removalLimit';
import { parseColumnList, parseEmit, TriggerSettingError } from './triggerInput';

export interface TriggerSettings {
	queryId: string;
	parameters: Record<string, string>;
	method: 'export' | 'execute';
	compare: CompareSettings;
	emit: Set<ChangeKind>;
	emitAllOnFirstPoll: boolean;
	removalLimit: RemovalLimit;
	logTag?: string;
	wait: WaitSettings;
	timeoutMs: number;
}

/** Reads and checks every parameter; a bad one fails the poll before any request, naming it. */
export function readTriggerSettings(ctx: IPollFunctions): TriggerSettings {
	const get = (name: string, fallback: unknown) => ctx.getNodeParameter(name, fallback) as unknown;
	const options = (get('options', {}) ?? {}) as IDataObject;
	try {
		const method = get('queryMethod', 'export') === 'execute' ? 'execute' : 'export';
		const { queryId, parameters } = checkQueryFields(readQueryFields(get));
		const maxWaitSeconds = options.maxWaitSeconds === undefined ? DEFAULT_MAX_WAIT_SECONDS : Number(options.maxWaitSeconds);
		return {
			queryId,
			parameters,
			method,
			compare: {
				keyColumns: parseColumnList(get('keyColumns', ''), 'Key Columns', true),
				compareColumns: parseColumnList(options.compareColumns, 'Compare Columns', false),
			},
			emit: parseEmit(get('emit', [...CHANGE_KINDS])),
			emitAllOnFirstPoll: options.emitAllOnFirstPoll === true,
			removalLimit: readRemovalLimit(options.maxRemoved, options.maxRemovedPercent),
			logTag: validateLogTag(options.logTag),
			wait: checkWaitSettings({ ...DEFAULT_WAIT_SETTINGS, maxWaitMs: maxWaitSeconds * 1000 }),
			timeoutMs: requestTimeoutMs(
				options.requestTimeoutSeconds,
				method === 'execute' ? DEFAULT_EXECUTE_TIMEOUT_SECONDS : DEFAULT_EXPORT_TIMEOUT_SECONDS,
			),
		};
	} catch (error) {
		const known =
			error instanceof QueryInputError ||
			error instanceof TriggerSettingError ||
			error instanceof RemovalLimitSettingError ||
			error instanceof WaitSettingsError ||
			error instanceof RequestTimeoutError;
		throw new NodeOperationError(ctx.getNode(), known ? (error as Error).message : (error as Error));
	}
}
