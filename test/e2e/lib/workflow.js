// @ts-check
'use strict';

/**
 * Builds n8n workflow JSON (the format `n8n import:workflow` and the editor's export use) from a
 * list of nodes and named connections, so each case states only what it is about.
 */

const crypto = require('node:crypto');

const PACKAGE = 'n8n-nodes-nexthink';
const EXPORT_NODE = `${PACKAGE}.nexthinkExport`;
const ENRICHMENT_NODE = `${PACKAGE}.nexthinkEnrichment`;
const ACTIONS_NODE = `${PACKAGE}.nexthinkActions`;

/** The one credential every e2e workflow and example uses; the suite imports it under this id. */
const { CREDENTIAL } = require('../../../scripts/n8n-examples');

/** A second credential the suite imports with a wrong client secret (`WRONG_SECRET`). */
const WRONG_SECRET_CREDENTIAL = { id: 'nxWrongSecret001', name: 'Nexthink API (wrong secret)' };
const WRONG_SECRET = 'not-the-secret';

/**
 * @typedef {{ name: string, type: string, typeVersion: number, parameters?: object, [key: string]: unknown }} NodeSpec
 * @typedef {[from: string, to: string, output?: number]} Connection
 */

/** @param {string} name @param {object} parameters @param {object} [settings] e.g. `{ onError: 'continueRegularOutput' }` */
function exportNode(name, parameters, settings = {}) {
	return { name, type: EXPORT_NODE, typeVersion: 1, parameters, credentials: { nexthinkApi: { ...CREDENTIAL } }, ...settings };
}

/** @param {string} name @param {object} parameters @param {object} [settings] */
function enrichmentNode(name, parameters, settings = {}) {
	return { name, type: ENRICHMENT_NODE, typeVersion: 1, parameters, credentials: { nexthinkApi: { ...CREDENTIAL } }, ...settings };
}

/** @param {string} name @param {object} parameters @param {object} [settings] */
function actionsNode(name, parameters, settings = {}) {
	return { name, type: ACTIONS_NODE, typeVersion: 1, parameters, credentials: { nexthinkApi: { ...CREDENTIAL } }, ...settings };
}

/** A Code node that outputs the given items' JSON. @param {string} name @param {object[]} rows */
function codeItemsNode(name, rows) {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: `return ${JSON.stringify(rows, null, 2)}.map((json) => ({ json }));` },
	};
}

/** @param {string} name */
function noOpNode(name) {
	return { name, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
}

/** An in-process wait (under 65 s n8n sleeps instead of persisting the execution). @param {string} name @param {number} seconds */
function waitNode(name, seconds) {
	return { name, type: 'n8n-nodes-base.wait', typeVersion: 1.1, parameters: { resume: 'timeInterval', amount: seconds, unit: 'seconds' }, webhookId: uuid(name) };
}

/** IF node (v2) comparing an expression to a string. @param {string} name @param {string} left @param {string} right */
function ifEqualsNode(name, left, right) {
	return {
		name,
		type: 'n8n-nodes-base.if',
		typeVersion: 2,
		parameters: {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
				conditions: [{ id: uuid(`${name}-condition`), leftValue: left, rightValue: right, operator: { type: 'string', operation: 'equals' } }],
				combinator: 'and',
			},
			options: {},
		},
	};
}

/**
 * The start node: a manual trigger (run through the REST API as the editor runs it), or a webhook
 * answering with every item of the last node (queue mode).
 * @param {'manual' | 'webhook'} kind @param {string} webhookPath
 */
function triggerNode(kind, webhookPath) {
	if (kind === 'manual') return { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} };
	return {
		name: 'Start',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: uuid(webhookPath),
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	};
}

/**
 * @param {{ id: string, name: string, nodes: NodeSpec[], connections: Connection[] }} spec
 */
function buildWorkflow(spec) {
	/** @type {Record<string, { main: { node: string, type: 'main', index: number }[][] }>} */
	const connections = {};
	for (const [from, to, output = 0] of spec.connections) {
		const outputs = (connections[from] ??= { main: [] }).main;
		while (outputs.length <= output) outputs.push([]);
		outputs[output].push({ node: to, type: 'main', index: 0 });
	}
	return {
		id: spec.id,
		name: spec.name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: spec.nodes.map((node, index) => ({
			id: uuid(`${spec.id}/${node.name}`),
			position: [index * 240, (index % 2) * 40],
			...node,
		})),
		connections,
		pinData: {},
	};
}

/** A stable UUID-shaped id from a text, so re-imports update instead of duplicating. @param {string} text */
function uuid(text) {
	const hex = crypto.createHash('sha256').update(text).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

module.exports = {
	CREDENTIAL,
	WRONG_SECRET_CREDENTIAL,
	WRONG_SECRET,
	EXPORT_NODE,
	ENRICHMENT_NODE,
	ACTIONS_NODE,
	actionsNode,
	buildWorkflow,
	codeItemsNode,
	enrichmentNode,
	exportNode,
	ifEqualsNode,
	noOpNode,
	triggerNode,
	waitNode,
	uuid,
};
