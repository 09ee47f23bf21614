// @ts-check
'use strict';

const crypto = require('node:crypto');
const { sendJson, sendEmpty, mediaType } = require('./http');

/**
 * OAuth 2.0 client-credentials tokens: issuing (the token endpoints) and checking bearer tokens.
 *
 * @typedef {'nql' | 'enrichment' | 'remoteActions' | 'workflows' | 'campaigns' | 'dataManagement' | 'spark'} Permission
 *   the credential's API permissions: NQL API, Enrichment API, Remote Actions API, Workflows API, Campaigns API,
 *   Data management, Spark API
 * @typedef {{ clientId: string, clientSecret: string, permissions: Permission[] }} Client
 * @typedef {{ client: Client, expiresAt: number }} IssuedToken
 */

const REQUIRED_SCOPE = 'service:integration';

/** @param {unknown} value */
function base64url(value) {
	return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

class TokenIssuer {
	/**
	 * @param {object} options
	 * @param {Client[]} options.clients
	 * @param {() => number} options.now
	 * @param {() => number} options.lifetimeSeconds read on every issue, so tests may change it live
	 * @param {string} options.issuer
	 */
	constructor({ clients, now, lifetimeSeconds, issuer }) {
		this.clients = clients;
		this.now = now;
		this.lifetimeSeconds = lifetimeSeconds;
		this.issuer = issuer;
		this.signingKey = crypto.randomBytes(32);
		/** @type {Map<string, IssuedToken>} */
		this.issued = new Map();
	}

	/**
	 * A JWT (HS256) with the claims an Okta-style authorization server puts in an access token,
	 * unique per call thanks to `jti`.
	 * @param {Client} client
	 */
	issue(client) {
		const lifetime = this.lifetimeSeconds();
		const issuedAt = Math.floor(this.now() / 1000);
		const header = base64url({ alg: 'HS256', typ: 'JWT', kid: 'local-test-key' });
		const payload = base64url({
			ver: 1,
			jti: `AT.${crypto.randomUUID()}`,
			iss: this.issuer,
			aud: 'api://default',
			iat: issuedAt,
			exp: issuedAt + lifetime,
			cid: client.clientId,
			sub: client.clientId,
			scp: [REQUIRED_SCOPE],
		});
		const signature = crypto.createHmac('sha256', this.signingKey).update(`${header}.${payload}`).digest('base64url');
		const token = `${header}.${payload}.${signature}`;
		this.issued.set(token, { client, expiresAt: this.now() + lifetime * 1000 });
		return { token_type: 'Bearer', expires_in: lifetime, access_token: token, scope: REQUIRED_SCOPE };
	}

	/**
	 * The client behind a bearer `Authorization` header, or undefined when it is missing, unknown or expired.
	 * @param {string | undefined} authorization
	 * @returns {Client | undefined}
	 */
	verify(authorization) {
		const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
		if (!match) return undefined;
		const issued = this.issued.get(match[1]);
		if (!issued || issued.expiresAt <= this.now()) return undefined;
		return issued.client;
	}

	expireAll() {
		for (const issued of this.issued.values()) issued.expiresAt = 0;
	}

	/**
	 * The client named by a Basic `Authorization` header whose secret matches, else undefined.
	 * @param {string | undefined} authorization
	 * @returns {Client | undefined}
	 */
	authenticateBasic(authorization) {
		const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization ?? '');
		if (!match) return undefined;
		const decoded = Buffer.from(match[1], 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		if (colon === -1) return undefined;
		const clientId = decoded.slice(0, colon);
		const secret = decoded.slice(colon + 1);
		return this.clients.find((client) => client.clientId === clientId && safeEqual(client.clientSecret, secret));
	}
}

/**
 * @param {string} a
 * @param {string} b
 */
function safeEqual(a, b) {
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/**
 * @param {string} error
 * @param {string} description
 */
const oauthError = (error, description) => ({ error, error_description: description });
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/**
 * `POST /oauth2/default/v1/token`. Checks, in order: form content type (400 invalid_request), Basic
 * client credentials (401 invalid_client), grant_type (400 invalid_request when missing,
 * unsupported_grant_type when another value), scope (400 invalid_scope). `grant_type` and `scope`
 * are read from the form body, or from the query string when the body lacks them (some clients send
 * them there).
 * @param {import('./router').Context} ctx
 * @param {TokenIssuer} tokens
 */
function handleOAuthToken(ctx, tokens) {
	if (mediaType(ctx.headers['content-type']) !== 'application/x-www-form-urlencoded') {
		sendJson(ctx.res, 400, oauthError('invalid_request', 'Content-Type must be application/x-www-form-urlencoded'), NO_STORE);
		return;
	}
	const client = tokens.authenticateBasic(ctx.headers.authorization);
	if (!client) {
		sendJson(ctx.res, 401, oauthError('invalid_client', 'Client authentication failed.'), {
			...NO_STORE,
			'www-authenticate': 'Basic realm="oauth2"',
		});
		return;
	}
	const form = new URLSearchParams(ctx.body);
	const param = (/** @type {string} */ name) => form.get(name) ?? ctx.url.searchParams.get(name);
	const grantType = param('grant_type');
	if (grantType === null || grantType === '') {
		sendJson(ctx.res, 400, oauthError('invalid_request', 'The grant_type parameter is required.'), NO_STORE);
		return;
	}
	if (grantType !== 'client_credentials') {
		sendJson(ctx.res, 400, oauthError('unsupported_grant_type', `The grant type '${grantType}' is not supported.`), NO_STORE);
		return;
	}
	const scope = param('scope');
	if (scope === null || scope.split(' ').filter(Boolean).join(' ') !== REQUIRED_SCOPE) {
		sendJson(ctx.res, 400, oauthError('invalid_scope', `The requested scope is invalid; use '${REQUIRED_SCOPE}'.`), NO_STORE);
		return;
	}
	sendJson(ctx.res, 200, tokens.issue(client), NO_STORE);
}

/**
 * Legacy `POST /api/v1/token`: Basic credentials only, no body; same success answer, 401 otherwise.
 * @param {import('./router').Context} ctx
 * @param {TokenIssuer} tokens
 */
function handleLegacyToken(ctx, tokens) {
	const client = tokens.authenticateBasic(ctx.headers.authorization);
	if (!client) {
		sendEmpty(ctx.res, 401);
		return;
	}
	sendJson(ctx.res, 200, tokens.issue(client), NO_STORE);
}

module.exports = { TokenIssuer, handleOAuthToken, handleLegacyToken, REQUIRED_SCOPE };
