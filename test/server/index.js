// @ts-check
'use strict';

const http = require('node:http');
const https = require('node:https');
const { Clock } = require('./clock');
const { FaultRegistry } = require('./faults');
const { TokenIssuer, handleOAuthToken, handleLegacyToken } = require('./tokens');
const { createRequestListener } = require('./router');
const { answerHeader, hasMoreThan, QueryRegistry } = require('./queries');
const { StatusQuota } = require('./status-quota');
const { UrlSigner } = require('./signed-urls');
const { handleExportStart, handleStatus, exportRows } = require('./exports');
const { handleFileDownload } = require('./files');
const { csvText } = require('./csv');
const { handleExecute } = require('./execute');
const { handleEnrichment } = require('./enrichment');
const { Inventory } = require('./inventory');
const { loadDefaultInventory } = require('./default-inventory');
const { registerInventoryQueries } = require('./inventory-queries');
const { loadDemoEstate } = require('./demo-estate');
const { ActionStore, addStatusQuery, statusQueryNql, TABLES: ACTION_TABLES, STATUSES: ACTION_STATUSES } = require('./actions');
const { loadDefaultActions } = require('./default-actions');
const { handleExecuteRemoteAction, handleListRemoteActions, handleRemoteActionDetails } = require('./remote-actions');
const { handleExecuteWorkflow, handleResumeWorkflow, handleListWorkflows, handleWorkflowDetails } = require('./workflows');
const { handleTriggerCampaign, CAMPAIGN_UNAUTHORIZED_BODY } = require('./campaigns');
const { generateDeviceRows, DEVICE_COLUMNS } = require('./device-rows');
const { DeviceDeletions, handleDeviceDeletions, DELETIONS_PATH, DATA_MANAGEMENT_OPTION_DEFAULTS } = require('./data-management');
const { SparkHandoffs, handleHandoff, HANDOFF_PATH, SPARK_OPTION_DEFAULTS } = require('./spark');

/**
 * The local Nexthink API server: composition of the parts and the control API tests use.
 * See README.md in this folder for the behaviour it implements.
 *
 * @typedef {import('./tokens').Client} Client
 * @typedef {import('./router').RecordedRequest} RecordedRequest
 *
 * @typedef {object} ServerOptions
 * @property {Client[]} [clients]              default: one client with every permission
 * @property {number} [tokenLifetimeSeconds]   default 900
 * @property {number} [urlLifetimeSeconds]     pre-signed results URL lifetime, default 900
 * @property {number} [statusDailyLimit]       status calls per client before 429, default Infinity
 * @property {'seconds' | 'http-date'} [retryAfterFormat]  form of `retry-after` on 429, default 'seconds'
 * @property {number} [retryAfterSeconds]      quota window after the limit is hit; default: until next UTC midnight
 * @property {number} [executeRowLimit]        rows returned by execute, default 1000
 * @property {'\n' | '\r\n'} [csvLineEnding]   line ending of exported CSV files, default '\n'
 * @property {'qualified' | 'short'} [queryColumnNames]  how answers of `addQuery` queries name their columns:
 *                                             as the header says (`device.uid`, default) or without the root object (`uid`)
 * @property {'header' | 'no-header' | 'zero-bytes'} [emptyResult]  an empty result's export file: a header row alone
 *                                             (default), no text (a valid compressed file of nothing), or zero bytes;
 *                                             execute answers it without columns unless 'header' (v1 `headers: []`, CSV '')
 * @property {number} [instanceUtcOffsetMinutes]  the instance's regional time zone for execute without x-utc-times, default 60
 * @property {boolean} [demo]                  load the demo estate
 * @property {number} [slowExportMs]           completion time of the demo's #slow_export, default 30000
 * @property {number} [actionCompleteAfterPolls]  status-query reads of an execution before it may reach its final status, default 2
 * @property {number} [actionCompleteAfterMs]  time after an execution started before it may reach its final status, default 0
 * @property {'listed' | 'unlisted'} [actionWaitingStates]  spelling of the action tables' not-yet-final statuses: 'listed' (pending,
 *                                             in_progress, waiting) or 'unlisted' (waiting_for_device, executing, waiting_for_event, targeted), default 'listed'
 * @property {'short' | 'qualified'} [actionColumnNames]  status queries name the tables' own fields short (status) or fully qualified
 *                                             (remote_action.execution.status), default 'short'
 * @property {number} [port]                   default 0 (ephemeral)
 * @property {string} [host]                   default 127.0.0.1
 * @property {number} [maxRecordedRequests]    keep only the latest N requests, default Infinity
 * @property {{ key: string | Buffer, cert: string | Buffer }} [tls]  serve HTTPS with this key and
 *                                             certificate (test-only, e.g. self-signed); baseUrl is then https://
 * @property {number} [maxDevicesPerDeletion]  Data management: devices per deletion request, default 100
 * @property {boolean} [dataManagementEnabled] Data management: false answers 403 FEATURE_NOT_ENABLED, default true
 * @property {boolean} [emptyTenant]           Data management: true answers 400 EMPTY_TENANT, default false
 * @property {'uid' | 'collectorUid'} [deletionUidField]  which device identifier a deletion's `uid` is, default 'uid'
 * @property {'SCHEDULED' | 'FAILED'} [deletionUnknownDevice]  status of a well-formed uid no device has, default 'SCHEDULED'
 * @property {'ignored' | 'FAILED'} [deletionNameMismatch]  a known uid with another name, default 'ignored'
 * @property {'INVALID' | '422'} [deletionMalformedUid]  a malformed uid: per-device INVALID (default) or the request's 422
 * @property {'request' | 'reversed'} [deletionAnswerOrder]  order of the per-device answer, default 'request'
 * @property {boolean} [sparkEnabled]          Spark: false answers 403, default true
 * @property {200 | 204} [sparkSuccessStatus]  Spark: status of an accepted handoff, default 204
 * @property {'message' | 'empty'} [sparkBadRequestBody]  Spark: body of a 400, default `{ message }`
 */

const DEFAULT_CLIENT = Object.freeze({
	clientId: 'nx-client',
	clientSecret: 'nx-secret-value',
	permissions: /** @type {import('./tokens').Permission[]} */ (['nql', 'enrichment', 'remoteActions', 'workflows', 'campaigns', 'dataManagement', 'spark']),
});

/**
 * @param {ServerOptions} [input]
 */
async function startNexthinkServer(input = {}) {
	const options = {
		clients: input.clients ?? [{ ...DEFAULT_CLIENT, permissions: [...DEFAULT_CLIENT.permissions] }],
		tokenLifetimeSeconds: 900,
		urlLifetimeSeconds: 900,
		statusDailyLimit: Infinity,
		retryAfterFormat: /** @type {'seconds' | 'http-date'} */ ('seconds'),
		retryAfterSeconds: /** @type {number | undefined} */ (undefined),
		executeRowLimit: 1000,
		csvLineEnding: /** @type {'\n' | '\r\n'} */ ('\n'),
		queryColumnNames: /** @type {'qualified' | 'short'} */ ('qualified'),
		emptyResult: /** @type {'header' | 'no-header' | 'zero-bytes'} */ ('header'),
		instanceUtcOffsetMinutes: 60,
		demo: false,
		slowExportMs: 30000,
		actionCompleteAfterPolls: 2,
		actionCompleteAfterMs: 0,
		actionWaitingStates: /** @type {'listed' | 'unlisted'} */ ('listed'),
		actionColumnNames: /** @type {'short' | 'qualified'} */ ('short'),
		port: 0,
		host: '127.0.0.1',
		maxRecordedRequests: Infinity,
		...DATA_MANAGEMENT_OPTION_DEFAULTS,
		...SPARK_OPTION_DEFAULTS,
		...stripUndefined(input),
	};
	if (options.clients.length === 0) throw new Error('startNexthinkServer: at least one client is required');

	const clock = new Clock();
	const now = () => clock.now();
	const faults = new FaultRegistry();
	/** @type {RecordedRequest[]} */
	const requests = [];
	const record = (/** @type {RecordedRequest} */ request) => {
		requests.push(request);
		if (requests.length > options.maxRecordedRequests) requests.splice(0, requests.length - options.maxRecordedRequests);
	};

	const httpServer = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }) : http.createServer();
	// Idle keep-alive connections stay open for 10 minutes (Node's default is 5 s). Tests run the
	// server and its clients in one process: when that process is busy past the 5 s, the client's
	// and the server's idle timers fall due together, the client may pick the connection for its next
	// request just before the server closes it, and the request fails with ECONNRESET. A client
	// reuses a connection only within the timeout the server announces, so no client sees a closed
	// one unless it idles for ten minutes. `close()` ends every connection anyway.
	httpServer.keepAliveTimeout = 10 * 60 * 1000;
	await new Promise((resolve, reject) => {
		httpServer.once('error', reject);
		httpServer.listen(options.port, options.host, () => resolve(undefined));
	});
	const address = /** @type {import('node:net').AddressInfo} */ (httpServer.address());
	const baseUrl = `${options.tls ? 'https' : 'http'}://${options.host}:${address.port}`;

	const tokens = new TokenIssuer({
		clients: options.clients,
		now,
		lifetimeSeconds: () => options.tokenLifetimeSeconds,
		issuer: `${baseUrl}/oauth2/default`,
	});

	const queries = new QueryRegistry();
	/** @type {Map<string, import('./exports').ExportRecord>} */
	const exports = new Map();
	const quota = new StatusQuota({
		now,
		limit: () => options.statusDailyLimit,
		retryAfterSeconds: () => options.retryAfterSeconds,
	});
	const signer = new UrlSigner();
	const inventory = new Inventory();
	loadDefaultInventory(inventory);
	registerInventoryQueries(queries, inventory);
	const actions = new ActionStore({ inventory, now, options });
	loadDefaultActions(actions);
	if (options.demo) loadDemoEstate(inventory, queries, options, actions);
	const exportDeps = { queries, exports, quota, signer, now, baseUrl: () => baseUrl, options };
	const deletions = new DeviceDeletions();
	const spark = new SparkHandoffs();

	/** @type {import('./router').Route[]} */
	const routes = [
		{ methods: ['POST'], pattern: /^\/oauth2\/default\/v1\/token$/, auth: 'none', handle: (ctx) => handleOAuthToken(ctx, tokens) },
		{ methods: ['POST'], pattern: /^\/api\/v1\/token$/, auth: 'none', handle: (ctx) => handleLegacyToken(ctx, tokens) },
		{
			methods: ['GET', 'POST'],
			pattern: /^\/api\/v1\/nql\/export$/,
			auth: 'bearer',
			permission: 'nql',
			handle: (ctx) => handleExportStart(ctx, exportDeps),
		},
		{
			methods: ['GET'],
			pattern: /^\/api\/v1\/nql\/status\/([^/]+)$/,
			auth: 'bearer',
			permission: 'nql',
			handle: (ctx) => handleStatus(ctx, exportDeps),
		},
		{
			methods: ['POST'],
			pattern: /^\/api\/v1\/nql\/execute$/,
			auth: 'bearer',
			permission: 'nql',
			handle: (ctx) => handleExecute(ctx, { queries, now, options }, 1),
		},
		{
			methods: ['POST'],
			pattern: /^\/api\/v2\/nql\/execute$/,
			auth: 'bearer',
			permission: 'nql',
			handle: (ctx) => handleExecute(ctx, { queries, now, options }, 2),
		},
		{
			methods: ['POST'],
			pattern: /^\/api\/v1\/enrichment\/data\/fields$/,
			auth: 'bearer',
			permission: 'enrichment',
			handle: (ctx) => handleEnrichment(ctx, inventory),
		},
		{
			methods: ['POST'],
			pattern: /^\/api\/v1\/act\/execute$/,
			auth: 'bearer',
			permission: 'remoteActions',
			handle: (ctx) => handleExecuteRemoteAction(ctx, actions),
		},
		{
			methods: ['GET'],
			pattern: /^\/api\/v1\/act\/remote-action$/,
			auth: 'bearer',
			permission: 'remoteActions',
			handle: (ctx) => handleListRemoteActions(ctx, actions),
		},
		{
			methods: ['GET'],
			pattern: /^\/api\/v1\/act\/remote-action\/details$/,
			auth: 'bearer',
			permission: 'remoteActions',
			handle: (ctx) => handleRemoteActionDetails(ctx, actions),
		},
		{
			methods: ['POST'],
			pattern: /^\/api\/v1\/workflows\/execute$/,
			auth: 'bearer',
			permission: 'workflows',
			handle: (ctx) => handleExecuteWorkflow(ctx, actions, 1),
		},
		{
			methods: ['POST'],
			pattern: /^\/api\/v2\/workflows\/execute$/,
			auth: 'bearer',
			permission: 'workflows',
			handle: (ctx) => handleExecuteWorkflow(ctx, actions, 2),
		},
		{
			methods: ['POST'],
			pattern: /^\/api\/v1\/workflows\/workflows\/([^/]+)\/execution\/([^/]+)\/trigger$/,
			auth: 'bearer',
			permission: 'workflows',
			handle: (ctx) => handleResumeWorkflow(ctx, actions),
		},
		{
			methods: ['GET'],
			pattern: /^\/api\/v1\/workflows$/,
			auth: 'bearer',
			permission: 'workflows',
			handle: (ctx) => handleListWorkflows(ctx, actions),
		},
		{
			methods: ['GET'],
			pattern: /^\/api\/v1\/workflows\/details$/,
			auth: 'bearer',
			permission: 'workflows',
			handle: (ctx) => handleWorkflowDetails(ctx, actions),
		},
		{
			methods: ['POST'],
			pattern: /^\/api\/v1\/euf\/campaign\/trigger$/,
			auth: 'bearer',
			permission: 'campaigns',
			unauthorizedBody: CAMPAIGN_UNAUTHORIZED_BODY,
			handle: (ctx) => handleTriggerCampaign(ctx, actions),
		},
		{
			methods: ['POST'],
			pattern: new RegExp(`^${DELETIONS_PATH}$`),
			auth: 'bearer',
			permission: 'dataManagement',
			handle: (ctx) => handleDeviceDeletions(ctx, { deletions, inventory, options, now }),
		},
		{
			methods: ['POST'],
			pattern: new RegExp(`^${HANDOFF_PATH}$`),
			auth: 'bearer',
			permission: 'spark',
			handle: (ctx) => handleHandoff(ctx, { spark, inventory, options, now }),
		},
		{
			methods: ['GET'],
			pattern: /^\/files\/([^/]+)$/,
			auth: 'none',
			handle: (ctx) => handleFileDownload(ctx, { exports, signer, now, options }),
		},
	];

	httpServer.on('request', createRequestListener({ routes, tokens, faults, record, now }));

	return {
		options,
		baseUrl,
		tokenUrl: `${baseUrl}/oauth2/default/v1/token`,
		clientId: options.clients[0].clientId,
		clientSecret: options.clients[0].clientSecret,
		requests,
		clearRequests() {
			requests.length = 0;
		},
		expireAllTokens() {
			tokens.expireAll();
		},
		exports,
		inventory,
		/** Remote actions, workflows, campaigns, and every action request with its executions. */
		actions,
		/** Device deletions (Data management): `requests` (every accepted request), `scheduled`, `failing` (uids answered FAILED). */
		deletions,
		/** Spark handoffs: `handoffs` (every accepted one), `users` (UPNs Spark knows besides the inventory's). */
		spark,
		/** @param {import('./actions').RemoteActionSpec} spec */
		addRemoteAction(spec) {
			return actions.addRemoteAction(spec);
		},
		/** @param {import('./actions').WorkflowSpec} spec */
		addWorkflow(spec) {
			return actions.addWorkflow(spec);
		},
		/** @param {import('./actions').CampaignSpec} spec */
		addCampaign(spec) {
			return actions.addCampaign(spec);
		},
		/**
		 * Registers a stored NQL query over `remote_action.executions`, `workflow.executions` or
		 * `campaign.responses` that takes the request ID (`$request_id`) and lists its per-target rows:
		 * by `table`, or by its NQL text alone (`{ id, nql }`, e.g. `STATUS_QUERY_NQL` of actions.js).
		 * @param {import('./actions').StatusQuerySpec} spec
		 */
		addActionStatusQuery(spec) {
			return addStatusQuery(queries, actions, spec);
		},
		/** @param {import('./queries').QuerySpec} spec */
		addQuery(spec) {
			return queries.add(spec);
		},
		/**
		 * The exact uncompressed CSV text of an export's file (builds it in memory: for small exports).
		 * @param {string} exportId
		 */
		csvFor(exportId) {
			const record = exports.get(exportId);
			if (!record) throw new Error(`csvFor: no export ${exportId}`);
			if (options.emptyResult !== 'header' && !hasMoreThan(exportRows(record), 0)) return '';
			return csvText(answerHeader(record.query.header, options.queryColumnNames), exportRows(record), options.csvLineEnding);
		},
		resetStatusQuota() {
			quota.reset();
		},
		/** @param {import('./faults').FaultSpec} spec */
		injectFault(spec) {
			return faults.add(spec);
		},
		clearFaults() {
			faults.clear();
		},
		/** Moves the server clock forward (token, URL and quota expiry, time-based completion). @param {number} ms */
		advanceClock(ms) {
			clock.advance(ms);
		},
		/** @returns {Promise<void>} */
		close() {
			return new Promise((resolve, reject) => {
				httpServer.close((error) => (error ? reject(error) : resolve()));
				httpServer.closeAllConnections();
			});
		},
	};
}

/**
 * @template {object} T
 * @param {T} object
 * @returns {Partial<T>}
 */
function stripUndefined(object) {
	return /** @type {Partial<T>} */ (Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)));
}

module.exports = { startNexthinkServer, generateDeviceRows, DEVICE_COLUMNS, ACTION_TABLES, ACTION_STATUSES, statusQueryNql };
