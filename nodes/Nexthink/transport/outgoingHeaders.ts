/**
 * The headers of a request exactly as they go out, and their one rule: every value is sent byte for
 * byte or not at all. A value may hold only U+0020–U+007E and U+0080–U+00FF, no space at either end;
 * anything else is refused before the request, naming the header (docs/decisions.md, "Header values").
 */
import type { NexthinkRequest } from './types';

/** Accept, the request's own headers, and Content-Type when a JSON body goes with it. */
export function outgoingHeaders(request: NexthinkRequest): Record<string, string> {
	const headers: Record<string, string> = { Accept: request.accept ?? 'application/json', ...request.headers };
	if (request.body !== undefined) headers['Content-Type'] = 'application/json';
	return headers;
}

const SENDABLE = /^(?:[\x21-\x7e\x80-\xff](?:[\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/** Why a header cannot go out as it is, naming it; undefined when every value is sent byte for byte. */
export function unsendableHeader(headers: Record<string, string>): string | undefined {
	for (const [name, value] of Object.entries(headers)) {
		if (typeof value !== 'string') return `the ${name} header is not text`;
		if (SENDABLE.test(value)) continue;
		const characters = [...value];
		const bad = characters.findIndex((character, index) => !characterSendable(character, index === 0 || index === characters.length - 1));
		const codePoint = characters[bad].codePointAt(0) ?? 0;
		const code = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
		const why =
			codePoint === 0x20
				? 'a space at its start or end, which HTTP drops'
				: codePoint > 0xff
					? `a character outside Latin-1 (${code}) at character ${bad + 1}, which the HTTP client would drop`
					: `a control character (${code}) at character ${bad + 1}, which a header cannot carry`;
		return `the ${name} header's value has ${why}`;
	}
	return undefined;
}

function characterSendable(character: string, atEnd: boolean): boolean {
	const codePoint = character.codePointAt(0) ?? 0;
	if (codePoint === 0x20) return !atEnd;
	return (codePoint > 0x20 && codePoint < 0x7f) || (codePoint >= 0x80 && codePoint <= 0xff);
}
