/**
 * Checks of a Trigger Campaign item's input, before any request (no n8n imports), with the limits of
 * the Campaigns API's OpenAPI document (TriggerRequest).
 */
import { describeValue, InputError } from '../../shared/inputError';
import { setOwn, hasOwnKey } from '../../shared/ownKeys';

export const MAX_USERS_PER_REQUEST = 10_000;
export const MIN_CAMPAIGN_EXPIRY_MINUTES = 1;
export const MAX_CAMPAIGN_EXPIRY_MINUTES = 525_600;
export const DEFAULT_CAMPAIGN_EXPIRY_MINUTES = 10_080;
export const MAX_CAMPAIGN_PARAMETERS = 30;

/** The SID pattern of the Campaigns and Workflows OpenAPI documents. */
const SID = /^S(-\d+){2,10}$|^0$/;

export function normaliseCampaignId(raw: unknown): string {
	if (raw !== null && raw !== undefined && typeof raw !== 'string') {
		throw new InputError(`The campaign must be an NQL ID such as #it_satisfaction, got ${describeValue(raw)}`, 'Campaign');
	}
	const text = (raw ?? '').trim();
	if (text === '' || text === '#') {
		throw new InputError('The campaign is empty. Enter its NQL ID ("Copy NQL ID" in Manage campaigns), e.g. #it_satisfaction', 'Campaign');
	}
	if (/\s/.test(text)) throw new InputError(`The campaign ID "${text.slice(0, 80)}" contains spaces. Use its NQL ID, e.g. #it_satisfaction`, 'Campaign');
	return text.startsWith('#') ? text : `#${text}`;
}

/** The user SIDs of one item: one, several separated by commas, semicolons, spaces or line breaks, or a list. */
export function parseUserSids(raw: unknown): { users: string[]; duplicates: string[] } {
	const entries: string[] = [];
	for (const value of raw === null || raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
		if (value === null || value === undefined) continue;
		if (typeof value !== 'string') throw new InputError(`A user SID must be text, got ${describeValue(value)}`, 'User SIDs');
		for (const part of value.split(/[\s,;]+/)) if (part !== '') entries.push(part);
	}
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
	if (raw === undefined || raw === null || raw === '') return DEFAULT_CAMPAIGN_EXPIRY_MINUTES;
	const minutes = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
	if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < MIN_CAMPAIGN_EXPIRY_MINUTES || minutes > MAX_CAMPAIGN_EXPIRY_MINUTES) {
		throw new InputError(
			`Expires After (Minutes) must be a whole number from ${MIN_CAMPAIGN_EXPIRY_MINUTES} to ${MAX_CAMPAIGN_EXPIRY_MINUTES} (one year), got ${describeValue(raw)}`,
			'Expires After (Minutes)',
		);
	}
	return minutes;
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
		const value = entry.value;
		if (typeof value === 'string') setOwn(parameters, name, value);
		else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') setOwn(parameters, name, String(value));
		else if (value === undefined || value === null) setOwn(parameters, name, '');
		else throw new InputError(`Campaign parameter "${name}" must be text, got ${describeValue(value)}`, 'Parameters');
	}
	if (Object.keys(parameters).length > MAX_CAMPAIGN_PARAMETERS) {
		throw new InputError(`${Object.keys(parameters).length} campaign parameters; the Campaigns API takes at most ${MAX_CAMPAIGN_PARAMETERS}`, 'Parameters');
	}
	return parameters;
}
