/**
 * The Remote Actions API requests, all through the package's one transport (transport/request.ts):
 * execute is never replayed (it may have run), list and details are safe GETs. Every 2xx body is
 * checked; 400/403/404 carry the API's `code` and `message` plus a hint saying what to change.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { nexthinkRequest } from '../../transport';
import { asExecute, refusedRunNote, sendRunRequest, unexpectedAnswerError, type ApiCallOptions, type ApiContext } from '../shared/apiCalls';
import { isRemoteAction, readExecutionResponse, readRemoteActionList } from './answers';
import type { ExecutionBody } from '../shared/runPlan';

export const EXECUTE_PATH = '/api/v1/act/execute';
export const LIST_PATH = '/api/v1/act/remote-action';
export const DETAILS_PATH = '/api/v1/act/remote-action/details';

/** Used when a user does not set Request Timeout. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 60;

const MAY_HAVE_RUN = 'The remote action may have been triggered: look for it in Nexthink before running the items again.';
const REFUSED = refusedRunNote('look for executions of the remote action on these devices since the run in NQL (remote_action.executions), or in the Nexthink console');

const PERMISSION_HINT =
	'The Nexthink API credential needs the "Remote Actions API" permission (Administration > API credentials > the credential > Permissions)';

export const HINTS = {
	execute: {
		400: 'Nexthink rejected the request; the code and message above say which part (for example a script input the remote action does not have, a value it does not allow, or an unknown NQL ID, which execute reports as 400).',
		403: `${PERMISSION_HINT}, and the remote action must have its "API" checkbox ticked (Remote actions > Manage remote actions > the remote action > General). Either can be missing; the message above says which when Nexthink names it.`,
		404: 'Nexthink does not know this remote action. Copy its NQL ID in Remote actions > Manage remote actions ("Copy NQL ID"); IDs are case-sensitive.',
	},
	read: {
		400: 'Nexthink rejected the request; the code and message above say which part.',
		403: `${PERMISSION_HINT}.`,
		404: 'Nexthink has no remote action with this NQL ID. Copy it in Remote actions > Manage remote actions ("Copy NQL ID"); IDs are case-sensitive.',
	},
};

export async function executeRemoteAction(ctx: IExecuteFunctions, body: ExecutionBody, options: ApiCallOptions) {
	const action = `Running remote action ${body.remoteActionId} on ${body.devices.length} device${body.devices.length === 1 ? '' : 's'}`;
	const response = await sendRunRequest(
		ctx,
		{ path: EXECUTE_PATH, body, action },
		{ mayHaveRun: MAY_HAVE_RUN, refused: REFUSED, hints: HINTS.execute },
		options,
	);
	const answer = readExecutionResponse(response.body);
	if (answer === undefined) throw unexpectedAnswerError(ctx, action, response, 'the request ID', options.itemIndex, MAY_HAVE_RUN);
	return answer;
}

export async function listRemoteActions(ctx: ApiContext, options: ApiCallOptions) {
	const action = 'Listing the remote actions';
	const response = await nexthinkRequest(asExecute(ctx), {
		method: 'GET',
		path: LIST_PATH,
		idempotent: true,
		timeoutMs: options.timeoutMs,
		itemIndex: options.itemIndex,
		action,
		hints: HINTS.read,
	});
	const list = readRemoteActionList(response.body);
	if (list === undefined) throw unexpectedAnswerError(ctx, action, response, 'a list of remote actions', options.itemIndex);
	return list;
}

export async function getRemoteAction(ctx: ApiContext, nqlId: string, options: ApiCallOptions) {
	const action = `Getting remote action ${nqlId}`;
	const response = await nexthinkRequest(asExecute(ctx), {
		method: 'GET',
		path: DETAILS_PATH,
		qs: { 'nql-id': nqlId },
		idempotent: true,
		timeoutMs: options.timeoutMs,
		itemIndex: options.itemIndex,
		action,
		hints: HINTS.read,
	});
	if (!isRemoteAction(response.body)) throw unexpectedAnswerError(ctx, action, response, 'the remote action', options.itemIndex);
	return response.body;
}
