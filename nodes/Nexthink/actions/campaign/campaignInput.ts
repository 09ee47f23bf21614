/**
 * Checks of a Trigger Campaign item's input, before any request (no n8n imports), with the limits of
 * the Campaigns API's OpenAPI document (TriggerRequest).
 */
import { describeValue, InputError } from '../../shared/inputError';
import { setOwn, hasOwnKey } from '../../shared/ownKeys';
import { checkWholeNumber, listEntries, normaliseNqlId, SID, valueText } from '../shared/inputChecks';

export const MAX_USERS_PER_REQUEST = 10_000;
export const MIN_CAMPAIGN_EXPIRY_MINUTES = 1;
export const MAX_CAMPAIGN_EXPIRY_MINUTES = 525_600;
export const DEFAULT_CAMPAIGN_EXPIRY_MINUTES = 10_080;
export const MAX_CAMPAIGN_PARAMETERS = 30;

export function normaliseCampaignId(raw: unknown): string {
	const empty = 'The campaign is empty. Enter its NQL ID ("Copy NQL ID" in Manage campaigns), e.g. #it_satisfaction';
	return normaliseNqlId(raw, { name: 'campaign', field: 'Campaign', example: '#it_satisfaction', empty, copyFrom: '' });
}

/** The user SIDs of one item: one, several separated by commas, semicolons, spaces or line breaks, or a list. */
export function parseUserSids(raw: unknown): { users: string[]; duplicates: string[] } {
	const entries = listEntries(raw, 'user SID', 'User SIDs');
	if (entries.length === 0) {
		throw new InputError('No target user: "User SIDs" is empty. Map the users\' SID, e.g. {{ $json["user.sid"] }}', 'User SIDs');
	}
	const invalid = entries.filter((entry) => !SID.test(entry));
	if (invalid.length > 0) {
		const shown = invalid.slice(0, 3).map((value) => `"${value.slice(0, 60)}"`).join(', ');
		throw new InputError(
			`${invalid.length === 1 ? 'A user SID is' : `${invalid.length} user SIDs are`} not a SID: ${shown}${invalid.length > 3 ? ` and ${invalid.length - 3} more` : ''}. Campaigns target users by SID only (user.sid, e.g. S-1-5-21-1004336348-1177238915-682003330-1001), not by name or UPN`,
			'User SIDs',
		);
	}
	const users: string[] = [];
	const duplicates: string[] = [];
	const seen = new Set<string>();
	for (const entry of entries) {
		if (seen.has(entry)) duplicates.push(entry);
		else users.push(entry);
		seen.add(entry);
	}
	if (users.length > MAX_USERS_PER_REQUEST) {
		throw new InputError(
			`One item names ${users.length} users; the Campaigns API takes at most ${MAX_USERS_PER_REQUEST} per request. Split the list over several items`,
			'User SIDs',
		);
	}
	return { users, duplicates };
}

/** Required by the API: a whole number from 1 to 525,600 (one year). */
export function checkCampaignExpiry(raw: unknown): number {
	return checkWholeNumber(raw, 'Expires After (Minutes)', DEFAULT_CAMPAIGN_EXPIRY_MINUTES, MIN_CAMPAIGN_EXPIRY_MINUTES, MAX_CAMPAIGN_EXPIRY_MINUTES, ' (one year)');
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
