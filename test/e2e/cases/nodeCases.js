// @ts-check
'use strict';

/**
 * The behaviour cases: each is a workflow plus what every node of it must output, judged against
 * the local server's own records (its CSV files, its request log, its inventory).
 *
 * A case: `{ id, title, queue?, prepare?(server), during?(ctx), workflow(trigger), check(run, ctx) }`.
 * `workflow('manual')` is run in a running n8n as the editor runs it (its REST API, mode `manual`);
 * cases marked `queue` are also built with `workflow('webhook')` and run on a queue-mode worker,
 * where the same `check` applies.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { csvRecords } = require('../../helpers/csvReference');
const { assertSucceeded, itemsOf, jsonOf, runCount } = require('../lib/runData');
const { apiRequest, fetchToken } = require('../../server/client');
const {
	actionsNode,
	buildWorkflow,
	codeItemsNode,
	enrichmentNode,
	exportNode,
	ifEqualsNode,
	noOpNode,
	triggerNode,
	waitNode,
	WRONG_SECRET,
	WRONG_SECRET_CREDENTIAL,
} = require('../lib/workflow');

/**
 * What a case's check gets besides the run.
 * @typedef {Awaited<ReturnType<typeof import('../../server').startNexthinkServer>>} NexthinkServer
 * @typedef {object} CaseContext
 * @property {NexthinkServer} server the local Nexthink server (in this process)
 * @property {Set<string>} exportsBefore  export ids that existed before the case ran
 * @property {string} userFolder     the n8n user folder (binary data in filesystem mode lives there)
 * @property {any} [during]          what the case's `during` hook resolved to
 */

/** Quick polls: the server completes these exports within a few polls. */
const FAST_POLLING = { firstPollSeconds: 0.2, pollGrowthFactor: 1.5, maxPollIntervalSeconds: 1 };

/** Webhook path of a case in queue mode. @param {string} id */
const pathOf = (id) => id.toLowerCase();

/**
 * The one export this case started on the server.
 * @param {CaseContext} ctx
 */
function newExport(ctx) {
	const created = [...ctx.server.exports.values()].filter((entry) => !ctx.exportsBefore.has(entry.id));
	assert.equal(created.length, 1, `expected one new export on the server, got ${created.length}`);
	return created[0];
}

/**
 * Asserts that row items equal the server's CSV file of that export, row for row and key for key.
 * @param {CaseContext} ctx @param {any[]} rows @param {{ queryId: string, compression: string }} expected
 */
function assertRowsEqualServerCsv(ctx, rows, expected) {
	const entry = newExport(ctx);
	assert.equal(entry.queryId, expected.queryId);
	assert.equal(entry.compression, expected.compression);
	const csv = ctx.server.csvFor(entry.id);
	const records = csvRecords(csv);
	assert.ok(records.length > 0, 'the server file has no rows');
	assert.equal(rows.length, records.length, 'row count differs from the server file');
	assert.deepEqual(rows, records);
	return { entry, csv, records };
}

/**
 * Reads a binary property's bytes from where n8n keeps them: inline (base64), on disk
 * (filesystem mode) or, in database mode, not readable here (undefined).
 * @param {CaseContext} ctx @param {any} binary
 */
function binaryBytes(ctx, binary) {
	if (typeof binary.data === 'string' && binary.data !== 'filesystem-v2' && !binary.id) return Buffer.from(binary.data, 'base64');
	if (typeof binary.id === 'string' && binary.id.startsWith('filesystem')) {
		return fs.readFileSync(path.join(ctx.userFolder, '.n8n', 'storage', binary.id.slice(binary.id.indexOf(':') + 1)));
	}
	return undefined;
}

/** @typedef {{ id: string, title: string, queue?: boolean, prepare?: (server: NexthinkServer) => void, during?: (server: NexthinkServer) => { result: Promise<any>, stop: () => void }, workflow: (trigger: 'manual' | 'webhook') => any, check: (run: any, ctx: CaseContext) => void | Promise<void> }} E2eCase */

/** @type {E2eCase[]} */
const nodeCases = [
	{
		id: 'nxE2eExportGzip1',
		title: 'Export, gzip: every row equals the server CSV; metadata item last',
		queue: true,
		workflow: (trigger) =>
			buildWorkflow({
				id: 'nxE2eExportGzip1',
				name: 'e2e export gzip',
				nodes: [
					triggerNode(trigger, pathOf('nxE2eExportGzip1')),
					exportNode('Export Devices', {
						operation: 'export',
						queryId: '#all_devices',
						compression: 'GZIP',
						options: { maxWaitSeconds: 120, includeMetadata: 'separateItem', output: 'rowsAndFile' },
						advancedOptions: FAST_POLLING,
					}),
				],
				connections: [['Start', 'Export Devices']],
			}),
		check(run, ctx) {
			assertSucceeded(run);
			const items = itemsOf(run, 'Export Devices');
			const metadata = items[items.length - 1].json;
			const { entry, csv, records } = assertRowsEqualServerCsv(
				ctx,
				items.slice(0, -1).map((item) => item.json),
				{ queryId: '#all_devices', compression: 'GZIP' },
			);
			assert.equal(records.length, 2500);
			assert.deepEqual(metadata, { exportId: entry.id, queryId: '#all_devices', rowCount: 2500, truncated: false, moreRowsAvailable: false });
			const file = items[0].binary?.data;
			assert.ok(file, 'the first row carries the results file');
			assert.equal(file.fileName, `${entry.id}.csv.gz`);
			assert.equal(file.mimeType, 'application/gzip');
			const bytes = binaryBytes(ctx, file);
			if (bytes !== undefined) assert.equal(require('node:zlib').gunzipSync(bytes).toString('utf8'), csv);
			for (const item of items) assert.deepEqual(item.pairedItem, { item: 0 });
		},
	},
	{
		id: 'nxE2eExportZstd1',
		title: 'Export, zstd, query parameters as JSON: rows equal the server CSV',
		workflow: (trigger) =>
			buildWorkflow({
				id: 'nxE2eExportZstd1',
				name: 'e2e export zstd',
				nodes: [
					triggerNode(trigger, pathOf('nxE2eExportZstd1')),
					exportNode('Export Windows 11', {
						operation: 'export',
						queryId: 'devices_by_os',
						parametersInput: 'json',
						queryParametersJson: '{"os": "Windows 11*"}',
						compression: 'ZSTD',
						options: { maxWaitSeconds: 120 }, advancedOptions: FAST_POLLING,
					}),
				],
				connections: [['Start', 'Export Windows 11']],
			}),
		check(run, ctx) {
			assertSucceeded(run);
			const rows = jsonOf(run, 'Export Windows 11');
			const { entry } = assertRowsEqualServerCsv(ctx, rows, { queryId: '#devices_by_os', compression: 'ZSTD' });
			assert.deepEqual(entry.parameters, { os: 'Windows 11*' });
			for (const row of rows) assert.match(row['device.operating_system.name'], /^windows 11/i);
		},
	},
	{
		id: 'nxE2eExportNone1',
		title: 'Export, no compression, parameters as fields: rows equal the server CSV; file attached',
		workflow: (trigger) =>
			buildWorkflow({
				id: 'nxE2eExportNone1',
				name: 'e2e export none',
				nodes: [
					triggerNode(trigger, pathOf('nxE2eExportNone1')),
					exportNode('Export macOS', {
						operation: 'export',
						queryId: '#devices_by_os',
						queryParameters: { parameter: [{ name: 'os', value: 'macOS*' }] },
						compression: 'NONE',
						options: { maxWaitSeconds: 120, output: 'rowsAndFile', binaryPropertyName: 'csv' },
						advancedOptions: FAST_POLLING,
					}),
				],
				connections: [['Start', 'Export macOS']],
			}),
		check(run, ctx) {
			assertSucceeded(run);
			const items = itemsOf(run, 'Export macOS');
			const { entry, csv } = assertRowsEqualServerCsv(ctx, items.map((item) => item.json), { queryId: '#devices_by_os', compression: 'NONE' });
			const file = items[0].binary?.csv;
			assert.ok(file, 'the file is in the "csv" binary field');
			assert.equal(file.fileName, `${entry.id}.csv`);
			assert.equal(file.mimeType, 'text/csv');
			const bytes = binaryBytes(ctx, file);
			if (bytes !== undefined) assert.equal(bytes.toString('utf8'), csv);
			assert.ok(items.slice(1).every((item) => item.binary === undefined), 'only the first row carries the file');
		},
	},
	{
		id: 'nxE2eTruncated01',
		title: 'Export answered 206: the kept rows come out, marked truncated',
		prepare(server) {
			server.addQuery({
				id: '#e2e_truncated',
				header: ['device.name', 'device.uid', 'device.#tier'],
				rows: () => Array.from({ length: 60 }, (_, i) => [`TRUNC-${String(i).padStart(3, '0')}`, `t-${i}`, i % 3 === 0 ? '' : 'gold, "a"']),
				truncateAt: 25,
			});
		},
		workflow: (trigger) =>
			buildWorkflow({
				id: 'nxE2eTruncated01',
				name: 'e2e export truncated',
				nodes: [
					triggerNode(trigger, pathOf('nxE2eTruncated01')),
					exportNode('Export Truncated', {
						operation: 'export',
						queryId: '#e2e_truncated',
						compression: 'GZIP',
						options: { maxWaitSeconds: 120, includeMetadata: 'separateItem' },
						advancedOptions: FAST_POLLING,
					}),
				],
				connections: [['Start', 'Export Truncated']],
			}),
		check(run, ctx) {
			assertSucceeded(run);
			const items = jsonOf(run, 'Export Truncated');
			const metadata = items.pop();
			const { entry, records } = assertRowsEqualServerCsv(ctx, items, { queryId: '#e2e_truncated', compression: 'GZIP' });
			assert.equal(records.length, 25);
			assert.equal(entry.truncated, true, 'the server truncated the export');
			assert.equal(metadata.truncated, true);
			assert.equal(metadata.rowCount, 25);
		},
	},
	{
		id: 'nxE2eErrorCont01',
		title: 'Export that ends in ERROR, continue on fail: an error item flows on',
		prepare(server) {
			server.addQuery({
				id: '#e2e_failing',
				header: ['device.name'],
				rows: [],
				fail: { errorDescription: 'NQL execution exceeded the time limit' },
			});
		},
		workflow: (trigger) =>
			buildWorkflow({
				id: 'nxE2eErrorCont01',
				name: 'e2e export error continue',
				nodes: [
					triggerNode(trigger, pathOf('nxE2eErrorCont01')),
					exportNode(
						'Export Failing',
						{ operation: 'export', queryId: '#e2e_failing', compression: 'GZIP', options: { maxWaitSeconds: 120 }, advancedOptions: FAST_POLLING },
						{ onError: 'continueRegularOutput' },
					),
					noOpNode('After Export'),
				],
				connections: [
					['Start', 'Export Failing'],
					['Export Failing', 'After Export'],
				],
			}),
		check(run, ctx) {
			assertSucceeded(run);
			const entry = newExport(ctx);
			assert.equal(entry.queryId, '#e2e_failing');
			const items = jsonOf(run, 'Export Failing');
			assert.equal(items.length, 1);
			assert.match(String(items[0].error), /NQL execution exceeded the time limit/);
			assert.deepEqual(jsonOf(run, 'After Export'), items);
		},
	},
	{
		id: 'nxE2eRenewal001',
		title: 'Export whose token expires mid-wait: renewed once, rows intact',
		prepare(server) {
			server.addQuery({
				id: '#e2e_renewal',
				header: ['device.name', 'device.uid'],
				rows: () => Array.from({ length: 40 }, (_, i) => [`RENEW-${i}`, `r-${i}`]),
				completeAfterPolls: 3,
			});
		},
		during(server) {
			// Expire every token right after the first status poll, so the next poll meets a 401.
			let stopped = false;
			const result = (async () => {
				while (!stopped) {
					const poll = server.requests.find((request) => request.path.startsWith('/api/v1/nql/status/'));
					if (poll) {
						server.expireAllTokens();
						return { expiredAfterRequest: server.requests.indexOf(poll), oldAuthorization: poll.headers.authorization };
					}
					await new Promise((resolve) => setTimeout(resolve, 10));
				}
				return undefined;
			})();
			return { result, stop: () => (stopped = true) };
		},
		workflow: (trigger) =>
			buildWorkflow({
				id: 'nxE2eRenewal001',
				name: 'e2e export token renewal',
				nodes: [
					triggerNode(trigger, pathOf('nxE2eRenewal001')),
					exportNode('Export Renewal', {
						operation: 'export',
						queryId: '#e2e_renewal',
						compression: 'ZSTD',
						options: { maxWaitSeconds: 120 },
						advancedOptions: { firstPollSeconds: 1, pollGrowthFactor: 1, maxPollIntervalSeconds: 1 },
					}),
				],
				connections: [['Start', 'Export Renewal']],
			}),
		check(run, ctx) {
			assertSucceeded(run);
			assertRowsEqualServerCsv(ctx, jsonOf(run, 'Export Renewal'), { queryId: '#e2e_renewal', compression: 'ZSTD' });
			assert.ok(ctx.during, 'the tokens were expired during the wait');
			const after = ctx.server.requests.slice(ctx.during.expiredAfterRequest + 1);
			const statusPolls = after.filter((request) => request.path.startsWith('/api/v1/nql/status/'));
			const tokenRequests = after.filter((request) => request.path === '/oauth2/default/v1/token');
			assert.equal(tokenRequests.length, 1, 'exactly one new token after the expiry');
			assert.equal(statusPolls[0].headers.authorization, ctx.during.oldAuthorization, 'the next poll still used the expired token');
			const renewedPolls = statusPolls.filter((request) => request.headers.authorization !== ctx.during.oldAuthorization);
			assert.ok(renewedPolls.length >= 1, 'later polls carry the new token');
			assert.ok(after.indexOf(tokenRequests[0]) < after.indexOf(renewedPolls[0]));
		},
	},
	{
		id: 'nxE2eWaitLoop001',
		title: 'Start Export, then Wait / Get Status / IF loop, then Download Results',
		prepare(server) {
			server.addQuery({
				id: '#e2e_loop',
				header: ['user.name', 'user.ad.department'],
				rows: () => Array.from({ length: 30 }, (_, i) => [`user${i}@example.com`, i % 2 ? 'Finance' : 'IT, Ops']),
				completeAfterPolls: 2,
			});
		},
		workflow: (trigger) =>
			buildWorkflow({
				id: 'nxE2eWaitLoop001',
				name: 'e2e wait loop',
				nodes: [
					triggerNode(trigger, pathOf('nxE2eWaitLoop001')),
					exportNode('Start Export', { operation: 'startExport', queryId: '#e2e_loop', compression: 'ZSTD' }),
					waitNode('Wait', 1),
					exportNode('Get Status', { operation: 'getStatus', exportId: '={{ $json.exportId }}' }),
					ifEqualsNode('Completed?', '={{ $json.status }}', 'COMPLETED'),
					exportNode('Download Results', { operation: 'downloadResults', exportId: '={{ $json.exportId }}', options: { includeMetadata: 'eachRow' } }),
				],
				connections: [
					['Start', 'Start Export'],
					['Start Export', 'Wait'],
					['Wait', 'Get Status'],
					['Get Status', 'Completed?'],
					['Completed?', 'Download Results', 0],
					['Completed?', 'Wait', 1],
				],
			}),
		check(run, ctx) {
			assertSucceeded(run);
			const entry = newExport(ctx);
			assert.deepEqual(jsonOf(run, 'Start Export'), [{ exportId: entry.id, queryId: '#e2e_loop', compression: 'ZSTD' }]);
			assert.equal(runCount(run, 'Get Status'), 3);
			const statuses = [0, 1, 2].map((runIndex) => jsonOf(run, 'Get Status', { runIndex })[0]);
			assert.deepEqual(statuses.map((status) => status.status), ['SUBMITTED', 'IN_PROGRESS', 'COMPLETED']);
			for (const status of statuses) assert.equal(status.exportId, entry.id);
			// Get Status passes the query ID on from Start Export's item, round after round
			for (const status of statuses) assert.equal(status.queryId, '#e2e_loop');
			assert.match(statuses[2].resultsFileUrl, /\/files\/.+\.csv\.zst\?expires=\d+&signature=[0-9a-f]+$/);
			assert.equal(runCount(run, 'Wait'), 3);
			const rows = jsonOf(run, 'Download Results');
			const records = csvRecords(ctx.server.csvFor(entry.id));
			for (const row of rows) assert.equal(row.nexthinkExport.exportId, entry.id);
			for (const row of rows) assert.equal(row.nexthinkExport.queryId, '#e2e_loop');
			assert.deepEqual(rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => key !== 'nexthinkExport'))), records);
		},
	},
	{
		id: 'nxE2eSwitchText1',
		title: 'Preview and Validate Only given by an expression as text ("true", " TRUE "): nothing is deleted or written',
		workflow: (trigger) =>
			buildWorkflow({
				id: 'nxE2eSwitchText1',
				name: 'e2e switches as text',
				nodes: [
					triggerNode(trigger, pathOf('nxE2eSwitchText1')),
					// what a CSV column, a Set node or $vars gives: text, never the boolean true
					codeItemsNode('Dry Run Settings', [{ uid: '5c5ce04f-a8fa-416f-822b-0e0200000003', name: 'LT-ZRH-0000004', dryRun: 'true', validate: ' TRUE ' }]),
					actionsNode('Delete Devices', {
						resource: 'device',
						operation: 'delete',
						deviceUid: '={{ $json.uid }}',
						deviceName: '={{ $json.name }}',
						maxDevicesPerRun: 10,
						preview: '={{ $json.dryRun }}',
						options: {},
					}),
					enrichmentNode('Enrich Devices', {
						objectType: 'device',
						identifyBy: 'name',
						identificationValue: '={{ $json.name }}',
						mappingMode: 'defineBelow',
						deviceFields: { fieldValues: [{ field: 'customField', customFieldId: '#tier', value: 'retired' }] },
						domain: 'n8n-e2e',
						options: { validateOnly: '={{ $json.validate }}' },
					}),
				],
				connections: [
					['Start', 'Dry Run Settings'],
					['Dry Run Settings', 'Delete Devices'],
					['Dry Run Settings', 'Enrich Devices'],
				],
			}),
		check(run, ctx) {
			assertSucceeded(run);
			const [preview, ...more] = jsonOf(run, 'Delete Devices');
			assert.equal(more.length, 0, 'one preview item');
			assert.deepEqual(preview.nexthinkDeletionPreview.body, { devices: [{ uid: '5c5ce04f-a8fa-416f-822b-0e0200000003', name: 'LT-ZRH-0000004' }] });
			assert.deepEqual(jsonOf(run, 'Enrich Devices').map((item) => item.enrichment.status), ['valid']);
			const writes = ctx.server.requests.filter((request) => request.path.startsWith('/api/v1/data-management/') || request.path === '/api/v1/enrichment/data/fields');
			assert.equal(writes.length, 0, 'nothing was sent to Nexthink');
		},
	},
	{
		id: 'nxE2eEnrichPart1',
		title: 'Enrichment with a partial success: applied items on the main output, the failed one on the error output',
		queue: true,
		workflow: (trigger) =>
			buildWorkflow({
				id: 'nxE2eEnrichPart1',
				name: 'e2e enrichment partial',
				nodes: [
					triggerNode(trigger, pathOf('nxE2eEnrichPart1')),
					codeItemsNode('CMDB Rows', [
						{ hostname: 'LAPTOP-ZRH-001', tier: 'gold', team: 'Zürich Workplace' },
						{ hostname: 'NO-SUCH-DEVICE-42', tier: 'silver', team: 'Ghosts' },
						{ hostname: 'desktop-lis-001', tier: 'bronze', team: 'Lisboa, Alfama' },
					]),
					enrichmentNode(
						'Enrich Devices',
						{
							objectType: 'device',
							identifyBy: 'name',
							identificationValue: '={{ $json.hostname }}',
							mappingMode: 'defineBelow',
							deviceFields: {
								fieldValues: [
									{ field: 'customField', customFieldId: '#tier', value: '={{ $json.tier }}' },
									{ field: 'customField', customFieldId: 'owner_team', value: '={{ $json.team }}' },
								],
							},
							domain: 'n8n-e2e',
							options: {},
						},
						{ onError: 'continueErrorOutput' },
					),
					noOpNode('Applied'),
					noOpNode('Failed'),
				],
				connections: [
					['Start', 'CMDB Rows'],
					['CMDB Rows', 'Enrich Devices'],
					['Enrich Devices', 'Applied', 0],
					['Enrich Devices', 'Failed', 1],
				],
			}),
		check(run, ctx) {
			assertSucceeded(run);
			const applied = jsonOf(run, 'Enrich Devices', { output: 0 });
			const failed = jsonOf(run, 'Enrich Devices', { output: 1 });
			assert.deepEqual(applied.map((item) => [item.hostname, item.enrichment.status]), [
				['LAPTOP-ZRH-001', 'applied'],
				['desktop-lis-001', 'applied'],
			]);
			assert.equal(failed.length, 1);
			assert.equal(failed[0].hostname, 'NO-SUCH-DEVICE-42', 'the failed item keeps its input JSON');
			assert.deepEqual(failed[0].error.errors.map((/** @type {any} */ error) => error.code), ['OBJECT_NOT_FOUND']);
			assert.deepEqual(jsonOf(run, 'Applied'), applied);
			assert.deepEqual(jsonOf(run, 'Failed'), failed);
			const inventory = ctx.server.inventory;
			assert.equal(inventory.find('device/device/name', 'LAPTOP-ZRH-001')?.fields['device/device/#tier'], 'gold');
			assert.equal(inventory.find('device/device/name', 'DESKTOP-LIS-001')?.fields['device/device/#owner_team'], 'Lisboa, Alfama');
			const posts = ctx.server.requests.filter((request) => request.path === '/api/v1/enrichment/data/fields');
			assert.equal(posts.length, 1, 'one batch');
			const body = JSON.parse(posts[0].body);
			assert.equal(body.domain, 'n8n-e2e');
			assert.equal(body.enrichments.length, 3);
		},
	},
	{
		id: 'nxE2eWrongSecr01',
		title: 'Credential with a wrong secret: the run fails with an explanation, no API call, no secret shown',
		workflow: (trigger) =>
			buildWorkflow({
				id: 'nxE2eWrongSecr01',
				name: 'e2e wrong secret',
				nodes: [
					triggerNode(trigger, pathOf('nxE2eWrongSecr01')),
					exportNode(
						'Export With Wrong Secret',
						{ operation: 'export', queryId: '#all_devices', compression: 'GZIP', options: { maxWaitSeconds: 120 }, advancedOptions: FAST_POLLING },
						{ credentials: { nexthinkApi: { ...WRONG_SECRET_CREDENTIAL } } },
					),
				],
				connections: [['Start', 'Export With Wrong Secret']],
			}),
		check(run, ctx) {
			const error = run.data.resultData.error;
			assert.ok(error, 'the workflow failed');
			assert.equal(error.node?.name, 'Export With Wrong Secret');
			assert.match(`${error.message} ${error.description ?? ''}`, /client id|secret|credential/i);
			assert.ok(!JSON.stringify(run).includes(WRONG_SECRET), 'the secret appears nowhere in the run');
			assert.equal(ctx.server.requests.filter((request) => request.path.startsWith('/api/')).length, 0, 'no API call without a token');
			assert.ok(ctx.server.requests.some((request) => request.path === '/oauth2/default/v1/token'));
		},
	},
	{
		id: 'nxE2eExecQuery01',
		title: 'Execute Query: items equal the API answer',
		workflow: (trigger) =>
			buildWorkflow({
				id: 'nxE2eExecQuery01',
				name: 'e2e execute query',
				nodes: [
					triggerNode(trigger, pathOf('nxE2eExecQuery01')),
					exportNode('Execute Query', {
						operation: 'executeQuery',
						queryId: '#devices_by_os',
						queryParameters: { parameter: [{ name: 'os', value: 'Windows 10*' }] },
						options: { utcTimestamps: true },
					}),
				],
				connections: [['Start', 'Execute Query']],
			}),
		async check(run, ctx) {
			assertSucceeded(run);
			const token = await fetchToken(ctx.server);
			const response = await apiRequest(ctx.server, token, 'POST', '/api/v2/nql/execute', {
				json: { queryId: '#devices_by_os', parameters: { os: 'Windows 10*' } },
				headers: { 'x-utc-times': 'true' },
			});
			assert.equal(response.status, 200);
			const answer = /** @type {any} */ (await response.json());
			assert.ok(answer.data.length > 0);
			assert.deepEqual(jsonOf(run, 'Execute Query'), answer.data);
		},
	},
];

module.exports = { nodeCases, assertRowsEqualServerCsv, binaryBytes, newExport };
