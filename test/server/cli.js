#!/usr/bin/env node
// @ts-check
'use strict';

const { parseArgs } = require('node:util');
const { startNexthinkServer } = require('./index');

/**
 * Runs the local Nexthink API server until SIGINT/SIGTERM, for `npm start`, end-to-end runs and
 * trying workflows by hand:
 *
 *   node test/server/cli.js --port 18080 --demo
 *
 * Prints the connection details, then one machine-readable line
 * `NEXTHINK_SERVER_READY {"baseUrl":...,"tokenUrl":...,"clientId":...,"clientSecret":...}`.
 */

const USAGE = `Usage: node test/server/cli.js [options]
  --port <n>                 port to listen on (default 0 = any free port)
  --host <address>           address to bind (default 127.0.0.1)
  --demo                     load the demo estate and its queries
  --client-id <id>           client id (default nx-client)
  --client-secret <secret>   client secret (default nx-secret-value)
  --slow-export-ms <ms>      completion time of #slow_export (default 30000)
  --status-daily-limit <n>   status calls per client before 429 (default unlimited)
  --retry-after-format <f>   seconds | http-date (default seconds)
  --action-complete-after-polls <n>  status-query reads before an action execution may end (default 2)
  --action-complete-after-ms <ms>    time before an action execution may end (default 0)
  --help                     show this help`;

/** @param {string | undefined} value @param {string} name */
function integer(value, name) {
	if (value === undefined) return undefined;
	if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a non-negative integer`);
	return Number(value);
}

async function main() {
	const { values } = parseArgs({
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			demo: { type: 'boolean', default: false },
			'client-id': { type: 'string' },
			'client-secret': { type: 'string' },
			'slow-export-ms': { type: 'string' },
			'status-daily-limit': { type: 'string' },
			'retry-after-format': { type: 'string' },
			'action-complete-after-polls': { type: 'string' },
			'action-complete-after-ms': { type: 'string' },
			help: { type: 'boolean', default: false },
		},
	});
	if (values.help) {
		console.log(USAGE);
		return;
	}
	const retryAfterFormat = values['retry-after-format'];
	if (retryAfterFormat !== undefined && retryAfterFormat !== 'seconds' && retryAfterFormat !== 'http-date') {
		throw new Error('--retry-after-format must be seconds or http-date');
	}
	const server = await startNexthinkServer({
		port: integer(values.port, 'port'),
		host: values.host,
		demo: values.demo,
		clients: [
			{
				clientId: values['client-id'] ?? 'nx-client',
				clientSecret: values['client-secret'] ?? 'nx-secret-value',
				permissions: ['nql', 'enrichment', 'remoteActions', 'workflows', 'campaigns', 'dataManagement', 'spark'],
			},
		],
		slowExportMs: integer(values['slow-export-ms'], 'slow-export-ms'),
		statusDailyLimit: integer(values['status-daily-limit'], 'status-daily-limit'),
		retryAfterFormat,
		actionCompleteAfterPolls: integer(values['action-complete-after-polls'], 'action-complete-after-polls'),
		actionCompleteAfterMs: integer(values['action-complete-after-ms'], 'action-complete-after-ms'),
		// A long-running server must not keep every request it ever saw.
		maxRecordedRequests: 1000,
	});
	console.log(`Nexthink API server listening${values.demo ? ' (demo estate loaded)' : ''}`);
	console.log(`  base URL:      ${server.baseUrl}`);
	console.log(`  token URL:     ${server.tokenUrl}`);
	console.log(`  client id:     ${server.clientId}`);
	console.log(`  client secret: ${server.clientSecret}`);
	console.log(
		`NEXTHINK_SERVER_READY ${JSON.stringify({
			baseUrl: server.baseUrl,
			tokenUrl: server.tokenUrl,
			clientId: server.clientId,
			clientSecret: server.clientSecret,
		})}`,
	);
	const stop = async () => {
		await server.close();
		process.exit(0);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error) => {
	console.error(error.message);
	process.exit(1);
});
