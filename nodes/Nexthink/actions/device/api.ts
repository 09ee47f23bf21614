/** The Data Management API's deletion request: never sent twice, its own `x-request-id`, the 2xx body checked. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { refusedRunNote, sendRunRequest, unexpectedAnswerError, type ApiCallOptions } from '../shared/apiCalls';
import { readDeletionAnswer, type DeletionAnswer } from './answers';
import type { DeviceToDelete } from './deleteInput';

export const DELETIONS_PATH = '/api/v1/data-management/device/deletions';

const DELETION_NOTES = {
	mayHaveRun:
		'Nexthink may have queued these devices for deletion: before sending them again, check in NQL (devices | where uid == …) which are still listed, or give the request ID to Nexthink support.',
	refused: refusedRunNote('look in NQL whether the devices of this request are still listed'),
	hints: {
		400: 'Nexthink rejected the whole request; the code says why: EMPTY_REQUEST (no devices), INVALID_REQUEST (a blank UID or name), BATCH_SIZE_EXCEEDED (this tenant takes fewer devices per request: lower "Devices per Request" in the options), EMPTY_TENANT (the credential\'s token names no tenant: ask Nexthink support).',
		403: 'The Nexthink API credential needs the "Data management" permission (Administration > API credentials), and the Data management API must be enabled for the tenant (code FEATURE_NOT_ENABLED). Ask your Nexthink administrator.',
		422: 'Nexthink refused the whole request because a device UID is not a UUID. Turn off "Let Nexthink Judge Malformed UIDs" so that such items are refused one by one before sending.',
		500: 'Nexthink had an internal error (INTERNAL_ERROR). Give the request ID to Nexthink support.',
	},
};

export interface DeletionResult {
	answer: DeletionAnswer;
	/** The `x-request-id` Nexthink answered, when it is not the one sent. */
	answeredRequestId?: string;
	traceId?: string;
}

export async function deleteDevices(ctx: IExecuteFunctions, devices: DeviceToDelete[], requestId: string, options: ApiCallOptions): Promise<DeletionResult> {
	const action = `Deleting ${devices.length} device${devices.length === 1 ? '' : 's'} (request ID ${requestId})`;
	const request = { path: DELETIONS_PATH, body: { devices }, headers: { 'x-request-id': requestId }, action };
	const response = await sendRunRequest(ctx, request, DELETION_NOTES, options);
	const read = readDeletionAnswer(response.body, devices);
	if (!read.ok) throw unexpectedAnswerError(ctx, action, response, read.missing, options.itemIndex, DELETION_NOTES.mayHaveRun);
	const result: DeletionResult = { answer: read.answer };
	const answered = response.headers['x-request-id'];
	if (answered !== undefined && answered !== '' && answered.toLowerCase() !== requestId.toLowerCase()) result.answeredRequestId = answered;
	const traceId = response.headers['x-trace-id'];
	if (traceId !== undefined && traceId !== '') result.traceId = traceId;
	return result;
}
