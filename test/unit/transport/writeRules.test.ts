/**
 * The transport's two rules for what goes out and what counts as an answer to a write:
 * outgoingHeaders.ts (every header value byte for byte or refused, naming the header) and
 * apiErrors.ts notJsonBody (a write's 2xx body is empty or JSON, never an HTML page).
 */
import { outgoingHeaders, unsendableHeader } from '../../../nodes/Nexthink/transport/hostCompat';
import { notJsonBody } from '../../../nodes/Nexthink/transport/apiErrors';

describe('outgoingHeaders', () => {
	it('is Accept, the request headers, and Content-Type with a body', () => {
		expect(outgoingHeaders({ method: 'GET', path: '/x', idempotent: true })).toEqual({ Accept: 'application/json' });
		expect(outgoingHeaders({ method: 'POST', path: '/x', idempotent: false, body: {}, accept: 'text/csv', headers: { 'x-request-id': 'a' } })).toEqual({
			Accept: 'text/csv',
			'x-request-id': 'a',
			'Content-Type': 'application/json',
		});
	});
});

describe('unsendableHeader', () => {
	it.each([['alice.martin@example.com'], ['Europe/Zurich'], ['caf\u00e9'], ['\u00e7\u0080\u00ff'], ['a b'], ['']])('%j goes out as it is', (value) => {
		expect(unsendableHeader({ 'X-Test': value })).toBeUndefined();
	});

	it.each([
		['alice.martin田@example.com', 'a character outside Latin-1 (U+7530) at character 13'],
		['😀', 'a character outside Latin-1 (U+1F600) at character 1'],
		['a\r\nX-Injected: 1', 'a control character (U+000D) at character 2'],
		['a\tb', 'a control character (U+0009) at character 2'],
		['a\u0000', 'a control character (U+0000) at character 2'],
		['a\u007f', 'a control character (U+007F) at character 2'],
		[' a', 'a space at its start or end'],
		['a ', 'a space at its start or end'],
	])('%j is refused, naming the header and the character', (value, why) => {
		expect(unsendableHeader({ Accept: 'application/json', 'User-Principal-Name': value })).toBe(`the User-Principal-Name header's value has ${why}${why.startsWith('a space') ? ', which HTTP drops' : why.includes('Latin-1') ? ', which the HTTP client would drop' : ', which a header cannot carry'}`);
	});
});

describe('notJsonBody', () => {
	it.each([[undefined], [null], [''], ['  \n'], [{}], [{ status: 'success' }], [[]], [0], [true]])('%j is empty or JSON', (body) => {
		expect(notJsonBody(body)).toBeUndefined();
	});

	it.each([
		['<!doctype html><html><body>Sign in</body></html>', 'an HTML page'],
		['\n  <html>', 'an HTML page'],
		['OK', 'text that is not JSON'],
		[Buffer.from('{}'), 'a body that is not JSON'],
	])('%j is not', (body, words) => {
		expect(notJsonBody(body)).toBe(words);
	});
});
