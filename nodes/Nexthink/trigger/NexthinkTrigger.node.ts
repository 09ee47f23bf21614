/**
 * Nexthink Trigger: a polling trigger that runs a stored NQL query and outputs the rows that are
 * new, changed or removed since the previous poll, by key. Its rules (first poll, Fetch Test Event,
 * failed polls, overlapping polls, stale polls) and why: docs/decisions.md, "Nexthink Trigger".
 */
import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { ColumnNameError } from '../nql/columnNames';
import { DEFAULT_EXECUTE_SETTINGS, executeStoredQuery } from '../nql/executeApi';
import { EXECUTE_ROW_LIMIT } from '../nql/executeAnswer';
import { followExport } from '../nql/followExport';
import { DEFAULT_RESULT_LIMITS } from '../results/limits';
import { DEFAULT_RETRY_POLICY, PROXY_MAY_HAVE_ANSWERED, scrubAnswerText, type NexthinkContext } from '../transport';
import { changeJson, diffRows, emptySampleJson, sampleJson, settingsFingerprint, SAMPLE_ROWS, type PollInfo } from './changeDetection';
import { lockHolds, readGeneration, readLock, readState, StateLimitError, type PollLock } from './pollState';
import { checkAnswer, checkRemovals, RemovalLimitError, ResultCheckError, type QueryAnswer } from './resultCheck';
import { lockDurationMs, readTriggerSettings, triggerProperties, type TriggerSettings } from './triggerSettings';

export class NexthinkTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Nexthink Trigger',
		name: 'nexthinkTrigger',
		icon: { light: 'file:../icons/nexthink.svg', dark: 'file:../icons/nexthink.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["queryId"] ? "changes of " + $parameter["queryId"] : "" }}',
		description: 'Starts the workflow when rows of a stored Nexthink NQL query appear, change or disappear',
		eventTriggerDescription: 'Waiting for changes in the Nexthink query',
		defaults: { name: 'Nexthink Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'nexthinkApi', required: true }],
		properties: triggerProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const settings = readTriggerSettings(this);
		const info: PollInfo = { queryId: settings.queryId, polledAt: new Date().toISOString() };
		// a view of its own per poll: the transport caches the credential's API address per context
		const requests = Object.create(this) as IPollFunctions;

		if (this.getMode() === 'manual') {
			const { rows } = await fetchQueryRows(requests, settings, SAMPLE_ROWS);
			const json = rows.length === 0 ? [emptySampleJson(info)] : rows.slice(0, SAMPLE_ROWS).map((row) => sampleJson(row, info));
			return [json.map((item) => ({ json: item as IDataObject }))];
		}

		const data = this.getWorkflowStaticData('node');
		const nowMs = Date.now();
		const held = readLock(data.lock);
		if (lockHolds(held, nowMs)) {
			this.logger.info(`Nexthink Trigger: the poll that started at ${held?.since} still runs; this poll is skipped`, {
				node: this.getNode().name,
			});
			return null;
		}
		const lock: PollLock = { until: nowMs + lockDurationMs(settings, DEFAULT_RETRY_POLICY), since: info.polledAt };
		data.lock = lock as unknown as IDataObject;
		const generation = readGeneration(data.generation);
		try {
			const answer = await fetchQueryRows(requests, settings);
			const fingerprint = settingsFingerprint({ queryId: settings.queryId, parameters: settings.parameters, ...settings.compare });
			const stored = readState(data.state);
			const previous = stored?.fingerprint === fingerprint ? stored : undefined;
			const previousKeys = previous?.keys.length ?? 0;
			let diff;
			try {
				const columns = checkAnswer(answer, settings.compare, previousKeys);
				diff = diffRows(previous, answer.rows, columns, { fingerprint, recordedAt: info.polledAt });
				checkRemovals(diff.counts.removed, previousKeys, settings.removalLimit);
			} catch (error) {
				// the trigger's own checks may quote what arrived in place of the result (column names, a
				// page's first line); anything else is passed on as it is
				const known = error instanceof ResultCheckError || error instanceof ColumnNameError || error instanceof StateLimitError || error instanceof RemovalLimitError;
				const shown = known ? await scrubAnswerText(requests, error.message) : (error as Error);
				throw new NodeOperationError(this.getNode(), shown, { description: failedPollDescription(error) });
			}
			// written only now that the whole poll succeeded, and only by the poll that read the last write
			// (checked and written in one synchronous step: polls of one activation share the static data)
			if (readGeneration(data.generation) !== generation) {
				this.logger.info(
					`Nexthink Trigger: the poll that started at ${info.polledAt} is dropped: another poll wrote the state while it ran (it outlived its lock); it writes and emits nothing`,
					{ node: this.getNode().name },
				);
				return null;
			}
			data.state = diff.state as unknown as IDataObject;
			data.generation = generation + 1;
			const firstPoll = previous === undefined;
			if (firstPoll && !settings.emitAllOnFirstPoll) return null;
			const items = diff.changes
				.filter((change) => settings.emit.has(change.kind))
				.map((change) => ({ json: changeJson(change, info, firstPoll) as IDataObject }));
			return items.length === 0 ? null : [items];
		} finally {
			// only this poll's own lock: a poll that outlived its lock must not free a newer poll's
			if ((data.lock as unknown as PollLock | undefined)?.since === lock.since) delete data.lock;
		}
	}
}

function failedPollDescription(error: unknown): string {
	if (error instanceof ResultCheckError || error instanceof ColumnNameError) {
		return `${PROXY_MAY_HAVE_ANSWERED} An export's file comes from Nexthink's file storage: check the network path to it too. Otherwise the Key Columns and Compare Columns do not name columns of the query's result (Fetch Test Event shows them). ${KEPT_STATE}`;
	}
	if (error instanceof RemovalLimitError) {
		return `If these rows are really gone, raise "Maximum Removed per Poll" (or set it to 0, no limit) for one poll: it then reports them as removed. If they come back, the next poll reports nothing for them. ${KEPT_STATE}`;
	}
	return `Nothing was compared. ${KEPT_STATE}`;
}

/** Said by every failed poll: what happens to the state. */
const KEPT_STATE = 'The trigger keeps the state of its last good poll, so the next poll that succeeds reports every change since then.';

/**
 * Every row of the query, or at most `sampleRows` of them (Fetch Test Event), through an export or
 * Execute Query v1 (docs/decisions.md, "Execute Query settings of the trigger"). Every failure is an
 * error, never a shorter result (a missing row would read as removed): a truncated export and an
 * Execute Query answer of 1,000 rows fail the poll too.
 */
async function fetchQueryRows(ctx: NexthinkContext, settings: TriggerSettings, sampleRows?: number): Promise<QueryAnswer> {
	return settings.method === 'execute' ? await executeRows(ctx, settings, sampleRows) : await exportRows(ctx, settings, sampleRows);
}

async function exportRows(ctx: NexthinkContext, settings: TriggerSettings, sampleRows: number | undefined): Promise<QueryAnswer> {
	const { queryId, parameters, timeoutMs } = settings;
	const { report, results } = await followExport(
		ctx,
		{
			start: { queryId, parameters, compression: 'GZIP', method: 'POST', logTag: settings.logTag },
			wait: settings.wait,
			timedOutHint: `Raise "Maximum Wait" in the trigger's options (keep it below the time between polls). ${KEPT_STATE}`,
		},
		{
			parseRows: true,
			keepFile: false,
			convertTypes: false,
			maxRows: sampleRows ?? 0,
			timeoutMs,
			itemIndex: 0,
			limits: DEFAULT_RESULT_LIMITS,
			truncatedHint: `The rows left out would look removed, so the poll compares nothing. Narrow the query (fewer rows). ${KEPT_STATE}`,
		},
	);
	return { columns: results.header, rows: results.rows, source: `the results file of export ${report.exportId}` };
}

async function executeRows(ctx: NexthinkContext, settings: TriggerSettings, sampleRows: number | undefined): Promise<QueryAnswer> {
	const { queryId, parameters } = settings;
	const { result } = await executeStoredQuery(
		ctx,
		{ queryId, parameters },
		// times in UTC: the same instant always reads the same, whatever the instance's time zone does
		{ ...DEFAULT_EXECUTE_SETTINGS, apiVersion: 'v1', utcTimestamps: true, timeoutMs: settings.timeoutMs },
		0,
	);
	const answer = { columns: result.columns ?? [], source: `the Execute Query answer for ${queryId}` };
	if (sampleRows !== undefined) return { ...answer, rows: result.rows.slice(0, sampleRows) };
	if (result.rows.length >= EXECUTE_ROW_LIMIT) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${queryId} returned ${result.rows.length} rows, the most Execute Query returns: the result may be incomplete, so the poll compares nothing`,
			{ description: `Rows Nexthink left out would look removed. Set "Run Query Through" to Export, which has no such limit. ${KEPT_STATE}` },
		);
	}
	return { ...answer, rows: result.rows };
}
