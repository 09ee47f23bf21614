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

import { NEXTHINK_REGIONS, resolveNexthinkHosts } from '../nodes/Nexthink/transport/hosts';
import {
	buildTokenRequest,
	explainTokenFailure,
	isFreshTokenProof,
	readAccessToken,
	TokenExchangeError,
	tokenProof,
	type TokenExchangeValues,
} from '../nodes/Nexthink/transport/tokenExchange';

/** Marks the credential test's request: docs/decisions.md, "Credential test: one token exchange". */
const CREDENTIAL_TEST_HEADER = 'x-n8n-nexthink-credential-test';

export class NexthinkApi implements ICredentialType {
	name = 'nexthinkApi';

	displayName = 'Nexthink API';

	icon: Icon = { light: 'file:../nodes/Nexthink/icons/nexthink.svg', dark: 'file:../nodes/Nexthink/icons/nexthink.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-nexthink/n8n-nodes-nexthink#credentials';

	// the everyday form first; custom URLs and TLS exceptions after it
	properties: INodeProperties[] = [
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
			displayName: 'Use Custom URLs',
			name: 'useCustomUrls',
			type: 'boolean',
			default: false,
			description:
				'Whether to enter the API base URL and token URL yourself instead of deriving them from the instance name and region: only for a proxy, a test server, the legacy /api/v1/token endpoint or another deployment',
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
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			// when and with which values the access token was obtained (see CREDENTIAL_TEST_HEADER)
			displayName: 'Access Token Proof',
			name: 'accessTokenProof',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
	];

	/** Runs when the stored token is empty or the API answered 401; n8n then retries the call once. */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const values = exchangeValuesOf(credentials);
		let body: unknown;
		try {
			body = await this.helpers.httpRequest(buildTokenRequest(values, credentials.ignoreSslIssues === true));
		} catch (error) {
			throw explainTokenFailure(error, values);
		}
		const accessToken = readAccessToken(body);
		if (accessToken === undefined) {
			throw new TokenExchangeError(`The token endpoint ${values.tokenUrl} answered without an access_token.`);
		}
		return { accessToken, accessTokenProof: tokenProof(values, accessToken, Date.now()) } as IDataObject;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const headers = { ...(requestOptions.headers ?? {}) };
		const skipSslCertificateValidation = credentials.ignoreSslIssues === true;
		if (headers[CREDENTIAL_TEST_HEADER] !== undefined) {
			delete headers[CREDENTIAL_TEST_HEADER];
			const values = exchangeValuesOf(credentials);
			if (isFreshTokenProof(values, credentials.accessToken, credentials.accessTokenProof, Date.now())) {
				return {
					...requestOptions,
					method: 'GET',
					baseURL: undefined,
					url: `${hostsOf(credentials).apiBaseUrl}/`,
					// nothing secret goes with it: the token exchange of this test already proved the secret
					headers,
					body: undefined,
					json: false,
					// any HTTP answer shows the host answers; a 3xx is not followed to another host
					ignoreHttpStatusErrors: true,
					disableFollowRedirect: true,
					skipSslCertificateValidation,
					timeout: 30_000,
				};
			}
			// the very request preAuthentication sends (never following a redirect: transport/tokenExchange.ts)
			const exchange = buildTokenRequest(values, skipSslCertificateValidation);
			return { ...requestOptions, ...exchange, baseURL: undefined, headers: { ...headers, ...exchange.headers } };
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

function exchangeValuesOf(credentials: ICredentialDataDecryptedObject): TokenExchangeValues {
	return {
		tokenUrl: hostsOf(credentials).tokenUrl,
		clientId: String(credentials.clientId ?? '').trim(),
		clientSecret: String(credentials.clientSecret ?? ''),
	};
}

function hostsOf(credentials: ICredentialDataDecryptedObject): ReturnType<typeof resolveNexthinkHosts> {
	try {
		return resolveNexthinkHosts(credentials);
	} catch (error) {
		throw new TokenExchangeError((error as Error).message);
	}
}
