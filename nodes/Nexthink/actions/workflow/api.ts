/**
 * The Workflows API requests, all through the package's one transport (transport/index.ts): the
 * execute and wait-for-event trigger calls are never replayed (they may have run), list and details
 * are safe GETs. Every 2xx body is checked. Error bodies are `{ code, details }` (not `message`);
 * transport/apiErrors.ts reads `details` in place of a missing `message`.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { nexthinkRequest } from '../../transport';
import { asExecute, refusedRunNote, sendRunRequest, unexpectedAnswerError, type ApiCallOptions, type ApiContext } from '../shared/apiCalls';
import { mergeWorkflowLists, readResumeResponse, readWorkflowDetails, readWorkflowExecutionResponse, readWorkflowList, type WorkflowObject } from './answers';
import type { PlannedWorkflowRequest } from './runBatching';

export const EXECUTE_V1_PATH = '/api/v1/workflows/execute';
export const EXECUTE_V2_PATH = '/api/v2/workflows/execute';
export const WORKFLOWS_PATH = '/api/v1/workflows';
export const WORKFLOW_DETAILS_PATH = '/api/v1/workflows/details';
export const resumePath = (workflowUuid: string, executionUuid: string) =>
	`/api/v1/workflows/workflows/${encodeURIComponent(workflowUuid)}/execution/${encodeURIComponent(executionUuid)}/trigger`;

export const DEPENDENCIES = ['DEVICE', 'USER', 'USER_AND_DEVICE', 'NONE'] as const;
export const TRIGGER_METHODS = ['API', 'MANUAL', 'MANUAL_MULTIPLE', 'SCHEDULER'] as const;
export type Dependency = (typeof DEPENDENCIES)[number];
export type TriggerMethod = (typeof TRIGGER_METHODS)[number];

export const DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS = 60;

const PERMISSION_HINT =
	'The Nexthink API credential needs the "Workflows API" permission (Administration > API credentials > the credential > Permissions)';
const MAY_HAVE_RUN = 'The workflow may have been triggered: look for it in Nexthink (workflow.executions) before running the items again.';
const MAY_HAVE_RESUMED = 'The execution may have been resumed: look at it in Nexthink (workflow.executions) before running the item again.';
const REFUSED_RUN = refusedRunNote('look for executions of the workflow for these devices and users since the run in NQL (workflow.executions), or in the Nexthink console');
const REFUSED_RESUME = refusedRunNote('look at the execution in NQL (workflow.executions) or in the Nexthink console: if it still waits for the event, it was not resumed');

export const WORKFLOW_HINTS = {
	execute: {
		400: 'Nexthink rejected the request; the code and details above say which part (for example an identifier it does not accept, parameters the workflow does not have, an inactive workflow, or an unknown NQL ID).',
		403: `${PERMISSION_HINT}, and the workflow must have its "API" trigger ticked (Workflows > Manage workflows > the workflow > trigger options). Either can be missing; the details above say which when Nexthink names it.`,
	},
	resume: {
		400: 'Nexthink rejected the request; the code and details above say which part (for example an execution that is not waiting for an event, or a workflow UUID given as NQL ID: the path needs the workflow\'s "uuid" from Get Workflow).',
		403: `${PERMISSION_HINT}, and the workflow must have its "API" trigger ticked.`,
		404: 'Nexthink does not know this workflow or execution. The workflow UUID is the "uuid" of Get Workflow (not its NQL ID); the execution UUID comes from Run Workflow\'s executionIds.',
	},
	read: {
		400: 'Nexthink rejected the request; the code and details above say which part.',
		403: `${PERMISSION_HINT}.`,
		404: 'Nexthink has no workflow with this NQL ID. Copy it in Workflows > Manage workflows ("Copy NQL ID"); IDs are case-sensitive.',
	},
};

/** `POST /api/v1/workflows/execute` or `/api/v2/workflows/execute`. */
export async function executeWorkflow(ctx: IExecuteFunctions, request: PlannedWorkflowRequest, options: ApiCallOptions) {
	const { body } = request;
	const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
	const action = `Running workflow ${body.workflowId} on ${[body.devices.length > 0 ? count(body.devices.length, 'device') : '', body.users.length > 0 ? count(body.users.length, 'user') : ''].filter(Boolean).join(' and ')}`;
	const response = await sendRunRequest(
		ctx,
		{ path: request.version === 'v1' ? EXECUTE_V1_PATH : EXECUTE_V2_PATH, body, action },
		{ mayHaveRun: MAY_HAVE_RUN, refused: REFUSED_RUN, hints: WORKFLOW_HINTS.execute },
		options,
	);
	const answer = readWorkflowExecutionResponse(response.body);
	if (answer === undefined) throw unexpectedAnswerError(ctx, action, response, 'the request ID', options.itemIndex, MAY_HAVE_RUN);
	return answer;
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
	const response = await sendRunRequest(
		ctx,
		{ path: resumePath(workflowUuid, executionUuid), body: { parameters }, action },
		{ mayHaveRun: MAY_HAVE_RESUMED, refused: REFUSED_RESUME, hints: WORKFLOW_HINTS.resume },
		options,
	);
	const ids = readResumeResponse(response.body);
	if (ids === undefined) throw unexpectedAnswerError(ctx, action, response, 'the request ID', options.itemIndex, MAY_HAVE_RESUMED);
	return ids;
}

/** `GET /api/v1/workflows` with its two required filters (and optionally active ones only). */
export async function listWorkflows(
	ctx: ApiContext,
	filter: { dependency: Dependency; triggerMethod: TriggerMethod; activeOnly?: boolean },
	options: ApiCallOptions,
): Promise<WorkflowObject[]> {
	const action = `Listing the workflows (dependency ${filter.dependency}, trigger method ${filter.triggerMethod})`;
	const qs: Record<string, string> = { dependency: filter.dependency, triggerMethod: filter.triggerMethod };
	if (filter.activeOnly) qs.fetchOnlyActiveWorkflows = 'true';
	const response = await nexthinkRequest(asExecute(ctx), {
		method: 'GET',
		path: WORKFLOWS_PATH,
		qs,
		idempotent: true,
		timeoutMs: options.timeoutMs,
		itemIndex: options.itemIndex,
		action,
		hints: WORKFLOW_HINTS.read,
	});
	const list = readWorkflowList(response.body);
	if (list === undefined) throw unexpectedAnswerError(ctx, action, response, 'a list of workflows', options.itemIndex);
	return list;
}

/**
 * Every workflow of the given trigger methods and dependencies: one list call per pair (the API
 * requires both filters), merged by `uuid`, each workflow once.
 */
export async function listWorkflowsMerged(
	ctx: ApiContext,
	filter: { dependencies: readonly Dependency[]; triggerMethods: readonly TriggerMethod[]; activeOnly?: boolean },
	options: ApiCallOptions,
): Promise<WorkflowObject[]> {
	const lists: WorkflowObject[][] = [];
	for (const triggerMethod of filter.triggerMethods) {
		for (const dependency of filter.dependencies) {
			lists.push(await listWorkflows(ctx, { dependency, triggerMethod, activeOnly: filter.activeOnly }, options));
		}
	}
	return mergeWorkflowLists(lists);
}

/** `GET /api/v1/workflows/details?nqlId=`: the workflow, or null when no workflow has that NQL ID. */
export async function getWorkflow(ctx: ApiContext, nqlId: string, options: ApiCallOptions): Promise<WorkflowObject | null> {
	const action = `Getting workflow ${nqlId}`;
	const response = await nexthinkRequest(asExecute(ctx), {
		method: 'GET',
		path: WORKFLOW_DETAILS_PATH,
		qs: { nqlId },
		idempotent: true,
		timeoutMs: options.timeoutMs,
		itemIndex: options.itemIndex,
		action,
		hints: WORKFLOW_HINTS.read,
	});
	const workflow = readWorkflowDetails(response.body);
	if (workflow === undefined) throw unexpectedAnswerError(ctx, action, response, 'the workflow', options.itemIndex);
	return workflow;
}
