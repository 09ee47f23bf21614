/** Spark → Hand Off checks before any request (no n8n imports). Why: docs/decisions.md, rows "UPN check" and "Time zone". */
import { describeValue, InputError } from '../../shared/inputError';
import { setOwn, hasOwnKey } from '../../shared/ownKeys';
import { valueText } from '../shared/inputChecks';

/** Longest UPN accepted: Active Directory's userPrincipalName attribute holds at most 1,024 characters. */
export const MAX_UPN_CHARS = 1024;

/** `name@suffix`, printable ASCII only: the UPN travels in a header (docs/decisions.md, row "UPN check"). */
const UPN = /^[\x21-\x3f\x41-\x7e]+@[\x21-\x3f\x41-\x7e]+$/;
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/u;
/** An IANA time zone name: `Europe/Zurich`, `America/Argentina/Buenos_Aires`, `UTC`, `Etc/GMT+1`. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

export function checkUpn(raw: unknown): string {
	if (raw !== undefined && raw !== null && typeof raw !== 'string') throw new InputError(`The user's UPN must be text, got ${describeValue(raw)}`, 'User Principal Name');
	const upn = (raw ?? '').trim();
	if (upn === '') {
		throw new InputError('No user: "User Principal Name" is empty. Give the user\'s UPN (their Microsoft 365 sign-in name), e.g. jane.doe@contoso.com', 'User Principal Name');
	}
	const other = NOT_PRINTABLE_ASCII.exec(upn)?.[0];
	if (other !== undefined) {
		const code = `U+${(other.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
		throw new InputError(
			`"${upn.slice(0, 80)}" is not a user principal name: it has ${/\p{Cc}/u.test(other) ? 'a control character' : `"${other}"`} (${code}); a UPN holds only ASCII letters, digits and symbols, as Entra ID requires`,
			'User Principal Name',
		);
	}
	if ([...upn].length > MAX_UPN_CHARS || !UPN.test(upn)) {
		throw new InputError(
			`"${upn.slice(0, 80)}" is not a user principal name: a UPN looks like jane.doe@contoso.com (one @, no spaces or line breaks)`,
			'User Principal Name',
		);
	}
	return upn;
}

export function checkMessage(raw: unknown): string {
	if (raw !== undefined && raw !== null && typeof raw !== 'string' && typeof raw !== 'number') {
		throw new InputError(`The message must be text, got ${describeValue(raw)}`, 'Message');
	}
	const text = String(raw ?? '');
	if (text.trim() === '') throw new InputError('The message is empty: Spark needs the user\'s request as text', 'Message');
	return text;
}

/** The time zone as an IANA name `Intl` knows (in its spelling, an alias as given), or undefined when none is given. */
export function checkTimeZone(raw: unknown): string | undefined {
	if (raw === undefined || raw === null) return undefined;
	if (typeof raw !== 'string') throw new InputError(`The time zone must be text, got ${describeValue(raw)}`, 'Time Zone');
	const name = raw.trim();
	if (name === '') return undefined;
	const problem = `"${name.slice(0, 60)}" is not an IANA time zone name such as Europe/Zurich or America/New_York`;
	const resolved = IANA_NAME.test(name) ? resolvedTimeZone(name) : undefined;
	if (resolved === undefined) throw new InputError(problem, 'Time Zone');
	return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

/** The database's spelling of a time zone `Intl` knows, else undefined. */
function resolvedTimeZone(name: string): string | undefined {
	try {
		return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
	} catch {
		return undefined;
	}
}

/** The metadata pairs as the API's string map: keys not blank and given once; numbers and booleans as text. */
export function checkMetadata(entries: ReadonlyArray<{ key?: unknown; value?: unknown }> | undefined): Record<string, string> | undefined {
	const metadata: Record<string, string> = {};
	for (const entry of entries ?? []) {
		const key = typeof entry.key === 'string' ? entry.key.trim() : '';
		if (key === '') throw new InputError('A metadata entry has no key', 'Metadata');
		if (hasOwnKey(metadata, key)) throw new InputError(`Metadata key "${key.slice(0, 60)}" is given twice; give each key once`, 'Metadata');
		const text = valueText(entry.value);
		if (text === undefined) throw new InputError(`Metadata "${key.slice(0, 60)}" must be text, got ${describeValue(entry.value)}`, 'Metadata');
		setOwn(metadata, key, text);
	}
	return Object.keys(metadata).length === 0 ? undefined : metadata;
}

/** The binary property names: separated by commas or spaces, each once. */
export function parseBinaryPropertyNames(raw: unknown): string[] {
	if (raw === undefined || raw === null || raw === '') return [];
	if (typeof raw !== 'string') throw new InputError(`Files must name binary properties as text, got ${describeValue(raw)}`, 'Files');
	return [...new Set(raw.split(/[\s,]+/).filter((name) => name !== ''))];
}

/** Checks a binary property of the item: present, with a MIME type. `available` lists the item's binary property names. */
export function checkBinaryProperty(name: string, binary: { mimeType?: unknown } | undefined, available: readonly string[]): string {
	if (binary === undefined) {
		throw new InputError(
			`The item has no binary property "${name.slice(0, 60)}"; ${available.length === 0 ? 'it has no binary data' : `it has ${available.map((key) => `"${key}"`).join(', ')}`}`,
			'Files',
		);
	}
	const mimeType = typeof binary.mimeType === 'string' ? binary.mimeType.trim() : '';
	if (mimeType === '') throw new InputError(`Binary property "${name.slice(0, 60)}" has no MIME type; Spark needs one for each file`, 'Files');
	return mimeType;
}
