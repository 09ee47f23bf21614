// @ts-check
'use strict';

/**
 * Whether an MCP Server Trigger's production URL answers as an MCP server: used by `npm start`
 * before it prints the URL, and by the end-to-end suite before its MCP checks. n8n registers a
 * published workflow's URLs after `n8n start` is ready, in the background, and answers 404 until
 * then; so a 404 is waited out (within a bound) before it counts.
 */

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until `url` answers anything but 404 (a 400, 403 or 406 to a bare POST means n8n has
 * registered it). Resolves the last status: 404 when `timeoutMs` ran out first.
 * @param {string} url @param {number} timeoutMs
 */
async function untilRegistered(url, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(10_000) });
		await response.arrayBuffer();
		if (response.status !== 404 || Date.now() > deadline) return response.status;
		await sleep(500);
	}
}

/**
 * Connects the official MCP client over Streamable HTTP and lists the tools.
 * @param {string} url @param {{ timeoutMs: number }} options
 * @returns {Promise<{ ok: true, tools: string[] } | { ok: false, reason: string }>}
 */
async function probeMcpServer(url, options) {
	try {
		const status = await untilRegistered(url, options.timeoutMs);
		if (status === 404) return { ok: false, reason: `it still answers 404 (not registered) after ${Math.round(options.timeoutMs / 1000)} s` };
		const client = new Client({ name: 'n8n-nodes-nexthink probe', version: '1.0.0' });
		await client.connect(new StreamableHTTPClientTransport(new URL(url)));
		try {
			const { tools } = await client.listTools(undefined, { timeout: 30_000 });
			return { ok: true, tools: tools.map((tool) => tool.name) };
		} finally {
			await client.close();
		}
	} catch (error) {
		return { ok: false, reason: error instanceof Error ? error.message : String(error) };
	}
}

module.exports = { probeMcpServer, untilRegistered };
