/**
 * Where a Nexthink credential points: the API base URL and the OAuth token URL, one normalisation
 * for the credential and the transport (docs/decisions.md, "Instance names").
 */

export const NEXTHINK_REGIONS = {
	us: 'United States',
	eu: 'European Union',
	pac: 'Asia-Pacific',
	meta: 'Middle East, Turkey and Africa',
} as const;

export type NexthinkRegion = keyof typeof NEXTHINK_REGIONS;

/** The credential fields that decide the hosts. */
type NexthinkHostSettings = { useCustomUrls?: boolean } & Partial<Record<'instance' | 'region' | 'apiBaseUrl' | 'tokenUrl', string>>;

/** Thrown for settings that cannot name a host; the message is safe to show (it never holds secrets). */
export class NexthinkHostError extends Error {}

const INSTANCE_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export function resolveNexthinkHosts(settings: NexthinkHostSettings): { apiBaseUrl: string; tokenUrl: string } {
	if (settings.useCustomUrls === true) {
		return {
			apiBaseUrl: normaliseCustomUrl(settings.apiBaseUrl, 'API Base URL'),
			tokenUrl: normaliseCustomUrl(settings.tokenUrl, 'Token URL'),
		};
	}
	const instance = validateInstanceName(settings.instance);
	const region = validateRegion(settings.region);
	return {
		apiBaseUrl: `https://${instance}.api.${region}.nexthink.cloud`,
		tokenUrl: `https://${instance}-login.${region}.nexthink.cloud/oauth2/default/v1/token`,
	};
}

export function validateInstanceName(raw: string | undefined): string {
	const instance = (raw ?? '').trim().replace(/\/+$/, '');
	if (instance === '') {
		throw new NexthinkHostError('The instance name is empty. Enter the first label of your Nexthink web address, e.g. "acme" for https://acme.eu.nexthink.cloud.');
	}
	if (instance.includes('://') || instance.includes('.') || instance.includes('/')) {
		throw new NexthinkHostError(
			`The instance name "${instance}" looks like a URL or host name. Enter only the instance label (e.g. "acme" for https://acme.eu.nexthink.cloud) and pick the region, or switch on "Use Custom URLs".`,
		);
	}
	if (!INSTANCE_NAME.test(instance)) {
		throw new NexthinkHostError(
			`The instance name "${instance}" contains characters a host name cannot have. Use letters, digits and hyphens only.`,
		);
	}
	return instance.toLowerCase();
}

function validateRegion(raw: string | undefined): NexthinkRegion {
	const region = (raw ?? '').trim();
	if (!(region in NEXTHINK_REGIONS)) {
		throw new NexthinkHostError(
			`Unknown region "${region}". Use one of: ${Object.keys(NEXTHINK_REGIONS).join(', ')}.`,
		);
	}
	return region as NexthinkRegion;
}

function normaliseCustomUrl(raw: string | undefined, label: string): string {
	const url = (raw ?? '').trim().replace(/\/+$/, '');
	if (url === '') {
		throw new NexthinkHostError(`"${label}" is empty. Enter a full URL starting with https:// (or http:// for a local test server).`);
	}
	if (!/^https?:\/\/[^/\s]+/i.test(url)) {
		throw new NexthinkHostError(`"${label}" must be a full URL starting with https:// or http://, got "${url}".`);
	}
	return url;
}
