/** Wait for Results settings, checked before any request (no n8n imports); waitForResults.ts reads them from the node. */
import { EXECUTE_ROW_LIMIT } from '../../nql/executeAnswer';
import { normaliseQueryId } from '../../nql/queryInput';
import { checkWaitSettings, DEFAULT_WAIT_SETTINGS, type WaitSettings } from '../../nql/waitSchedule';
import { InputError } from '../../shared/inputError';

/** Targets per run request while waiting: the status rows of one request must fit in one execute answer. */
export const RESULTS_MAX_TARGETS_PER_REQUEST = EXECUTE_ROW_LIMIT;

export const DEFAULT_REQUEST_ID_PARAMETER = 'request_id';

export interface ResultsWaitSettings extends WaitSettings {
	queryId: string;
	/** The query's parameter name, without `$`. */
	requestIdParameter: string;
}

/** The checks of Wait for Results of one item, on the parameter values; throws `InputError` naming the field. */
export function checkResultsWait(rawQueryId: unknown, options: Record<string, unknown>): ResultsWaitSettings {
	const queryId = attempt(() => normaliseQueryId(rawQueryId));
	if (!queryId.ok) throw new InputError(`Status Query ID: ${queryId.problem} Wait for Results runs this stored query with the request ID.`, 'Status Query ID');
	const rawParameter = options.requestIdParameter === undefined || options.requestIdParameter === '' ? DEFAULT_REQUEST_ID_PARAMETER : options.requestIdParameter;
	const requestIdParameter = typeof rawParameter === 'string' ? rawParameter.trim().replace(/^\$/, '') : '';
	if (!/^[A-Za-z0-9_]{1,100}$/.test(requestIdParameter)) {
		throw new InputError(
			`Request ID Parameter must be the name of the query's parameter (letters, digits and underscores, e.g. request_id for $request_id), got ${JSON.stringify(rawParameter)}`,
			'Request ID Parameter',
		);
	}
	const number = (name: string, fallback: number) => (options[name] === undefined || options[name] === '' ? fallback : Number(options[name]));
	const settings = attempt(() =>
		checkWaitSettings({
			firstDelayMs: number('firstPollSeconds', DEFAULT_WAIT_SETTINGS.firstDelayMs / 1000) * 1000,
			factor: number('pollGrowthFactor', DEFAULT_WAIT_SETTINGS.factor),
			maxIntervalMs: number('maxPollIntervalSeconds', DEFAULT_WAIT_SETTINGS.maxIntervalMs / 1000) * 1000,
			maxWaitMs: number('maxWaitSeconds', DEFAULT_WAIT_SETTINGS.maxWaitMs / 1000) * 1000,
		}),
	);
	if (!settings.ok) throw new InputError(`Options: ${settings.problem}`, 'Options');
	return { ...settings.value, queryId: queryId.value, requestIdParameter };
}

/** A check's value, or its complaint (the checks throw plain errors whose message is for the user). */
function attempt<T>(check: () => T): { ok: true; value: T } | { ok: false; problem: string } {
	try {
		return { ok: true, value: check() };
	} catch (error) {
		return { ok: false, problem: error instanceof Error ? error.message : String(error) };
	}
}

/** The message for an item that waits otherwise than the first waiting item (one wait per run), or undefined. */
export function differentWait(first: { itemIndex: number; settings: ResultsWaitSettings }, settings: ResultsWaitSettings): string | undefined {
	const keys = ['queryId', 'requestIdParameter', 'firstDelayMs', 'factor', 'maxIntervalMs', 'maxWaitMs'] as const;
	if (keys.every((key) => first.settings[key] === settings[key])) return undefined;
	return `Wait for Results must be the same for every item of a run (one wait covers them all): item ${first.itemIndex} waits with ${first.settings.queryId} and its wait options, this item differently. Use the same Status Query ID and wait options, or split the items over two nodes`;
}

/** Most request IDs one wait follows (a poll makes one NQL API call each). Why: docs/decisions.md, row "100 campaign users per run while waiting". */
export const MAX_WAIT_REQUEST_IDS = 100;
