// @ts-check
'use strict';

const http = require('node:http');

const { readBody, sendJson, sendText } = require('./http');

/**
 * A second local server, on its own port (so another origin than the Nexthink server), that records
 * everything it receives: the target of the `redirectTo` fault. Tests assert that no credential and
 * no request body ever reached it.
 *
 * It answers every request with what the real endpoint of that path would answer on success (a
 * token, an export ID, a COMPLETED status with a results URL, execute rows, an enrichment
 * `success`, a CSV file, an action request id `RECORDED_REQUEST_ID`), so a client that followed a redirect here would believe the work was done:
 * the tests then see rows or `applied` items, not merely an error.
 *
 * @typedef {object} RecordedByRecorder
 * @property {string} method
 * @property {string} url   path and query, as received
 * @property {import('node:http').IncomingHttpHeaders} headers  names lowercased
 * @property {string} body
 */

const RECORDED_COLUMNS = ['device.name'];
const RECORDED_ROW = 'ROW-FROM-THE-RECORDING-SERVER';
/** Request id the recorder answers to every action trigger (remote action, workflow, campaign). */
const RECORDED_REQUEST_ID = '00000000-0000-4000-8000-00000000dead';

/**
 * @param {{ host?: string }} [options]
 */
async function startRecordingServer(options = {}) {
	const host = options.host ?? '127.0.0.1';
	/** @type {RecordedByRecorder[]} */
	const requests = [];
	let baseUrl = '';
	const server = http.createServer(async (req, res) => {
		const body = await readBody(req).catch(() => '');
		requests.push({ method: (req.method ?? 'GET').toUpperCase(), url: req.url ?? '/', headers: { ...req.headers }, body });
		const path = new URL(req.url ?? '/', 'http://recorder').pathname;
		if (/\/token$/.test(path)) {
			sendJson(res, 200, { token_type: 'Bearer', expires_in: 900, access_token: 'token-from-the-recording-server', scope: 'service:integration' });
		} else if (path === '/api/v1/nql/export') {
			sendJson(res, 200, { exportId: 'export-from-the-recording-server' });
		} else if (path.startsWith('/api/v1/nql/status/')) {
			sendJson(res, 200, { status: 'COMPLETED', resultsFileUrl: `${baseUrl}/files/recorded.csv`, errorDescription: null });
		} else if (/^\/api\/v[12]\/nql\/execute$/.test(path)) {
			if (String(req.headers.accept ?? '').includes('text/csv')) {
				sendText(res, 200, 'text/csv', `${RECORDED_COLUMNS.join(',')}\n${RECORDED_ROW}\n`);
			} else {
				sendJson(res, 200, {
					queryId: '#recorded',
					executedQuery: 'devices',
					rows: 1,
					executionDateTime: '2026-01-01T00:00:00',
					data: [{ [RECORDED_COLUMNS[0]]: RECORDED_ROW }],
				});
			}
		} else if (path === '/api/v1/enrichment/data/fields') {
			sendJson(res, 200, { status: 'success' });
		} else if (path === '/api/v1/act/execute') {
			sendJson(res, 200, { requestId: RECORDED_REQUEST_ID, expiresInMinutes: 60 });
		} else if (/^\/api\/v[12]\/workflows\/execute$/.test(path)) {
			sendJson(res, 200, { requestUuid: RECORDED_REQUEST_ID, executionsUuids: [RECORDED_REQUEST_ID] });
		} else if (/^\/api\/v1\/workflows\/workflows\/[^/]+\/execution\/[^/]+\/trigger$/.test(path)) {
			sendJson(res, 200, [{ requestUuid: RECORDED_REQUEST_ID }]);
		} else if (path === '/api/v1/euf/campaign/trigger') {
			let sids = [];
			try {
				sids = JSON.parse(body).userSid ?? [];
			} catch {
				// an unreadable body still gets a believable answer
			}
			sendJson(res, 200, { requests: (Array.isArray(sids) ? sids : []).map((userSid) => ({ userSid, requestId: RECORDED_REQUEST_ID })) });
		} else if (path.startsWith('/files/')) {
			sendText(res, 200, 'text/csv', `${RECORDED_COLUMNS.join(',')}\n${RECORDED_ROW}\n`);
		} else {
			sendJson(res, 200, {});
		}
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, host, () => resolve(undefined));
	});
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	baseUrl = `http://${host}:${address.port}`;
	return {
		baseUrl,
		requests,
		clearRequests: () => {
			requests.length = 0;
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve(undefined));
			}),
	};
}

module.exports = { startRecordingServer, RECORDED_ROW, RECORDED_REQUEST_ID };
