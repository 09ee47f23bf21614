// @ts-check
'use strict';

/**
 * Minimal fetch-based client for tests that talk to the local server directly (the server's own
 * tests, scripts): get a token, call the API with it, run an export to its file URL.
 *
 * @typedef {{ baseUrl: string, tokenUrl: string, clientId: string, clientSecret: string }} ServerAddress
 */

/**
 * @param {string} clientId
 * @param {string} clientSecret
 */
function basicAuth(clientId, clientSecret) {
	return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
}

/**
 * The Nexthink API credential's data pointing at this server through custom URLs, with its first
 * client (what the node, n8n's credential store and the benchmarks all need).
 * @param {ServerAddress} server
 */
function credentialData(server) {
	return {
		useCustomUrls: true,
		apiBaseUrl: server.baseUrl,
		tokenUrl: server.tokenUrl,
		clientId: server.clientId,
		clientSecret: server.clientSecret,
	};
}

/**
 * A bearer token from the OAuth endpoint (throws when refused).
 * @param {ServerAddress} server
 * @param {{ clientId?: string, clientSecret?: string }} [client] defaults to the server's first client
 */
async function fetchToken(server, client = {}) {
	const response = await fetch(server.tokenUrl, {
		method: 'POST',
		headers: {
			authorization: basicAuth(client.clientId ?? server.clientId, client.clientSecret ?? server.clientSecret),
			'content-type': 'application/x-www-form-urlencoded',
		},
		body: 'grant_type=client_credentials&scope=service%3Aintegration',
	});
	if (response.status !== 200) throw new Error(`token request answered ${response.status}: ${await response.text()}`);
	const body = /** @type {{ access_token: string }} */ (await response.json());
	return body.access_token;
}

/**
 * An API call with a bearer token; `json` becomes the JSON body.
 * @param {ServerAddress} server
 * @param {string} token
 * @param {string} method
 * @param {string} path
 * @param {{ json?: unknown, body?: string, headers?: Record<string, string> }} [init]
 */
function apiRequest(server, token, method, path, init = {}) {
	/** @type {Record<string, string>} */
	const headers = { authorization: `Bearer ${token}`, ...(init.headers ?? {}) };
	let body = init.body;
	if (init.json !== undefined) {
		headers['content-type'] = 'application/json';
		body = JSON.stringify(init.json);
	}
	return fetch(`${server.baseUrl}${path}`, { method, headers, body });
}

/**
 * Starts an export with POST and polls until it is no longer SUBMITTED/IN_PROGRESS; returns the
 * export id and the last status answer.
 * @param {ServerAddress} server
 * @param {string} token
 * @param {{ queryId: string, parameters?: Record<string, string>, compression?: string }} request
 */
async function runExport(server, token, request) {
	const started = await apiRequest(server, token, 'POST', '/api/v1/nql/export', { json: request });
	if (started.status !== 200) throw new Error(`export start answered ${started.status}: ${await started.text()}`);
	const { exportId } = /** @type {{ exportId: string }} */ (await started.json());
	for (let poll = 0; poll < 100; poll++) {
		const response = await apiRequest(server, token, 'GET', `/api/v1/nql/status/${exportId}`);
		const text = await response.text();
		const status = text ? JSON.parse(text) : undefined;
		if (!status || (status.status !== 'SUBMITTED' && status.status !== 'IN_PROGRESS')) {
			return { exportId, httpStatus: response.status, status };
		}
	}
	throw new Error(`export ${exportId} did not finish within 100 polls`);
}

module.exports = { basicAuth, credentialData, fetchToken, apiRequest, runExport };
