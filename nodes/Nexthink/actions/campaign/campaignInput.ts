/** Checks of a Trigger Campaign item, before any request (no n8n imports), with the OpenAPI document's limits. */
import { describeValue, InputError } from '../../shared/inputError';
import { setOwn, hasOwnKey } from '../../shared/ownKeys';
import { parseIdList, SID, valueText } from '../shared/inputChecks';
import { objectNqlId } from '../../shared/nqlIds';
import { readWholeNumber } from '../../shared/parameterValues';

export const MAX_USERS_PER_REQUEST = 10_000;
export const MIN_CAMPAIGN_EXPIRY_MINUTES = 1;
export const MAX_CAMPAIGN_EXPIRY_MINUTES = 525_600;
export const DEFAULT_CAMPAIGN_EXPIRY_MINUTES = 10_080;
export const MAX_CAMPAIGN_PARAMETERS = 30;

export function normaliseCampaignId(raw: unknown): string {
	const empty = 'The campaign is empty. Enter its NQL ID ("Copy NQL ID" in Manage campaigns), e.g. #it_satisfaction';
	return objectNqlId(raw, { name: 'campaign', field: 'Campaign', example: '#it_satisfaction', empty, copyFrom: '' });
}

/** The user SIDs of one item, distinct (compared exactly), and the entries given again. */
export function parseUserSids(raw: unknown): { users: string[]; duplicates: string[] } {
	const { ids, duplicates } = parseIdList(raw, {
		entry: 'user SID',
		field: 'User SIDs',
		shape: 'a SID',
		pattern: SID,
		foldCase: false,
		empty: 'No target user: "User SIDs" is empty. Map the users\' SID, e.g. {{ $json["user.sid"] }}',
		takes: 'Campaigns target users by SID only (user.sid, e.g. S-1-5-21-1004336348-1177238915-682003330-1001), not by name or UPN',
		max: { count: MAX_USERS_PER_REQUEST, targets: 'users', api: 'Campaigns API' },
	});
	return { users: ids, duplicates };
}

/** Required by the API: a whole number from 1 to 525,600 (one year). */
export function checkCampaignExpiry(raw: unknown): number {
	return readWholeNumber(raw, 'Expires After (Minutes)', DEFAULT_CAMPAIGN_EXPIRY_MINUTES, MIN_CAMPAIGN_EXPIRY_MINUTES, MAX_CAMPAIGN_EXPIRY_MINUTES, ' (one year)');
}

/** The campaign parameters (name → text): at most 30, names non-empty and not repeated. */
export function checkCampaignParameters(entries: ReadonlyArray<{ name?: unknown; value?: unknown }> | undefined): Record<string, string> {
	const parameters: Record<string, string> = {};
	for (const entry of entries ?? []) {
		const name = typeof entry.name === 'string' ? entry.name.trim() : '';
		if (name === '') throw new InputError('A campaign parameter has no name', 'Parameters');
		if (hasOwnKey(parameters, name)) {
			throw new InputError(`Campaign parameter "${name}" is given twice; give each parameter once`, 'Parameters');
		}
		const text = valueText(entry.value);
		if (text === undefined) throw new InputError(`Campaign parameter "${name}" must be text, got ${describeValue(entry.value)}`, 'Parameters');
		setOwn(parameters, name, text);
	}
	if (Object.keys(parameters).length > MAX_CAMPAIGN_PARAMETERS) {
		throw new InputError(`${Object.keys(parameters).length} campaign parameters; the Campaigns API takes at most ${MAX_CAMPAIGN_PARAMETERS}`, 'Parameters');
	}
	return parameters;
}
