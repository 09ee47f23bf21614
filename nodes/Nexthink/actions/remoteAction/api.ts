/** The Remote Actions API requests: execute never sent twice, list and details safe GETs, every 2xx body checked. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { expectAnswer, refusedRunNote, sendReadRequest, sendRunRequest, type ApiCallOptions, type ApiContext } from '../shared/apiCalls';
import { isNqlObject, readNqlObjectList } from '../shared/nqlObjects';
import { readExecutionResponse } from './answers';
import type { ExecutionBody } from '../shared/runPlan';

const PERMISSION_HINT =
	'The Nexthink API credential needs the "Remote Actions API" permission (Administration > API credentials > the credential > Permissions)';

const EXECUTE_NOTES = {
	mayHaveRun: 'The remote action may have been triggered: look for it in Nexthink before running the items again.',
	refused: refusedRunNote('look for executions of the remote action on these devices since the run in NQL (remote_action.executions), or in the Nexthink console'),
	hints: {
		400: 'Nexthink rejected the request; the code and message above say which part (for example a script input the remote action does not have, a value it does not allow, or an unknown NQL ID, which execute reports as 400).',
		403: `${PERMISSION_HINT}, and the remote action must have its "API" checkbox ticked (Remote actions > Manage remote actions > the remote action > General). Either can be missing; the message above says which when Nexthink names it.`,
		404: 'Nexthink does not know this remote action. Copy its NQL ID in Remote actions > Manage remote actions ("Copy NQL ID"); IDs are case-sensitive.',
	},
};

const READ_HINTS = {
	400: 'Nexthink rejected the request; the code and message above say which part.',
	403: `${PERMISSION_HINT}.`,
	404: 'Nexthink has no remote action with this NQL ID. Copy it in Remote actions > Manage remote actions ("Copy NQL ID"); IDs are case-sensitive.',
};

export async function executeRemoteAction(ctx: IExecuteFunctions, body: ExecutionBody, options: ApiCallOptions) {
	const action = `Running remote action ${body.remoteActionId} on ${body.devices.length} device${body.devices.length === 1 ? '' : 's'}`;
	const response = await sendRunRequest(ctx, { path: '/api/v1/act/execute', body, action }, EXECUTE_NOTES, options);
	return expectAnswer(ctx, action, response, readExecutionResponse(response.body), 'the request ID', options.itemIndex, EXECUTE_NOTES.mayHaveRun);
}

export async function listRemoteActions(ctx: ApiContext, options: ApiCallOptions) {
	return await sendReadRequest(ctx, { path: '/api/v1/act/remote-action', action: 'Listing the remote actions', hints: READ_HINTS }, readNqlObjectList, 'a list of remote actions', options);
}

export async function getRemoteAction(ctx: ApiContext, nqlId: string, options: ApiCallOptions) {
	const request = { path: '/api/v1/act/remote-action/details', qs: { 'nql-id': nqlId }, action: `Getting remote action ${nqlId}`, hints: READ_HINTS };
	return await sendReadRequest(ctx, request, (body) => (isNqlObject(body) ? body : undefined), 'the remote action', options);
}
