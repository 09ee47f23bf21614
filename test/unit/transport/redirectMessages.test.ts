/**
 * What a redirect answer is reported as: the status and the host the `Location`
 * points to, resolved like a client would (relative locations against the URL that answered), never
 * its path or query and never a secret. Over real HTTP: test/integration/transport/redirects.test.ts.
 */
import type { INode } from 'n8n-workflow';

import { hostOf, redirectError } from '../../../nodes/Nexthink/transport/apiErrors';
import { explainTokenFailure } from '../../../nodes/Nexthink/transport/tokenExchange';

const TOKEN_URL = 'https://acme-login.eu.nexthink.cloud/oauth2/default/v1/token';
const NODE = { id: 'n', name: 'Node', type: 't', typeVersion: 1, position: [0, 0], parameters: {} } as INode;

it.each([
	['https://evil.example:8443/steal?secret=x', 'evil.example:8443'],
	['/oauth2/other', 'acme-login.eu.nexthink.cloud'],
	['//other.example/path', 'other.example'],
	['', undefined],
	[undefined, undefined],
	['http://[::1', undefined],
])('hostOf(%p) is %p', (location, host) => {
	expect(hostOf(location, TOKEN_URL)).toBe(host);
});

it('a token endpoint redirect names the status and the target host, never the path, query or secret', () => {
	const error = {
		message: 'Request failed with status code 307',
		response: { status: 307, headers: { location: 'https://evil.example/collect?client_secret=s3cr3t' }, data: '' },
	};
	const message = explainTokenFailure(error, { tokenUrl: TOKEN_URL, clientId: 'id', clientSecret: 's3cr3t' }).message;
	expect(message).toMatch(/^Could not get a Nexthink API token: The token endpoint \S+ answered HTTP 307, a redirect to evil\.example\. /);
	expect(message).toMatch(/never follows redirects/);
	expect(message).not.toMatch(/collect|s3cr3t/);
});

it('an API redirect names the status and the target host, or says it is the same host', () => {
	const elsewhere = redirectError(NODE, {
		statusCode: 308,
		location: 'https://elsewhere.example/api/v1/nql/export?token=abc',
		requestUrl: 'https://acme.api.eu.nexthink.cloud/api/v1/nql/export',
		action: 'Starting the export of #x',
	});
	expect(elsewhere.message).toMatch(/^Starting the export of #x failed: the API answered HTTP 308, a redirect to elsewhere\.example\. /);
	expect(elsewhere.message).not.toContain('token=abc');
	expect(elsewhere.httpCode).toBe('308');

	const same = redirectError(NODE, { statusCode: 301, location: '/api/v2/x', requestUrl: 'https://acme.api.eu.nexthink.cloud/api/v1/x', action: 'Probing' });
	expect(same.message).toContain('HTTP 301, a redirect to acme.api.eu.nexthink.cloud (the same host)');
});
