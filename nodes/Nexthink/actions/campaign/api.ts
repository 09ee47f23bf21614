/** The Campaigns API's trigger request: never sent twice, the 2xx body checked. Its 403 has no body, so the hint names both causes. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { expectAnswer, refusedRunNote, sendRunRequest, type ApiCallOptions } from '../shared/apiCalls';
import { readTriggerResponse } from './answers';

const TRIGGER_NOTES = {
	mayHaveRun: 'The campaign may have been sent to the users: look in Nexthink (campaign.responses) before running the items again.',
	refused: refusedRunNote('look for the campaign\'s requests to these users since the run in NQL (campaign.responses), or in the Nexthink console'),
	hints: {
		400: 'Nexthink rejected the request; the code and message above say which part (for example parameters that are not exactly the campaign\'s, or an unknown campaign NQL ID).',
		403: 'The Nexthink API credential needs the "Campaigns API" permission (Administration > API credentials), and the campaign must have its "API" checkbox ticked (Campaigns > Manage campaigns > the campaign). Nexthink\'s answer has no body, so it does not say which is missing.',
	},
};

export interface TriggerBody {
	campaignNqlId: string;
	userSid: string[];
	expiresInMinutes: number;
	parameters?: Record<string, string>;
}

export async function triggerCampaign(ctx: IExecuteFunctions, body: TriggerBody, options: ApiCallOptions) {
	const action = `Triggering campaign ${body.campaignNqlId} for ${body.userSid.length} user${body.userSid.length === 1 ? '' : 's'}`;
	const response = await sendRunRequest(ctx, { path: '/api/v1/euf/campaign/trigger', body, action }, TRIGGER_NOTES, options);
	return expectAnswer(ctx, action, response, readTriggerResponse(response.body), 'the list of requests per user', options.itemIndex, TRIGGER_NOTES.mayHaveRun);
}
