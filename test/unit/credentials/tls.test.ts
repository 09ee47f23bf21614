/**
 * "Ignore SSL Issues" with Instance + Region. The derived *.nexthink.cloud hosts
 * cannot be reached from a test, so this checks what every request of the credential is built with:
 * the option is shown in both modes and sets `skipSslCertificateValidation` on the token exchange
 * (preAuthentication and the credential test), on API calls (authenticate) and on the results-file
 * download. Over real HTTPS the same switch is proven with custom URLs in test/integration/transport/tls.test.ts.
 */
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { NexthinkApi } from '../../../credentials/NexthinkApi.credentials';
import { fetchPresignedFile } from '../../../nodes/Nexthink/transport/presignedFile';

const INSTANCE_AND_REGION = { useCustomUrls: false, instance: 'acme', region: 'eu', clientId: 'id', clientSecret: 'secret', accessToken: 'token' };
const TOKEN_URL = 'https://acme-login.eu.nexthink.cloud/oauth2/default/v1/token';

describe.each([true, false])('Instance + Region with Ignore SSL Issues %s', (ignoreSslIssues) => {
	const credentials = { ...INSTANCE_AND_REGION, ignoreSslIssues };
	const credential = new NexthinkApi();

	it('API calls carry the switch (authenticate)', async () => {
		const request = await credential.authenticate(credentials as never, { method: 'GET', url: 'https://acme.api.eu.nexthink.cloud/api/v1/nql/status/x' });
		expect(request.skipSslCertificateValidation).toBe(ignoreSslIssues);
		expect(request.headers?.Authorization).toBe('Bearer token');
	});

	it('the token exchange carries it and never follows a redirect (preAuthentication)', async () => {
		const sent: IHttpRequestOptions[] = [];
		const helpers = {
			httpRequest: async (options: IHttpRequestOptions) => {
				sent.push(options);
				return JSON.stringify({ access_token: 'fresh' });
			},
		};
		const output = await credential.preAuthentication.call({ helpers } as never, credentials as never);
		expect(output).toEqual({ accessToken: 'fresh', accessTokenProof: expect.stringMatching(/^\d+\.[0-9a-f]{64}$/) });
		expect(sent).toHaveLength(1);
		expect(sent[0]).toMatchObject({ method: 'POST', url: TOKEN_URL, skipSslCertificateValidation: ignoreSslIssues, disableFollowRedirect: true });
		// right after that exchange, the credential test only checks the API host, with the same switch
		const check = await credential.authenticate({ ...credentials, ...output } as never, { ...credential.test.request } as never);
		expect(check).toMatchObject({ method: 'GET', url: 'https://acme.api.eu.nexthink.cloud/', skipSslCertificateValidation: ignoreSslIssues, disableFollowRedirect: true });
	});

	it('the credential test carries it and never follows a redirect', async () => {
		const request = await credential.authenticate(credentials as never, { ...credential.test.request } as never);
		expect(request).toMatchObject({ method: 'POST', url: TOKEN_URL, skipSslCertificateValidation: ignoreSslIssues, disableFollowRedirect: true });
	});

	it('the results-file download carries it', async () => {
		const sent: IHttpRequestOptions[] = [];
		const ctx = {
			getCredentials: async () => credentials,
			helpers: {
				httpRequest: async (options: IHttpRequestOptions) => {
					sent.push(options);
					return { statusCode: 200, headers: {}, body: (async function* () {})() };
				},
			},
		} as unknown as IExecuteFunctions;
		const result = await fetchPresignedFile(ctx, 'https://storage.example/file.csv?signature=x', 1000);
		expect(result.kind).toBe('file');
		expect(sent).toHaveLength(1);
		expect(sent[0].skipSslCertificateValidation).toBe(ignoreSslIssues);
		// no credential on a pre-signed URL; redirects stay n8n's default (followed)
		expect(sent[0].headers?.Authorization).toBeUndefined();
		expect(sent[0].disableFollowRedirect).toBeUndefined();
	});
});

it('the option is shown with Instance + Region as well as with custom URLs, with its warning', () => {
	const property = new NexthinkApi().properties.find((p) => p.name === 'ignoreSslIssues');
	expect(property?.displayOptions).toBeUndefined();
	expect(property?.displayName).toBe('Ignore SSL Issues (Insecure)');
	expect(property?.description).toMatch(/TLS-inspecting proxy/);
});
