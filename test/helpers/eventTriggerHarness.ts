/**
 * Serves the Nexthink Event Trigger on 127.0.0.1 the way n8n's webhook server runs a webhook node,
 * in process: each call is a real HTTP request, the node's `webhook` method runs in n8n-core's own
 * `WebhookContext` (parameters, credentials, static data, helpers are n8n-core's code), and what
 * it returns is answered as n8n's webhook helpers answer it (`workflowData`: the execution "starts"
 * here, i.e. its items are recorded; `noWebhookResponse`: the node answered; otherwise the
 * `webhookResponse` or n8n's default message).
 *
 * Stand-ins for n8n's server (its express app is not in this package's dependencies): n8n's own
 * JSON parsing of a body before the node runs, unless the node's `options.binaryData` is true;
 * `req.readRawBody()` reads the body once with n8n's payload limit (`payloadSizeMaxMb`, the
 * N8N_PAYLOAD_SIZE_MAX default of 16) and fails with status 413 over it, as n8n's `rawBodyReader`
 * does; `req.query` is the parsed query string. Static data makes the round trip n8n gives it: read
 * from JSON before a call, written back as JSON after it. The real n8n runs the same node in the
 * e2e suite (test/e2e/cases/eventTriggerCases.js).
 *
 * Under the `n8n1` jest project n8n-core and n8n-workflow are the 1.x copies (jest.config.js).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject, IDataObject, INode, INodeExecutionData, INodeParameters, IWebhookDescription } from 'n8n-workflow';

import { NexthinkConnectorApi } from '../../credentials/NexthinkConnectorApi.credentials';
import { NexthinkEventTrigger } from '../../nodes/Nexthink/eventTrigger/NexthinkEventTrigger.node';
import { engineAdditionalData, MemoryCredentialsHelper, NodeTypes } from './harness';

const n8nWorkflow = require('n8n-workflow');
const n8nCore = require('n8n-core');

const TYPE = 'n8n-nodes-nexthink.nexthinkEventTrigger';

export interface EventTriggerOptions {
	parameters: INodeParameters;
	credentials?: ICredentialDataDecryptedObject;
	/** `webhook`: the production URL of an active workflow; `manual`: the editor's test URL */
	mode?: 'webhook' | 'manual';
	payloadSizeMaxMb?: number;
	path?: string;
	/** the workflow's ID (`wf-event` by default) */
	workflowId?: string;
}

export interface ServedTrigger {
	/** the trigger's URL (http://127.0.0.1:port/webhook/<path>) */
	url: string;
	/** the items of every execution started, in order */
	executions: INodeExecutionData[][];
	/** the static data as n8n would have saved it */
	staticData(): IDataObject;
	/** what the node logged */
	logs: string[];
	close(): Promise<void>;
}

/** n8n's `rawBodyReader`: reads the body once, up to the payload limit. */
function attachRawBodyReader(request: http.IncomingMessage & { rawBody?: Buffer; readRawBody?: () => Promise<void> }, limitBytes: number): void {
	request.readRawBody = async () => {
		if (request.rawBody !== undefined) return;
		const chunks: Buffer[] = [];
		let size = 0;
		await new Promise<void>((resolve, reject) => {
			request.on('data', (chunk: Buffer) => {
				size += chunk.length;
				if (size > limitBytes) {
					request.removeAllListeners('data');
					request.resume();
					reject(Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' }));
					return;
				}
				chunks.push(chunk);
			});
			request.on('end', resolve);
			request.on('error', reject);
		});
		request.rawBody = Buffer.concat(chunks);
	};
}

export async function serveEventTrigger(options: EventTriggerOptions): Promise<ServedTrigger> {
	const nodeType = new NexthinkEventTrigger();
	const credentialsStore: Record<string, ICredentialDataDecryptedObject> = options.credentials ? { nexthinkConnectorApi: { ...options.credentials } } : {};
	const credentialsHelper = new MemoryCredentialsHelper({ nexthinkConnectorApi: new NexthinkConnectorApi() } as never, credentialsStore);
	const path = options.path ?? 'nexthink/events';
	const node: INode = {
		id: 'trigger-node',
		name: 'Nexthink Event Trigger',
		type: TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: 'b0c0ffee-0000-4000-8000-000000000001',
		parameters: { path, ...options.parameters },
		credentials: options.credentials ? { nexthinkConnectorApi: { id: 'cred-1', name: 'Nexthink connector' } } : undefined,
	};
	let savedStaticData: IDataObject = {};
	const executions: INodeExecutionData[][] = [];
	const logs: string[] = [];
	const limitBytes = (options.payloadSizeMaxMb ?? 16) * 1024 * 1024;

	const server = http.createServer((request, response) => {
		void (async () => {
			attachRawBodyReader(request, limitBytes);
			const url = new URL(request.url ?? '/', 'http://127.0.0.1');
			Object.assign(request, { query: Object.fromEntries(url.searchParams), params: {} });
			const workflow = new n8nWorkflow.Workflow({
				id: options.workflowId ?? 'wf-event',
				name: 'event trigger',
				active: options.mode !== 'manual',
				nodeTypes: new NodeTypes({ [TYPE]: nodeType }),
				settings: { executionOrder: 'v1' },
				staticData: JSON.parse(JSON.stringify(savedStaticData)),
				nodes: [node],
				connections: {},
			});
			const workflowNode = workflow.getNode(node.name);
			const description = (nodeType.description.webhooks ?? []).find((webhook: IWebhookDescription) => webhook.httpMethod === request.method);
			if (!description || url.pathname !== `/webhook/${path}`) {
				response.writeHead(404, { 'content-type': 'application/json' });
				response.end(JSON.stringify({ message: 'The requested webhook is not registered' }));
				return;
			}
			// n8n's parseRequestBody (packages/cli/src/webhooks/webhook-helpers.ts, 1.x and 2.x) reads the
			// body of a version-1 node first, and answers 422 to JSON it cannot parse, unless this is true
			const readsBodyItself = workflow.expression.getSimpleParameterValue(workflowNode, '={{$parameter["options"]["binaryData"]}}', 'webhook', {}, undefined, false);
			if (readsBodyItself !== true && (request.headers['content-type'] ?? '').split(';')[0].trim() === 'application/json') {
				await (request as unknown as { readRawBody: () => Promise<void> }).readRawBody();
				try {
					Object.assign(request, { body: JSON.parse(String((request as unknown as { rawBody: Buffer }).rawBody)) });
				} catch {
					response.writeHead(422, { 'content-type': 'application/json' });
					response.end(JSON.stringify({ code: 422, message: 'Failed to parse request body' }));
					return;
				}
			}
			const additionalData = engineAdditionalData(credentialsHelper, 'exec-webhook');
			Object.assign(additionalData, { httpRequest: request, httpResponse: response });
			const webhookData = {
				httpMethod: request.method,
				node: node.name,
				path,
				webhookDescription: description,
				workflowId: workflow.id,
				isTest: options.mode === 'manual',
			};
			const context = new n8nCore.WebhookContext(workflow, workflowNode, additionalData, options.mode ?? 'webhook', webhookData, [], null);
			const record = (message: string) => logs.push(message);
			Object.defineProperty(context, 'logger', { value: { info: record, warn: record, error: record, debug() {} } });
			const result = await nodeType.webhook.call(context);
			savedStaticData = JSON.parse(JSON.stringify(workflow.staticData));
			if (result.workflowData) executions.push(result.workflowData[0]);
			if (result.noWebhookResponse) return;
			const answer = result.webhookResponse ?? (result.workflowData ? { message: 'Workflow was started' } : { message: 'Webhook call received' });
			response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
			response.end(JSON.stringify(answer));
		})().catch((error: Error) => {
			logs.push(`error: ${error.message}`);
			if (process.env.HARNESS_DEBUG) console.error(error);
			if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ message: 'Error in workflow' }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/webhook/${path}`,
		executions,
		staticData: () => savedStaticData,
		logs,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
