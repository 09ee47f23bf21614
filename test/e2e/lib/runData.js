// @ts-check
'use strict';

/**
 * Reads a finished execution: its data from the REST API (`data.resultData`).
 */

const assert = require('node:assert/strict');
const path = require('node:path');

const { sleep } = require('../../../scripts/n8n-instance');

/** @param {any} run @returns {Record<string, any[]>} */
function runDataOf(run) {
	return run?.data?.resultData?.runData ?? {};
}

/**
 * Fails unless the execution finished without a workflow error and without a node error.
 * @param {any} run
 */
function assertSucceeded(run) {
	const error = run?.data?.resultData?.error;
	assert.equal(error, undefined, `the workflow failed: ${error?.message} ${error?.description ?? ''} (node ${error?.node?.name})`);
	for (const [name, tasks] of Object.entries(runDataOf(run))) {
		for (const task of tasks) assert.equal(task.error, undefined, `node "${name}" failed: ${task.error?.message}`);
	}
}

/**
 * The items one node emitted on one output in one of its runs (a node in a loop runs several times).
 * @param {any} run @param {string} nodeName @param {{ output?: number, runIndex?: number }} [where]
 * @returns {{ json: any, binary?: Record<string, any>, pairedItem?: unknown }[]}
 */
function itemsOf(run, nodeName, where = {}) {
	const tasks = runDataOf(run)[nodeName];
	assert.ok(tasks, `node "${nodeName}" did not run; ran: ${Object.keys(runDataOf(run)).join(', ')}`);
	const task = tasks[where.runIndex ?? 0];
	assert.ok(task, `node "${nodeName}" has no run ${where.runIndex ?? 0}`);
	return task.data?.main?.[where.output ?? 0] ?? [];
}

/** @param {any} run @param {string} nodeName @param {{ output?: number, runIndex?: number }} [where] */
function jsonOf(run, nodeName, where) {
	return itemsOf(run, nodeName, where).map((item) => item.json);
}

/** How many times a node ran. @param {any} run @param {string} nodeName */
function runCount(run, nodeName) {
	return (runDataOf(run)[nodeName] ?? []).length;
}

/** Statuses of an execution that has not ended yet. */
const UNFINISHED = new Set(['new', 'running', 'waiting']);

/**
 * Reads one execution through the REST API, its data parsed (n8n stores it with `flatted`, which
 * it ships); undefined while it has not ended.
 *
 * An execution has ended when its status says so and its data holds what ran (at least the
 * trigger) or the error: n8n 1.x on SQLite without a pool writes the final status and the final
 * data in two statements, so between them the status is final while the data is still the one
 * the execution was created with.
 * @param {import('../../../scripts/n8n-instance').RestSession} session @param {number | string} id @param {string} n8nDir
 */
async function readExecution(session, id, n8nDir) {
	const { parse } = require(path.join(n8nDir, 'node_modules', 'flatted'));
	const execution = await session.request('GET', `/executions/${id}`);
	assert.equal(execution.status, 200, JSON.stringify(execution.body));
	const { status, mode } = execution.body.data;
	if (UNFINISHED.has(status)) return undefined;
	const data = parse(execution.body.data.data);
	const ran = Object.keys(data?.resultData?.runData ?? {}).length > 0 || data?.resultData?.error !== undefined;
	if (!ran) return undefined;
	return { id: Number(id), mode, run: { status, data } };
}

/**
 * Waits for one execution to end and reads it.
 * @param {import('../../../scripts/n8n-instance').RestSession} session @param {number | string} id @param {string} n8nDir
 * @param {number} [timeoutMs]  how long to wait for it
 */
async function finishedExecution(session, id, n8nDir, timeoutMs = 300_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await readExecution(session, id, n8nDir);
		if (execution) return execution;
		if (Date.now() > deadline) throw new Error(`execution ${id} did not end within ${timeoutMs / 1000} s`);
		await sleep(200);
	}
}

/**
 * Waits for the newest execution of a workflow after `knownBefore` to end, and reads it.
 * @param {import('../../../scripts/n8n-instance').RestSession} session @param {string} workflowId @param {string} n8nDir @param {number} knownBefore
 * @param {number} [timeoutMs]  how long to wait for it
 */
async function latestExecution(session, workflowId, n8nDir, knownBefore, timeoutMs = 300_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const list = await session.request('GET', `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
		assert.equal(list.status, 200, JSON.stringify(list.body));
		/** @type {{ id: string, status: string }[]} */
		const results = list.body.data.results ?? list.body.data;
		const finished = results.filter((execution) => Number(execution.id) > knownBefore && !UNFINISHED.has(execution.status));
		if (finished.length > 0) {
			const id = finished.map((execution) => Number(execution.id)).sort((a, b) => b - a)[0];
			const execution = await readExecution(session, id, n8nDir);
			if (execution) return execution;
		}
		if (Date.now() > deadline) throw new Error(`no finished execution of ${workflowId}`);
		await sleep(250);
	}
}

module.exports = { assertSucceeded, finishedExecution, itemsOf, jsonOf, latestExecution, runCount, runDataOf };
