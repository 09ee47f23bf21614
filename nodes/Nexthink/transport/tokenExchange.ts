/**
 * The OAuth 2.0 client-credentials exchange (https://docs.nexthink.com/api/getting-authentication-token),
 * never following a redirect, and why it failed: the token URL and the cause, never the secret, the
 * Basic header or a token (docs/decisions.md, "Redirects of the token request", "Token failures").
 */
import { createHash } from 'crypto';

import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { scrubText, secretForms } from './secretScrub';
import { parsedBody } from './streamedBodies';
import { hostOf, TLS_ERROR_CODE } from './apiErrors';
import { errorChain, errorCodeOf, thrownAnswer } from './hostCompat';
import { TOKEN_FAILURE_PREFIX } from './types';

export function basicAuthorization(clientId: string, clientSecret: string): string {
	return `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`;
}

/** What a token was obtained with: the values a credential test must prove. */
export interface TokenExchangeValues {
	tokenUrl: string;
	clientId: string;
	clientSecret: string;
}

export function buildTokenRequest({ tokenUrl, clientId, clientSecret }: TokenExchangeValues, skipSslCertificateValidation: boolean): IHttpRequestOptions {
	return {
		method: 'POST',
		url: tokenUrl,
		headers: {
			Authorization: basicAuthorization(clientId, clientSecret),
			'Content-Type': 'application/x-www-form-urlencoded',
			Accept: 'application/json',
		},
		body: 'grant_type=client_credentials&scope=service%3Aintegration',
		json: false,
		disableFollowRedirect: true,
		skipSslCertificateValidation,
		timeout: 30_000,
	};
}

/** Reads `access_token` from the token endpoint's answer (a JSON string or an already parsed object). */
export function readAccessToken(body: unknown): string | undefined {
	const token = (parsedBody(body) as IDataObject | undefined)?.access_token;
	return typeof token === 'string' && token !== '' ? token : undefined;
}

/**
 * How long a token counts as proof of the exact values it was obtained with, in a credential test
 * (docs/decisions.md, "Credential test: one token exchange").
 */
export const TOKEN_PROOF_MAX_AGE_MS = 60_000;

/** `<issuedAtMs>.<SHA-256 over the values, the token and the time>`, kept beside the token, never sent. */
export function tokenProof(values: TokenExchangeValues, accessToken: string, issuedAtMs: number): string {
	return `${issuedAtMs}.${proofDigest(values, accessToken, issuedAtMs)}`;
}

/** Whether `proof` shows `accessToken` was obtained with exactly `values` at most TOKEN_PROOF_MAX_AGE_MS ago. */
export function isFreshTokenProof(values: TokenExchangeValues, accessToken: unknown, proof: unknown, nowMs: number): boolean {
	if (typeof proof !== 'string' || typeof accessToken !== 'string' || accessToken === '') return false;
	const match = /^(\d{1,16})\.([0-9a-f]{64})$/.exec(proof);
	if (match === null) return false;
	const issuedAtMs = Number(match[1]);
	const age = nowMs - issuedAtMs;
	return age >= 0 && age <= TOKEN_PROOF_MAX_AGE_MS && match[2] === proofDigest(values, accessToken, issuedAtMs);
}

function proofDigest(values: TokenExchangeValues, accessToken: string, issuedAtMs: number): string {
	return createHash('sha256')
		.update(JSON.stringify([values.tokenUrl, values.clientId, values.clientSecret, accessToken, issuedAtMs]))
		.digest('hex');
}

export class TokenExchangeError extends Error {
	constructor(reason: string) {
		super(`${TOKEN_FAILURE_PREFIX}${reason}`);
		this.name = 'TokenExchangeError';
	}
}

/** Explains a failed exchange from the (possibly wrapped) axios error; the OAuth `error` quoted is scrubbed. */
export function explainTokenFailure(error: unknown, values: TokenExchangeValues): TokenExchangeError {
	const { status, code, location, oauthError: sentError } = describeHttpError(error);
	const { tokenUrl } = values;
	const oauthError = sentError === undefined ? undefined : scrubText(sentError, secretForms(values));
	const host = hostOf(tokenUrl) || tokenUrl;
	if (status !== undefined && status >= 300 && status < 400) {
		const target = hostOf(location, tokenUrl);
		return new TokenExchangeError(
			`The token endpoint ${tokenUrl} answered HTTP ${status}, a redirect ${target === undefined ? 'without a valid target' : `to ${target}`}. ` +
				'The token request never follows redirects, because it carries the client secret. ' +
				'Check the region, or the Token URL if you use custom URLs (the address the token endpoint answers at, normally ending in /oauth2/default/v1/token); a proxy in between must forward the request instead of redirecting it.',
		);
	}
	if (status === 401 || oauthError === 'invalid_client') {
		return new TokenExchangeError(
			`Nexthink rejected the client ID or client secret (HTTP ${status ?? 400}${oauthError ? `, ${oauthError}` : ''}). ` +
				'Check both values in Nexthink under Administration > API credentials; the secret is shown only once, when the credential is created.',
		);
	}
	if (status === 404) {
		return new TokenExchangeError(
			`No token endpoint at ${tokenUrl} (HTTP 404). Check the region, or the Token URL if you use custom URLs (it normally ends in /oauth2/default/v1/token).`,
		);
	}
	if (status !== undefined) {
		return new TokenExchangeError(
			`The token endpoint ${tokenUrl} answered HTTP ${status}${oauthError ? ` (${oauthError})` : ''}. ` +
				'The client-credentials exchange with scope service:integration did not succeed.',
		);
	}
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return new TokenExchangeError(
			`The token host ${host} does not exist or cannot be resolved. Check the instance name and the region (us, eu, pac or meta).`,
		);
	}
	if (code !== undefined && TLS_ERROR_CODE.test(code)) {
		return new TokenExchangeError(
			`The TLS certificate of ${host} was not accepted (${code}). If a TLS-inspecting proxy or a proxy with a self-signed certificate sits in between, switch on "Ignore SSL Issues" in the credential (insecure: certificates are then not checked).`,
		);
	}
	return new TokenExchangeError(
		`Could not reach the token host ${host}${code ? ` (${code})` : ''}. Check the instance name, the region and your network or proxy.`,
	);
}

/** What the (possibly wrapped) error of the exchange says: its status, redirect target, OAuth `error` and error code. */
function describeHttpError(error: unknown) {
	const answer = thrownAnswer(errorChain(error));
	const oauthError = (parsedBody(answer?.body) as IDataObject | undefined)?.error;
	return {
		status: answer?.statusCode,
		location: answer?.headers.location,
		oauthError: typeof oauthError === 'string' ? oauthError : undefined,
		code: errorCodeOf(error),
	};
}
