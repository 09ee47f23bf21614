// @ts-check
'use strict';

const crypto = require('node:crypto');
const { isObject, parseJsonObject, sendJson, sendEmpty } = require('./http');
const { SID_PATTERN } = require('./actions');

/**
 * Campaigns API (OpenAPI "Campaigns API" 1.0.0): `POST /api/v1/euf/campaign/trigger` is its only
 * operation (no list, no details).
 *
 * Body `{ campaignNqlId, userSid: string[1..10000], expiresInMinutes: 1..525600, parameters? }`.
 * 200 `{ requests: [{ userSid, requestId } | { userSid, message }] }`: one entry per distinct SID, in
 * the order first sent; a user who cannot get the campaign has a `message` instead of a `requestId`
 * (partial success is still 200, and so is a request where every user failed). Here a SID that is not
 * SID-shaped, or names no known user, fails that way.
 *
 * Errors: 400 and 401 with `TriggerErrorResponse` `{ code, message }` (codes in `CODES`, invented:
 * the real ones are not public); 403 with **no body**, both for a credential without the Campaigns
 * API permission and for a campaign whose API option is not ticked (the OpenAPI document declares no body for 403).
 *
 * @typedef {import('./actions').ActionStore} ActionStore
 */

const MAX_USERS = 10000;
const MIN_EXPIRY_MINUTES = 1;
const MAX_EXPIRY_MINUTES = 525600;
const MAX_PARAMETERS = 30;

const CODES = {
	invalidJson: 'INVALID_JSON',
	invalidRequest: 'INVALID_REQUEST',
	invalidCampaignId: 'INVALID_CAMPAIGN_ID',
	invalidUsers: 'INVALID_USERS',
	invalidExpiration: 'INVALID_EXPIRATION',
	invalidParameters: 'INVALID_PARAMETERS',
	notFound: 'CAMPAIGN_NOT_FOUND',
	unauthorized: 'UNAUTHORIZED',
};

/** 401 body (the OpenAPI document gives the campaign 401 a TriggerErrorResponse, unlike the other two APIs). */
const UNAUTHORIZED_BODY = { code: CODES.unauthorized, message: 'No valid authentication credentials' };

/** Per-user messages of the 200 answer. */
const USER_MESSAGES = {
	invalidSid: 'Invalid user SID',
	unknownUser: 'No user found with this SID',
};

/**
 * `POST /api/v1/euf/campaign/trigger`.
 * @param {import('./router').Context} ctx
 * @param {ActionStore} store
 */
function handleTriggerCampaign(ctx, store) {
	/** @param {string} code @param {string} message */
	const invalid = (code, message) => sendJson(ctx.res, 400, { code, message });
	const read = parseJsonObject(ctx.body);
	if (!read.ok) {
		invalid(CODES[read.problem], read.message);
		return;
	}
	const body = read.value;
	const { campaignNqlId, userSid, expiresInMinutes, parameters } = body;
	if (typeof campaignNqlId !== 'string' || campaignNqlId.length === 0) {
		invalid(CODES.invalidCampaignId, 'campaignNqlId is required and must be a non-empty string');
		return;
	}
	if (!Array.isArray(userSid) || userSid.length === 0 || userSid.length > MAX_USERS) {
		invalid(CODES.invalidUsers, `userSid is required and must be an array of 1 to ${MAX_USERS} SIDs${Array.isArray(userSid) ? `, got ${userSid.length}` : ''}`);
		return;
	}
	const notString = userSid.findIndex((sid) => typeof sid !== 'string');
	if (notString !== -1) {
		invalid(CODES.invalidUsers, `userSid[${notString}] must be a string`);
		return;
	}
	if (typeof expiresInMinutes !== 'number' || !Number.isInteger(expiresInMinutes) || expiresInMinutes < MIN_EXPIRY_MINUTES || expiresInMinutes > MAX_EXPIRY_MINUTES) {
		invalid(CODES.invalidExpiration, `expiresInMinutes is required and must be an integer from ${MIN_EXPIRY_MINUTES} to ${MAX_EXPIRY_MINUTES}, got ${JSON.stringify(expiresInMinutes)}`);
		return;
	}
	const given = parameters ?? {};
	if (!isObject(given)) {
		invalid(CODES.invalidParameters, 'parameters must be an object of strings');
		return;
	}
	const keys = Object.keys(given);
	if (keys.length > MAX_PARAMETERS) {
		invalid(CODES.invalidParameters, `parameters must have at most ${MAX_PARAMETERS} entries, got ${keys.length}`);
		return;
	}
	const notText = keys.find((key) => typeof given[key] !== 'string');
	if (notText !== undefined) {
		invalid(CODES.invalidParameters, `parameters.${notText} must be a string`);
		return;
	}
	const campaign = store.campaigns.get(campaignNqlId);
	if (!campaign) {
		invalid(CODES.notFound, `No campaign with the NQL ID ${campaignNqlId}`);
		return;
	}
	if (!campaign.apiEnabled) {
		sendEmpty(ctx.res, 403);
		return;
	}
	// "The provided keys must match exactly the IDs of all parameters of the campaign."
	const expected = [...campaign.parameters].sort();
	if (keys.length !== expected.length || [...keys].sort().some((key, i) => key !== expected[i])) {
		invalid(CODES.invalidParameters, `parameters must give exactly the campaign's parameters: ${expected.join(', ') || 'none'}; got ${keys.join(', ') || 'none'}`);
		return;
	}

	const requests = [];
	const seen = new Set();
	for (const [index, sid] of /** @type {string[]} */ (userSid).entries()) {
		if (seen.has(sid)) continue;
		seen.add(sid);
		if (!SID_PATTERN.test(sid)) {
			requests.push({ userSid: sid, message: USER_MESSAGES.invalidSid });
			continue;
		}
		const user = store.inventory.find('user/user/sid', sid);
		if (!user) {
			requests.push({ userSid: sid, message: USER_MESSAGES.unknownUser });
			continue;
		}
		const request = store.record({
			kind: 'campaign',
			requestId: crypto.randomUUID(),
			objectId: campaign.id,
			objectName: campaign.name,
			clientId: /** @type {import('./tokens').Client} */ (ctx.client).clientId,
			body,
			targets: [{ input: sid, index, type: 'user', object: user }],
			expiresInMinutes,
			outcome: campaign.outcome,
		});
		requests.push({ requestId: request.requestId, userSid: sid });
	}
	sendJson(ctx.res, 200, { requests });
}

module.exports = { handleTriggerCampaign, CAMPAIGN_ERROR_CODES: CODES, CAMPAIGN_UNAUTHORIZED_BODY: UNAUTHORIZED_BODY, CAMPAIGN_USER_MESSAGES: USER_MESSAGES };
