// @ts-check
'use strict';

/**
 * What an MCP client shows when n8n's MCP Server Trigger refuses it: the texts
 * docs/troubleshooting.md quotes, asserted on real n8n 1.x and 2.x by test/e2e/cases/mcpCases.js
 * (the official SDK's client, and mcp-remote for Claude Desktop, whose log shows its stderr).
 */
const MCP_MESSAGES = Object.freeze({
	/** n8n's answer while the workflow is not published (active), for `/mcp/<path>` */
	notRegistered: (/** @type {string} */ path) => `{"code":404,"message":"The requested webhook \\"POST ${path}\\" is not registered.","hint":"The workflow must be active for a production URL to run successfully.`,
	/** the SDK's SSE transport (and mcp-remote's fallback to it) on the same 404 */
	sse404: 'SSE error: Non-200 status code (404)',
	/** mcp-remote, first over Streamable HTTP */
	bridge404: 'Received error (status 404): Error POSTing to endpoint: {"code":404,',
	/** Bearer Auth (or Header Auth) on the trigger, the request without the right token */
	forbidden: 'Error POSTing to endpoint: Authorization data is wrong!',
	sse403: 'SSE error: Non-200 status code (403)',
	bridge403: 'Fatal error: SdkHttpError: Error POSTing to endpoint: Authorization data is wrong!',
	/** a call of a tool name the server no longer has (its node was renamed) */
	toolNotFound: 'MCP error -32603: Tool not found',
});

module.exports = { MCP_MESSAGES };
