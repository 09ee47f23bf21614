/** The Workflows API requests: execute and the wait-for-event trigger never sent twice, list and details safe GETs. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { expectAnswer, refusedRunNote, sendReadRequest, sendRunRequest, type ApiCallOptions, type ApiContext } from '../shared/apiCalls';
import { readNqlObjectList, type NqlObject } from '../shared/nqlObjects';
import { mergeWorkflowLists, readResumeResponse, readWorkflowDetails, readWorkflowExecutionResponse } from './answers';
import type { PlannedWorkflowRequest } from './runBatching';

export const DEPENDENCIES = ['DEVICE', 'USER', 'USER_AND_DEVICE', 'NONE'] as const;
export const TRIGGER_METHODS = ['API', 'MANUAL', 'MANUAL_MULTIPLE', 'SCHEDULER'] as const;
export type Dependency = (typeof DEPENDENCIES)[number];
export type TriggerMethod = (typeof TRIGGER_METHODS)[number];

const PERMISSION_HINT =
	'The Nexthink API credential needs the "Workflows API" permission (Administration > API credentials > the credential > Permissions)';

const EXECUTE_NOTES = {
	mayHaveRun: 'The workflow may have been triggered: look for it in Nexthink (workflow.executions) before running the items again.',
	refused: refusedRunNote('look for executions of the workflow for these devices and users since the run in NQL (workflow.executions), or in the Nexthink console'),
	hints: {
		400: 'Nexthink rejected the request; the code and details above say which part (for example an identifier it does not accept, parameters the workflow does not have, an inactive workflow, or an unknown NQL ID).',
		403: `${PERMISSION_HINT}, and the workflow must have its "API" trigger ticked (Workflows > Manage workflows > the workflow > trigger options). Either can be missing; the details above say which when Nexthink names it.`,
	},
};

const RESUME_NOTES = {
	mayHaveRun: 'The execution may have been resumed: look at it in Nexthink (workflow.executions) before running the item again.',
	refused: refusedRunNote('look at the execution in NQL (workflow.executions) or in the Nexthink console: if it still waits for the event, it was not resumed'),
	hints: {
		400: 'Nexthink rejected the request; the code and details above say which part (for example an execution that is not waiting for an event, or a workflow UUID given as NQL ID: the path needs the workflow\'s "uuid" from Get Workflow).',
		403: `${PERMISSION_HINT}, and the workflow must have its "API" trigger ticked.`,
		404: 'Nexthink does not know this workflow or execution. The workflow UUID is the "uuid" of Get Workflow (not its NQL ID); the execution UUID comes from Run Workflow\'s executionIds.',
	},
};

const READ_HINTS = {
	400: 'Nexthink rejected the request; the code and details above say which part.',
	403: `${PERMISSION_HINT}.`,
	404: 'Nexthink has no workflow with this NQL ID. Copy it in Workflows > Manage workflows ("Copy NQL ID"); IDs are case-sensitive.',
};

/** `POST /api/v1/workflows/execute` or `/api/v2/workflows/execute`. */
export async function executeWorkflow(ctx: IExecuteFunctions, request: PlannedWorkflowRequest, options: ApiCallOptions) {
	const { body } = request;
	const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
	const action = `Running workflow ${body.workflowId} on ${[body.devices.length > 0 ? count(body.devices.length, 'device') : '', body.users.length > 0 ? count(body.users.length, 'user') : ''].filter(Boolean).join(' and ')}`;
	const response = await sendRunRequest(ctx, { path: `/api/${request.version}/workflows/execute`, body, action }, EXECUTE_NOTES, options);
	return expectAnswer(ctx, action, response, readWorkflowExecutionResponse(response.body), 'the request ID', options.itemIndex, EXECUTE_NOTES.mayHaveRun);
}

/** `POST /api/v1/workflows/workflows/{workflowUuid}/execution/{executionUuid}/trigger`: the request IDs. */
export async function resumeWorkflow(
	ctx: IExecuteFunctions,
	workflowUuid: string,
	executionUuid: string,
	parameters: Record<string, string>,
	options: ApiCallOptions,
): Promise<string[]> {
	const action = `Resuming execution ${executionUuid} of workflow ${workflowUuid}`;
	const path = `/api/v1/workflows/workflows/${encodeURIComponent(workflowUuid)}/execution/${encodeURIComponent(executionUuid)}/trigger`;
	const response = await sendRunRequest(ctx, { path, body: { parameters }, action }, RESUME_NOTES, options);
	return expectAnswer(ctx, action, response, readResumeResponse(response.body), 'the request ID', options.itemIndex, RESUME_NOTES.mayHaveRun);
}

/** `GET /api/v1/workflows` once per pair of trigger method and dependency (the API requires both), merged by `uuid`. */
export async function listWorkflowsMerged(
	ctx: ApiContext,
	filter: { dependencies: readonly Dependency[]; triggerMethods: readonly TriggerMethod[]; activeOnly?: boolean },
	options: ApiCallOptions,
): Promise<NqlObject[]> {
	const lists: NqlObject[][] = [];
	for (const triggerMethod of filter.triggerMethods) {
		for (const dependency of filter.dependencies) {
			const qs: Record<string, string> = { dependency, triggerMethod };
			if (filter.activeOnly) qs.fetchOnlyActiveWorkflows = 'true';
			const action = `Listing the workflows (dependency ${dependency}, trigger method ${triggerMethod})`;
			lists.push(await sendReadRequest(ctx, { path: '/api/v1/workflows', qs, action, hints: READ_HINTS }, readNqlObjectList, 'a list of workflows', options));
		}
	}
	return mergeWorkflowLists(lists);
}

/** `GET /api/v1/workflows/details?nqlId=`: the workflow, or null when no workflow has that NQL ID. */
export async function getWorkflow(ctx: ApiContext, nqlId: string, options: ApiCallOptions): Promise<NqlObject | null> {
	const request = { path: '/api/v1/workflows/details', qs: { nqlId }, action: `Getting workflow ${nqlId}`, hints: READ_HINTS };
	return await sendReadRequest(ctx, request, readWorkflowDetails, 'the workflow', options);
}
