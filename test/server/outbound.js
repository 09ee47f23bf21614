// @ts-check
'use strict';

/**
 * Nexthink's side when it calls out (../../docs/event-trigger.md; facts and their limits:
 * Nexthink's outbound connector pages, summed up in the project's reference on outbound calls):
 * - webhooks: POST, PUT or PATCH of a payload template whose `{{field}}` placeholders are filled
 *   with raw text, **not JSON-escaped** (Nexthink tells administrators to escape values themselves),
 *   or left literal on a *Test send*; repeats and delays;
 * - HTTP API exporter batches in the three documented shapes (NDJSON, array, object with one array
 *   of records), streamed chunk by chunk so 100,000 rows never sit in memory as one string;
 * - the Service/API thinklet of a workflow: any of five methods, waits 10 s at most, reads at most
 *   2 MB of the answer and takes outputs by JSONPath (`$.a.b`, `$.a[0]`, `$['k']`).
 * The URL is the connector credential's URL followed by the Resource, joined as plain text, the way
 * Nexthink's slash rule implies. Where Nexthink's wire details are not public (content type of
 * NDJSON, `Authorization` spelling), each plausible variant is an option.
 *
 * @typedef {{ type: 'basic', user: string, password: string }
 *   | { type: 'bearer', token: string, scheme?: 'Bearer' | 'bearer' | '' }
 *   | { type: 'none' }
 *   | { type: 'header', value: string }} ConnectorCredential
 * @typedef {{ status: number, headers: import('node:http').IncomingHttpHeaders, text: string, json: unknown }} Answer
 */

const http = require('node:http');
const https = require('node:https');

const { DEVICE_COLUMNS, generateDeviceRows } = require('./device-rows');

/** @param {ConnectorCredential} credential */
function authorizationHeader(credential) {
	switch (credential.type) {
		case 'basic':
			return `Basic ${Buffer.from(`${credential.user}:${credential.password}`).toString('base64')}`;
		case 'bearer': {
			const scheme = credential.scheme ?? 'Bearer';
			return scheme === '' ? credential.token : `${scheme} ${credential.token}`;
		}
		case 'header':
			return credential.value;
		default:
			return undefined;
	}
}

/**
 * The connector credential URL and the Resource joined as Nexthink joins them: plain concatenation.
 * @param {string} credentialUrl
 * @param {string} resource
 */
function joinUrl(credentialUrl, resource) {
	return `${credentialUrl}${resource}`;
}

/**
 * Fills `{{field}}` placeholders with the values as raw text (no JSON escaping), or leaves them
 * literal for a *Test send*. A value missing from `values` becomes the empty string.
 * @param {string} template
 * @param {Record<string, unknown>} values
 * @param {{ testSend?: boolean }} [options]
 */
function renderTemplate(template, values, options = {}) {
	if (options.testSend) return template;
	return template.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (_, name) => (values[name] === undefined || values[name] === null ? '' : String(values[name])));
}

/**
 * One HTTP call; resolves with the answer (never throws on a status), rejects on a network error
 * or when no answer came within `timeoutMs`.
 * @param {{ url: string, method?: string, credential?: ConnectorCredential, body?: string | Buffer | Iterable<string> | AsyncIterable<string>,
 *   contentType?: string | null, headers?: Record<string, string>, timeoutMs?: number, maxAnswerBytes?: number }} call
 * @returns {Promise<Answer>}
 */
function send(call) {
	const url = new URL(call.url);
	const transport = url.protocol === 'https:' ? https : http;
	/** @type {Record<string, string>} */
	const headers = { ...(call.headers ?? {}) };
	const authorization = authorizationHeader(call.credential ?? { type: 'none' });
	if (authorization !== undefined) headers.authorization = authorization;
	if (call.contentType !== null && call.body !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
	if (typeof call.body === 'string' || Buffer.isBuffer(call.body)) headers['content-length'] = String(Buffer.byteLength(call.body));
	const maxAnswerBytes = call.maxAnswerBytes ?? Infinity;
	return new Promise((resolve, reject) => {
		/** @type {import('node:http').IncomingMessage | undefined} */
		let answer;
		/** @type {Buffer[]} */
		const chunks = [];
		const finish = () => {
			const text = Buffer.concat(chunks).toString('utf8');
			let json;
			try {
				json = JSON.parse(text);
			} catch {
				json = undefined;
			}
			resolve({ status: answer?.statusCode ?? 0, headers: answer?.headers ?? {}, text, json });
		};
		const request = transport.request(url, { method: call.method ?? 'POST', headers, timeout: call.timeoutMs ?? 60_000 }, (response) => {
			answer = response;
			let size = 0;
			response.on('data', (chunk) => {
				size += chunk.length;
				if (size > maxAnswerBytes) {
					request.destroy(new Error(`the answer is over ${maxAnswerBytes} bytes`));
					return;
				}
				chunks.push(chunk);
			});
			response.on('end', finish);
		});
		request.on('timeout', () => request.destroy(new Error(`no answer within ${call.timeoutMs ?? 60_000} ms`)));
		// A server that answers before reading the whole body (401, 413) may close the connection
		// while the body is still being sent: the answer that arrived counts.
		request.on('error', (error) => (answer && error.message.indexOf('the answer is over') < 0 ? finish() : reject(error)));
		const body = call.body;
		if (body === undefined) {
			request.end();
		} else if (typeof body === 'string' || Buffer.isBuffer(body)) {
			request.end(body);
		} else {
			(async () => {
				for await (const chunk of /** @type {AsyncIterable<string>} */ (body)) {
					if (!request.write(chunk)) await new Promise((drained) => request.once('drain', drained));
				}
				request.end();
			})().catch((error) => request.destroy(error));
		}
	});
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A webhook as Nexthink sends it: the template rendered with the event's values, `repeats` times,
 * `delayMs` before each call.
 * @param {{ url: string, method?: 'POST' | 'PUT' | 'PATCH', credential?: ConnectorCredential, template: string,
 *   values?: Record<string, unknown>, testSend?: boolean, repeats?: number, delayMs?: number, contentType?: string | null }} webhook
 * @returns {Promise<Answer[]>}
 */
async function sendWebhook(webhook) {
	const body = renderTemplate(webhook.template, webhook.values ?? {}, { testSend: webhook.testSend });
	/** @type {Answer[]} */
	const answers = [];
	for (let index = 0; index < (webhook.repeats ?? 1); index++) {
		if (webhook.delayMs) await sleep(webhook.delayMs);
		answers.push(await send({ url: webhook.url, method: webhook.method ?? 'POST', credential: webhook.credential, body, contentType: webhook.contentType }));
	}
	return answers;
}

/**
 * The template of the alert webhook the suite sends (every placeholder quoted, as the docs advise).
 */
const ALERT_TEMPLATE =
	'{"source":"nexthink","table":"alert.alerts","monitor":"{{alert.monitor.name}}","status":"{{alert.status}}","context":"{{alert.context}}","priority":"{{monitor.priority}}","triggered":"{{trigger_time}}","recovered":"{{recovery_time}}"}';

/**
 * Device rows as exporter records: `{ "device.name": …, … }`, row i depending only on seed and i.
 * @param {number} count
 * @param {number} [seed]
 */
function* exporterRows(count, seed = 1) {
	for (const row of generateDeviceRows(count, seed)) {
		/** @type {Record<string, unknown>} */
		const record = {};
		DEVICE_COLUMNS.forEach((column, index) => (record[column] = row[index]));
		yield record;
	}
}

/**
 * The text of an exporter batch, chunk by chunk.
 * @param {'ndjson' | 'array' | 'records'} shape
 * @param {Iterable<Record<string, unknown>>} rows
 * @param {{ recordsProperty?: string, properties?: Record<string, unknown>, lineEnding?: string, rowsPerChunk?: number }} [options]
 */
function* exporterBody(shape, rows, options = {}) {
	const lineEnding = options.lineEnding ?? '\n';
	const rowsPerChunk = options.rowsPerChunk ?? 500;
	let chunk = '';
	let count = 0;
	if (shape === 'records') {
		const properties = JSON.stringify(options.properties ?? {});
		const head = properties === '{}' ? '{' : `${properties.slice(0, -1)},`;
		chunk = `${head}${JSON.stringify(options.recordsProperty ?? 'records')}:[`;
	} else if (shape === 'array') {
		chunk = '[';
	}
	for (const row of rows) {
		const text = JSON.stringify(row);
		chunk += shape === 'ndjson' ? `${text}${lineEnding}` : `${count === 0 ? '' : ','}${text}`;
		count++;
		if (count % rowsPerChunk === 0) {
			yield chunk;
			chunk = '';
		}
	}
	if (shape === 'records') chunk += ']}';
	else if (shape === 'array') chunk += ']';
	if (chunk !== '') yield chunk;
}

/**
 * A data exporter batch. `chunked: true` sends it without Content-Length (the body streamed).
 * @param {{ url: string, method?: string, credential?: ConnectorCredential, shape: 'ndjson' | 'array' | 'records', rows: Iterable<Record<string, unknown>>,
 *   recordsProperty?: string, properties?: Record<string, unknown>, contentType?: string | null, lineEnding?: string, chunked?: boolean }} batch
 */
async function sendExporterBatch(batch) {
	const chunks = exporterBody(batch.shape, batch.rows, batch);
	const body = batch.chunked ? chunks : [...chunks].join('');
	const contentType = batch.contentType === undefined ? 'application/json' : batch.contentType;
	return await send({ url: batch.url, method: batch.method ?? 'POST', credential: batch.credential, body, contentType });
}

/**
 * Reads a JSONPath of the subset Nexthink's older thinklet pages document: `$.key`, `$.a.b`,
 * `$.array[0]`, `$['key.with.dots']`.
 * @param {unknown} value
 * @param {string} path
 */
function jsonPath(value, path) {
	if (!path.startsWith('$')) throw new Error(`${path}: a path starts with $`);
	const parts = [...path.slice(1).matchAll(/\.([^.[\]]+)|\[(\d+)\]|\['([^']+)'\]/g)].map((match) => match[1] ?? (match[2] !== undefined ? Number(match[2]) : match[3]));
	/** @type {any} */
	let current = value;
	for (const part of parts) {
		if (current === null || typeof current !== 'object') return undefined;
		current = current[part];
	}
	return current;
}

/** What the thinklet waits for and reads: 10 s, 2 MB (https://docs.nexthink.com/platform/user-guide/workflows/creating-workflows/configuring-thinklets/service-api-thinklet). */
const THINKLET_TIMEOUT_MS = 10_000;
const THINKLET_MAX_ANSWER_BYTES = 2 * 1024 * 1024;
const THINKLET_MAX_OUTPUT_CHARS = 3840;

/**
 * A Service/API thinklet call: the answer's outputs read by JSONPath. `failed` says why Nexthink
 * would count the step as failed (no answer in 10 s, over 2 MB, not 2xx, not JSON).
 * @param {{ url: string, method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', credential?: ConnectorCredential, payload?: unknown,
 *   headers?: Record<string, string>, outputs?: Record<string, string>, timeoutMs?: number }} call
 */
async function callWorkflow(call) {
	const started = Date.now();
	/** @type {Answer} */
	let answer;
	try {
		answer = await send({
			url: call.url,
			method: call.method ?? 'POST',
			credential: call.credential,
			body: call.payload === undefined ? undefined : JSON.stringify(call.payload),
			headers: call.headers,
			timeoutMs: call.timeoutMs ?? THINKLET_TIMEOUT_MS,
			maxAnswerBytes: THINKLET_MAX_ANSWER_BYTES,
		});
	} catch (error) {
		return { failed: /** @type {Error} */ (error).message, status: 0, json: undefined, outputs: {}, elapsedMs: Date.now() - started };
	}
	/** @type {Record<string, unknown>} */
	const outputs = {};
	for (const [name, path] of Object.entries(call.outputs ?? {})) {
		const value = jsonPath(answer.json, path);
		outputs[name] = typeof value === 'string' ? value.slice(0, THINKLET_MAX_OUTPUT_CHARS) : value;
	}
	const failed = answer.status < 200 || answer.status > 299 ? `status ${answer.status}` : answer.json === undefined ? 'the answer is not JSON' : undefined;
	return { failed, status: answer.status, json: answer.json, outputs, elapsedMs: Date.now() - started };
}

/**
 * Command line (the sandbox of `npm start`): plays Nexthink against a URL and prints the answers.
 *   node test/server/outbound.js alert <url> <token> [repeats]       an alert webhook (Bearer)
 *   node test/server/outbound.js exporter <url> <token> [rows] [ndjson|array|records]
 *   node test/server/outbound.js workflow <url> <token> [device]     a Service/API thinklet call
 * @param {string[]} argv
 */
async function main(argv) {
	const [command, url, token, extra, shape] = argv;
	const credential = { type: /** @type {const} */ ('bearer'), token };
	if (!url || !token) throw new Error('usage: outbound.js alert|exporter|workflow <url> <token> [...]');
	if (command === 'alert') {
		const values = { 'alert.monitor.name': 'High CPU usage', 'alert.status': 'open', 'alert.context': 'LAPTOP-ZRH-001', 'monitor.priority': 'high', trigger_time: new Date().toISOString(), recovery_time: '' };
		const answers = await sendWebhook({ url, credential, template: ALERT_TEMPLATE, values, repeats: Number(extra ?? 2) });
		for (const answer of answers) process.stdout.write(`${answer.status} ${answer.text}\n`);
	} else if (command === 'exporter') {
		const answer = await sendExporterBatch({ url, credential, shape: /** @type {any} */ (shape ?? 'records'), rows: exporterRows(Number(extra ?? 1000)), chunked: true });
		process.stdout.write(`${answer.status} ${answer.text}\n`);
	} else if (command === 'workflow') {
		const result = await callWorkflow({ url, credential, payload: { device: extra ?? 'LAPTOP-ZRH-001' }, outputs: { hasOpenTicket: '$.hasOpenTicket', ticket: '$.ticket' } });
		process.stdout.write(`${JSON.stringify(result)}\n`);
	} else {
		throw new Error(`unknown command ${command}: alert, exporter or workflow`);
	}
}

if (require.main === module) {
	main(process.argv.slice(2)).catch((error) => {
		process.stderr.write(`${error.message}\n`);
		process.exitCode = 1;
	});
}

module.exports = {
	ALERT_TEMPLATE,
	THINKLET_TIMEOUT_MS,
	authorizationHeader,
	callWorkflow,
	exporterBody,
	exporterRows,
	joinUrl,
	jsonPath,
	renderTemplate,
	send,
	sendExporterBatch,
	sendWebhook,
};
