/**
 * Nexthink Trigger: a polling trigger (n8n runs `poll` at the *Poll Times*) that runs a stored NQL
 * query and outputs the rows that are new, changed or removed since the previous poll, by key.
 *
 * Contract (the state's format and limits: pollState.ts and docs/decisions.md):
 * - The first poll (on activation, or after the query or key settings changed) records a baseline
 *   and outputs nothing, unless *Emit All Rows on First Poll* is on.
 * - *Fetch Test Event* (manual mode) outputs a few current rows marked `sample` and touches no state.
 * - A failed poll throws (n8n records it as a failed execution of the trigger) and leaves the
 *   previous state as it was: the next good poll reports every change since the last good one.
 * - A poll that starts while another still runs (n8n starts polls on schedule, without waiting for
 *   the previous one) does nothing: a lock with an expiry in the static data keeps a second export
 *   from starting, and a poll cut short cannot keep it beyond its expiry.
 */
import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { ColumnError, diffRows, settingsFingerprint } from './changeDetection';
import { changeJson, emptySampleJson, sampleJson, SAMPLE_ROWS, type PollInfo } from './changeItems';
import { triggerProperties } from './description';
import { lockHolds, readLock, readState, StateLimitError, type PollLock } from './pollState';
import { fetchQueryRows } from './queryRows';
import { lockDurationMs } from './triggerInput';
import { readTriggerSettings } from './triggerSettings';

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
		// n8n keeps one poll context for every poll of an activation, and the transport caches the
		// credential's API address per context: each poll gets its own view of the context, so a
		// credential changed while the workflow is active applies from the next poll.
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
		const lock: PollLock = { until: nowMs + lockDurationMs(settings), since: info.polledAt };
		data.lock = lock as unknown as IDataObject;
		try {
			const { rows, header } = await fetchQueryRows(requests, settings);
			const fingerprint = settingsFingerprint({ queryId: settings.queryId, parameters: settings.parameters, ...settings.compare });
			const stored = readState(data.state);
			const previous = stored?.fingerprint === fingerprint ? stored : undefined;
			let diff;
			try {
				diff = diffRows(previous, rows, header, settings.compare, { fingerprint, recordedAt: info.polledAt });
			} catch (error) {
				const known = error instanceof ColumnError || error instanceof StateLimitError;
				throw new NodeOperationError(this.getNode(), known ? (error as Error).message : (error as Error), {
					description: 'Nothing was compared. The trigger keeps the state of its last good poll.',
				});
			}
			// the new state replaces the previous one only now that the whole poll succeeded
			data.state = diff.state as unknown as IDataObject;
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
