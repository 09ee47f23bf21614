/**
 * Wait for Results of Run Workflow, the pure part (no n8n imports): the targets the wait follows by
 * their execution ID, and what `results` say of those it cannot follow. Why: docs/decisions.md, row
 * "Workflow targets without an execution ID".
 */
import type { WorkflowTargetOutcome } from './runBatching';

export interface WorkflowWaitTargets {
	/** Targets with an execution ID, in the item's order: `id` is the execution ID. */
	followed: Array<{ id: string; requestId: string }>;
	/** Targets that were sent (they have a request ID) but got no execution ID. */
	unfollowed: number;
}

export function workflowWaitTargets(targets: readonly WorkflowTargetOutcome[]): WorkflowWaitTargets {
	const followed: WorkflowWaitTargets['followed'] = [];
	let unfollowed = 0;
	for (const target of targets) {
		if (target.requestId === undefined) continue;
		if (target.executionId === undefined) unfollowed += 1;
		else followed.push({ id: target.executionId, requestId: target.requestId });
	}
	return { followed, unfollowed };
}

/**
 * An item's `results` (resultStatus.ts `itemResults`) with the targets the wait could not follow:
 * `unfollowed` counts them, `complete` is false (their status is unknown) and `message` says why and
 * how to read them.
 */
export function withUnfollowed(results: Record<string, unknown>, unfollowed: number, queryId: string): Record<string, unknown> {
	if (unfollowed === 0) return results;
	const sentence = `${unfollowed} target${unfollowed === 1 ? '' : 's'} ran but could not be followed: Nexthink's answer did not give one execution ID per target (executionIdsPaired false), so the status rows cannot be paired with ${unfollowed === 1 ? 'it' : 'them'}. Read ${unfollowed === 1 ? 'it' : 'them'} with ${queryId} and the request ID.`;
	const { targets, message, ...rest } = results;
	return {
		...rest,
		complete: false,
		unfollowed,
		message: typeof message === 'string' ? `${message} ${sentence}` : sentence,
		targets,
	};
}
