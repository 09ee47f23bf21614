// @ts-check
'use strict';

/**
 * The Nexthink Trigger in a running n8n with an active workflow (the example
 * `new-unsupported-os-devices-trigger.json`, polled every 20 s): n8n runs the first poll while it
 * activates the workflow, which records the demo estate and starts no execution; the test then adds,
 * changes and removes devices on the server, and the next scheduled poll must start one execution
 * whose trigger output is the two new devices and whose notification is the new Windows 10 device.
 * Then a poll whose results file is a proxy's one-line HTML page must be a failed execution, the
 * next poll must report only the device added meanwhile, and the poll after it nothing.
 * It has an `n8n start` of its own, after the other server checks: the trigger's polls would mix
 * their requests into theirs (the credential test counts token exchanges and API calls).
 */

const assert = require('node:assert/strict');

const { RestSession, sleep } = require('../../../scripts/n8n-instance');
const { jsonOf, latestExecution } = require('../lib/runData');
const { OWNER } = require('./serverChecks');

/**
 * Polls run every 20 s (exampleCases.js); the first comes at activation. A failure-only bound, wide
 * for a busy machine.
 */
const POLL_WAIT_MS = 180_000;

/**
 * @param {{ session: import('../../../scripts/n8n-instance').RestSession, server: import('./nodeCases').NexthinkServer,
 *   n8nDir: string, workflowId: string, exportsBefore: Set<string> }} options
 */
async function checkActiveTrigger({ session, server, n8nDir, workflowId, exportsBefore }) {
	const s = /** @type {any} */ (server);
	const activationExport = () => [...s.exports.values()].find((entry) => !exportsBefore.has(entry.id) && entry.queryId === '#all_devices');
	const deadline = Date.now() + POLL_WAIT_MS;
	while (activationExport() === undefined) {
		if (Date.now() > deadline) throw new Error('the activation poll started no export of #all_devices');
		await sleep(250);
	}
	// The export took its rows when it started (the query's snapshot): what changes now is for the next poll.
	const devices = [...s.inventory.devices.values()].filter((device) => device.attributes['device.name'] !== undefined);
	const template = devices[0].attributes;
	const addDevice = (/** @type {string} */ name, /** @type {string} */ uid, /** @type {string} */ os) =>
		s.inventory.addDevice({
			name,
			uid,
			attributes: { ...template, 'device.name': name, 'device.uid': uid, 'device.operating_system.name': os },
		});
	const windows10 = addDevice('PC-E2E-W10', '00000000-0000-4000-8000-0000000e2e10', 'Windows 10 Enterprise 22H2');
	const windows11 = addDevice('PC-E2E-W11', '00000000-0000-4000-8000-0000000e2e11', 'Windows 11 Pro 23H2');
	devices[1].attributes['device.operating_system.name'] = 'Windows 10 Enterprise 22H2'; // changed: not output (Trigger On: Row Added)
	s.inventory.remove('device', devices[2].uid); // removed: not emitted either

	const { id, run } = await latestExecution(session, workflowId, n8nDir, 0, POLL_WAIT_MS);
	assert.equal(run.status, 'success', JSON.stringify(run.data.resultData.error ?? {}));
	const fromTrigger = jsonOf(run, 'New Devices');
	assert.deepEqual(
		fromTrigger.map((item) => [item.nexthinkTrigger.change, item['device.name'], item['device.uid']]).sort(),
		[
			['new', 'PC-E2E-W10', windows10.uid],
			['new', 'PC-E2E-W11', windows11.uid],
		],
	);
	const notified = jsonOf(run, 'Notify (Slack Stand-In)');
	assert.equal(notified.length, 1, JSON.stringify(notified));
	assert.equal(notified[0].deviceUid, windows10.uid);
	assert.match(notified[0].text, /New device \*PC-E2E-W10\* .* runs Windows 10 Enterprise 22H2, which is no longer supported/);
	const exportsOfQuery = [...s.exports.values()].filter((entry) => !exportsBefore.has(entry.id) && entry.queryId === '#all_devices');
	assert.ok(exportsOfQuery.length >= 2, `${exportsOfQuery.length} exports since n8n started`);

	// A poll whose results file is a proxy's one-line HTML page fails (a failed execution, the state
	// kept); the next poll reports the real change once: one new device, not every device removed and
	// then every device new.
	const windows10b = addDevice('PC-E2E-W10-B', '00000000-0000-4000-8000-0000000e2e12', 'Windows 10 Pro 22H2');
	const page = '<html><head><title>Proxy sign-in</title></head><body>Your session expired. Sign in again.</body></html>';
	s.injectFault({ path: /^\/files\//, status: 200, contentType: 'text/html', body: page });
	const failed = await latestExecution(session, workflowId, n8nDir, id, POLL_WAIT_MS);
	const failure = JSON.stringify(failed.run.data.resultData.error ?? {});
	assert.equal(failed.run.status, 'error', failure);
	assert.match(failure, /Key Column \\"device\.uid\\" is not among the columns of the results file of export .*<html><head><title>Proxy sign-in/);
	const recovered = await latestExecution(session, workflowId, n8nDir, failed.id, POLL_WAIT_MS);
	assert.equal(recovered.run.status, 'success', JSON.stringify(recovered.run.data.resultData.error ?? {}));
	assert.deepEqual(
		jsonOf(recovered.run, 'New Devices').map((item) => [item.nexthinkTrigger.change, item['device.name'], item['device.uid']]),
		[['new', 'PC-E2E-W10-B', windows10b.uid]],
	);
	assert.deepEqual(
		jsonOf(recovered.run, 'Notify (Slack Stand-In)').map((item) => item.deviceUid),
		[windows10b.uid],
	);
	// once: the next poll downloads its file and starts no execution
	const downloadsSoFar = s.requests.filter((request) => request.path.startsWith('/files/')).length;
	const waitUntil = Date.now() + POLL_WAIT_MS;
	while (s.requests.filter((request) => request.path.startsWith('/files/')).length <= downloadsSoFar) {
		if (Date.now() > waitUntil) throw new Error('no poll downloaded a results file after the recovery');
		await sleep(250);
	}
	// room for the poll to compare and for n8n to record an execution, had it emitted one
	await sleep(10_000);
	const later = await session.request('GET', `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
	const newer = (later.body.data.results ?? later.body.data).filter((execution) => Number(execution.id) > recovered.id);
	assert.deepEqual(newer, [], 'the poll after the recovery started an execution');
}

/**
 * Activates each example of `kind: 'active'`, starts n8n, runs the check, stops n8n.
 * @param {import('../lib/suite').Suite} suite
 * @param {import('../../../scripts/n8n-instance').N8nInstance} n8n
 * @param {import('./nodeCases').NexthinkServer} server
 * @param {{ label: string, examples: { id: string, title: string }[] }} options
 */
async function runActiveTriggerChecks(suite, n8n, server, { label, examples }) {
	if (examples.length === 0) return;
	const names = examples.map((example) => `${label} ${example.title}`);
	/** @type {Set<string>} */
	let exportsBefore = new Set();
	const session = await suite.setUp(`${label} trigger examples activated, n8n start`, names, async () => {
		// a database change, read when n8n starts
		for (const example of examples) await n8n.activate(example.id);
		// the first poll runs while n8n starts
		exportsBefore = new Set(/** @type {any} */ (server).exports.keys());
		await n8n.start();
		const rest = new RestSession(n8n.baseUrl);
		await rest.ownerSession(OWNER);
		return rest;
	});
	if (!session) return;
	for (const example of examples) {
		await suite.test(`${label} ${example.title}`, async () => {
			await checkActiveTrigger({ session, server, n8nDir: n8n.runtime.dir, workflowId: example.id, exportsBefore });
		});
	}
	await n8n.stop('main');
}

module.exports = { runActiveTriggerChecks };
