import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { ignoresTlsErrors, NEXTHINK_REGIONS, resolveNexthinkHosts } from '../nodes/Nexthink/transport/hosts';
import {
	basicAuthorization,
	buildTokenRequest,
	explainTokenFailure,
	readAccessToken,
	TOKEN_FORM_BODY,
	TokenExchangeError,
} from '../nodes/Nexthink/transport/tokenExchange';

/**
 * Marks the credential test's request. `authenticate` turns it into the token exchange itself, so
 * the test proves exactly what every call needs (a credential may hold only the NQL or only the
 * Enrichment permission, so no API call is a fair test) and the hosts are resolved in one place.
 */
const CREDENTIAL_TEST_HEADER = 'x-n8n-nexthink-credential-test';

export class NexthinkApi implements ICredentialType {
	name = 'nexthinkApi';

	displayName = 'Nexthink API';

	icon: Icon = { light: 'file:../nodes/Nexthink/icons/nexthink.svg', dark: 'file:../nodes/Nexthink/icons/nexthink.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-nexthink/n8n-nodes-nexthink#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Use Custom URLs',
			name: 'useCustomUrls',
			type: 'boolean',
			default: false,
			description:
				'Whether to enter the API base URL and token URL yourself (for a proxy, a test server, the legacy /api/v1/token endpoint or another deployment) instead of deriving them from the instance name and region',
		},
		{
			displayName: 'Instance Name',
			name: 'instance',
			type: 'string',
			default: '',
			placeholder: 'acme',
			required: true,
			description: 'The first label of your Nexthink web address: "acme" for https://acme.eu.nexthink.cloud',
			displayOptions: { show: { useCustomUrls: [false] } },
		},
		{
			displayName: 'Region',
			name: 'region',
			type: 'options',
			default: 'eu',
			options: Object.entries(NEXTHINK_REGIONS).map(([value, name]) => ({ name, value })),
			description: 'The region of your instance: the label after the instance name in its web address',
			displayOptions: { show: { useCustomUrls: [false] } },
		},
		{
			displayName: 'API Base URL',
			name: 'apiBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://acme.api.eu.nexthink.cloud',
			required: true,
			description: 'Base URL the API paths (/api/v1/...) are appended to',
			displayOptions: { show: { useCustomUrls: [true] } },
		},
		{
			displayName: 'Token URL',
			name: 'tokenUrl',
			type: 'string',
			default: '',
			placeholder: 'https://acme-login.eu.nexthink.cloud/oauth2/default/v1/token',
			required: true,
			description: 'Full URL of the OAuth 2.0 token endpoint',
			displayOptions: { show: { useCustomUrls: [true] } },
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			description:
				'Whether to connect even if the TLS certificate cannot be validated, e.g. behind a TLS-inspecting proxy (such as Zscaler) or a proxy with a self-signed certificate. Applies to every request of this credential: token, API calls and results-file downloads.',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description: 'Client ID of an API credential created in Nexthink under Administration > API credentials',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Client secret shown once when the API credential was created',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	/** Runs when the stored token is empty or the API answered 401; n8n then retries the call once. */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const tokenUrl = tokenUrlOf(credentials);
		const request = buildTokenRequest(
			tokenUrl,
			String(credentials.clientId ?? '').trim(),
			String(credentials.clientSecret ?? ''),
			skipsSslValidation(credentials),
		);
		let body: unknown;
		try {
			body = await this.helpers.httpRequest(request);
		} catch (error) {
			throw explainTokenFailure(error, tokenUrl);
		}
		const accessToken = readAccessToken(body);
		if (accessToken === undefined) {
			throw new TokenExchangeError(`The token endpoint ${tokenUrl} answered without an access_token.`);
		}
		return { accessToken } as IDataObject;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const headers = { ...(requestOptions.headers ?? {}) };
		const skipSslCertificateValidation = skipsSslValidation(credentials);
		if (headers[CREDENTIAL_TEST_HEADER] !== undefined) {
			delete headers[CREDENTIAL_TEST_HEADER];
			const tokenUrl = tokenUrlOf(credentials);
			return {
				...requestOptions,
				method: 'POST',
				baseURL: undefined,
				url: tokenUrl,
				headers: {
					...headers,
					Authorization: basicAuthorization(String(credentials.clientId ?? '').trim(), String(credentials.clientSecret ?? '')),
					'Content-Type': 'application/x-www-form-urlencoded',
				},
				body: TOKEN_FORM_BODY,
				json: false,
				// the token request carries the client secret: never to a redirect's host (transport/tokenExchange.ts)
				disableFollowRedirect: true,
				skipSslCertificateValidation,
			};
		}
		return {
			...requestOptions,
			headers: { ...headers, Authorization: `Bearer ${String(credentials.accessToken ?? '')}` },
			skipSslCertificateValidation: requestOptions.skipSslCertificateValidation === true || skipSslCertificateValidation,
		};
	}

	test: ICredentialTestRequest = {
		request: {
			method: 'POST',
			url: '',
			headers: { [CREDENTIAL_TEST_HEADER]: 'token-exchange' },
		},
	};
}

function tokenUrlOf(credentials: ICredentialDataDecryptedObject): string {
	try {
		return resolveNexthinkHosts(credentials).tokenUrl;
	} catch (error) {
		throw new TokenExchangeError((error as Error).message);
	}
}

function skipsSslValidation(credentials: ICredentialDataDecryptedObject): boolean {
	return ignoresTlsErrors(credentials);
}
