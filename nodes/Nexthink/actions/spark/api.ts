/** The Spark Handoff API's request: never sent twice. Why 200 counts too: docs/decisions.md, row "Spark success". */
import type { IExecuteFunctions } from 'n8n-workflow';

import { refusedRunNote, sendRunRequest, unexpectedAnswerError, type ApiCallOptions } from '../shared/apiCalls';

const HANDOFF_NOTES = {
	mayHaveRun: 'Spark may have received the message and written to the user in Microsoft Teams: ask the user, or look in Spark, before handing the conversation off again.',
	refused: refusedRunNote('ask the user whether Spark wrote to them in Microsoft Teams'),
	hints: {
		400: 'Spark rejected the request as invalid (for example a time zone it does not know). Its message above, when it sent one, says which part.',
		403: 'The Nexthink API credential needs the "Spark API" permission (Administration > API credentials), and Spark must be available to the tenant (license, technical preview). Ask your Nexthink administrator.',
		404: 'Spark does not know this user. Check the UPN (the user\'s Microsoft 365 sign-in name) and that Spark is set up for them: the Spark Microsoft Teams app, the Entra ID connector and the collection of UPNs.',
	},
};

export type HandOffPart = { type: 'TEXT'; text: string } | { type: 'FILE'; mimeType: string; fileContent: string };

export interface HandOffRequest {
	upn: string;
	timeZone?: string;
	parts: HandOffPart[];
	metadata?: Record<string, string>;
}

/** Sends the handoff; returns the status Spark answered (204 or 200). */
export async function handOffConversation(ctx: IExecuteFunctions, request: HandOffRequest, options: ApiCallOptions): Promise<number> {
	const action = `Handing off the conversation of ${request.upn.slice(0, 80)} to Spark`;
	const headers: Record<string, string> = { 'User-Principal-Name': request.upn };
	if (request.timeZone !== undefined) headers.Timezone = request.timeZone;
	const body = { message: { parts: request.parts }, ...(request.metadata !== undefined ? { metadata: request.metadata } : {}) };
	const response = await sendRunRequest(ctx, { path: '/api/v1/spark/handoff', body, headers, action }, HANDOFF_NOTES, options);
	// the transport already refused a body that is neither empty nor JSON (an HTML page, whatever its content type)
	if (response.statusCode === 204 || response.statusCode === 200) return response.statusCode;
	throw unexpectedAnswerError(ctx, action, response, 'the documented 204 (no content)', options.itemIndex, HANDOFF_NOTES.mayHaveRun);
}
