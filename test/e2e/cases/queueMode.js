// @ts-check
'use strict';

/**
 * Queue mode (n8n 2.x): PostgreSQL and Redis in temporary folders, one main process that receives
 * the webhooks and one worker that runs the executions, binary data in `database` mode as n8n's
 * docs prescribe for queue mode. The Export and Enrichment cases run here with a webhook trigger
 * and must give the same results as in the suite's other runs; their execution data is read back from
 * the database through the REST API.
 */

const assert = require('node:assert/strict');
const path = require('node:path');

const { N8nInstance, RestSession, freePort, installCommunityPackage } = require('../../../scripts/n8n-instance');
const { startNexthinkServer } = require('../../server');
const { startPostgres, startRedis, missingQueueServices } = require('../lib/services');
const { latestExecution, runDataOf } = require('../lib/runData');
const { nodeCases } = require('./nodeCases');
const { OWNER } = require('./serverChecks');
const { connectorCredentialRecord, readExamples } = require('../../../scripts/n8n-examples');
const { QUEUE_EVENT_TRIGGER_TESTS, queueEventTriggerWorkflows, runQueueEventTriggerChecks } = require('./eventTriggerCases');

const LABEL = '[queue mode, n8n 2.x]';
const queueCases = () => nodeCases.filter((testCase) => testCase.queue === true);

function queueTestNames() {
	return [
		`${LABEL} the worker ran every execution; binary data is in the database`,
		...queueCases().map((testCase) => `${LABEL} ${testCase.title}`),
		...QUEUE_EVENT_TRIGGER_TESTS.map((title) => `${LABEL} ${title}`),
	];
}

/**
 * What main and workers share in queue mode: the database, Redis, binary data in the database.
 * @param {{ port: number, user: string, database: string }} postgres @param {{ port: number }} redis
 * @returns {Record<string, string>}
 */
function queueEnvironment(postgres, redis) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_PASSWORD: '',
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	};
}

/**
 * What a queue-mode phase runs beside n8n: PostgreSQL, Redis and the local Nexthink server, each
 * with its stop added to `cleanups`.
 * @param {string} workDir @param {object | undefined} serverOptions @param {(() => Promise<void>)[]} cleanups
 */
async function startQueueServices(workDir, serverOptions, cleanups) {
	const missing = missingQueueServices();
	if (missing) throw new Error(missing);
	const postgres = await startPostgres(path.join(workDir, 'postgres'));
	cleanups.push(postgres.stop);
	const redis = await startRedis(path.join(workDir, 'redis'));
	cleanups.push(redis.stop);
	const server = await startNexthinkServer(serverOptions);
	cleanups.push(() => server.close());
	return { postgres, redis, server };
}

/**
 * @param {import('../lib/suite').Suite} suite
 * @param {ReturnType<typeof import('../../../scripts/n8n-install').ensureN8n>} runtime
 * @param {string} tarball @param {string} workDir
 * @param {{ credentialFor: (server: import('./nodeCases').NexthinkServer) => object, serverOptions: object }} options
 */
async function runQueueMode(suite, runtime, tarball, workDir, options) {
	const names = queueTestNames();
	/** @type {(() => Promise<void>)[]} */
	const cleanups = [];
	try {
		const fixture = await suite.setUp(`${LABEL} PostgreSQL, Redis, main and worker`, names, async () => {
			const { postgres, redis, server } = await startQueueServices(workDir, options.serverOptions, cleanups);
			const n8n = await N8nInstance.inFolder(runtime, workDir, { env: queueEnvironment(postgres, redis) });
			cleanups.push(() => n8n.stopAll());
			installCommunityPackage(n8n.userFolder, tarball);
			for (const testCase of queueCases()) testCase.prepare?.(server);
			await n8n.importCredentials([options.credentialFor(server), connectorCredentialRecord()]);
			const eventWorkflows = queueEventTriggerWorkflows(readExamples().map(({ workflow }) => workflow));
			await n8n.importWorkflows([...queueCases().map((testCase) => testCase.workflow('webhook')), ...eventWorkflows]);
			for (const testCase of queueCases()) await n8n.activate(testCase.id);
			for (const workflow of eventWorkflows) await n8n.activate(workflow.id);
			// a 30,000-row batch of about 20 MB is over n8n's default 16 MiB: raised on the main process, which receives webhooks
			await n8n.start({ env: { N8N_PAYLOAD_SIZE_MAX: '64' } });
			const workerHealthPort = await freePort();
			await n8n.spawnProcess('worker', ['worker', '--concurrency=2'], {
				env: { N8N_RUNNERS_BROKER_PORT: String(await freePort()), QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(workerHealthPort) },
				ready: async () => (await fetch(`http://127.0.0.1:${workerHealthPort}/healthz/readiness`)).ok,
			});
			const session = new RestSession(n8n.baseUrl);
			await session.ownerSession(OWNER);
			return { n8n, server, session };
		});
		if (!fixture) return;
		const { n8n, server, session } = fixture;
		/** @type {{ id: number, run: any }[]} */
		const executions = [];
		for (const testCase of queueCases()) {
			await suite.test(`${LABEL} ${testCase.title}`, async () => {
				const exportsBefore = new Set(server.exports.keys());
				server.clearRequests();
				const before = Math.max(0, ...executions.map((execution) => execution.id));
				const answer = await n8n.callWebhook(testCase.id.toLowerCase());
				assert.equal(answer.status, 200, `webhook answered ${answer.status}: ${JSON.stringify(answer.body)}`);
				const execution = await latestExecution(session, testCase.id, runtime.dir, before);
				assert.equal(execution.mode, 'webhook');
				executions.push(execution);
				await testCase.check(execution.run, { server, exportsBefore, userFolder: n8n.userFolder });
			});
		}
		const eventExecutions = await runQueueEventTriggerChecks(suite, { n8n, session, label: LABEL });
		await suite.test(names[0], async () => {
			assert.equal(executions.length, queueCases().length, 'every case produced an execution');
			for (const id of eventExecutions) assert.match(n8n.logOf('worker'), new RegExp(`execution ${id}\\b`), `the worker ran Event Trigger execution ${id}`);
			const workerLog = n8n.logOf('worker');
			for (const execution of executions) {
				assert.match(workerLog, new RegExp(`execution ${execution.id}\\b`), `the worker ran execution ${execution.id}`);
			}
			const binaries = executions.flatMap((execution) =>
				Object.values(runDataOf(execution.run)).flatMap((tasks) =>
					tasks.flatMap((/** @type {any} */ task) => (task.data?.main ?? []).flat().flatMap((/** @type {any} */ item) => Object.values(item?.binary ?? {}))),
				),
			);
			assert.ok(binaries.length > 0, 'the export case attached its file');
			for (const binary of binaries) assert.match(String(binary.id), /^database:/, 'binary data is stored in the database');
		});
	} finally {
		for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => process.stdout.write(`cleanup: ${error.message}\n`));
	}
}

module.exports = { runQueueMode, queueTestNames, queueEnvironment, startQueueServices };
