/**
 * Nexthink Event Trigger: the URL Nexthink calls, on one of three channels, as n8n glue around the
 * pure parts of this folder. What is refused and how, how the body is read (once, unparsed by n8n:
 * `options.binaryData`), what is answered and when: docs/decisions.md, "Nexthink Event Trigger".
 */
import { randomUUID } from 'crypto';
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
	ILoadOptionsFunctions,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { parseJson } from '../shared/jsonValues';
import { limitFromOption, MB } from '../results/limits';
import { numberOf, readBoolean, readChoice } from '../shared/parameterValues';
import { checkAuthorization, credentialProblem, expectedOf, REFUSAL_TEXTS, type ExpectedAuthorization } from './authorization';
import { BodyShapeError, classifyValue, parseBodyText, type BodyShape } from './bodyShape';
import { checkDuplicates, dedupeKey, dedupeKeyOfBytes, readDedupeState } from './dedupe';
import { CHOICES, eventTriggerProperties } from './description';
import { EVENT_TABLES, isEventTable } from './eventTable';
import { exporterItems, redact, webhookItems, workflowCallItem, type CallDetails } from './eventItems';
import {
	ALL_METHODS,
	CHANNEL_METHODS,
	checkContentType,
	checkDeclaredSize,
	checkMethod,
	checkReadSize,
	readFailure,
	refusalBody,
	type Channel,
	type Refusal,
} from './requestChecks';
import { setupLines } from './setupGuidance';

const CHANNELS = Object.keys(CHANNEL_METHODS) as Channel[];

/** One webhook per method on the same path; the node answers 405 to a method its channel does not take. */
const webhooks: IWebhookDescription[] = ALL_METHODS.map((method) => ({
	name: 'default',
	httpMethod: method,
	path: '={{$parameter["path"]}}',
	isFullPath: true,
	responseMode: '={{$parameter["mode"] === "workflowCall" ? $parameter["responseMode"] : "onReceived"}}',
	// '' lets n8n answer `onReceived` with the node's `webhookResponse` (both generations default
	// an absent value to 'firstEntryJson', which they would send as the text "firstEntryJson")
	responseData: '={{$parameter["mode"] === "workflowCall" && $parameter["responseMode"] === "lastNode" ? "firstEntryJson" : ""}}',
	ndvHideMethod: true,
	ndvHideUrl: method !== 'POST',
}));

const valuesOf = (name: keyof typeof CHOICES): string[] => CHOICES[name].map((choice) => choice.value);

/** The trigger's choices, checked on every call (an expression may give any value): an input error names the one that is wrong. */
function readChoices(context: IWebhookFunctions) {
	const table = readChoice(context.getNodeParameter('eventTable', 'auto'), 'Event Table', ['auto', ...EVENT_TABLES], 'auto');
	return {
		channel: readChoice(context.getNodeParameter('mode', 'webhook'), 'Channel', CHANNELS, 'webhook'),
		noAuthentication: readChoice(context.getNodeParameter('authentication', 'connectorCredential'), 'Authentication', valuesOf('authentication'), 'connectorCredential') === 'none',
		eventTable: table === 'auto' ? undefined : table,
		responseMode: readChoice(context.getNodeParameter('responseMode', 'lastNode'), 'Respond', valuesOf('responseMode'), 'lastNode'),
	};
}

function secretsOf(expected: ExpectedAuthorization): string[] {
	if (expected.type === 'basic') return [expected.password, Buffer.from(`${expected.user}:${expected.password}`).toString('base64')];
	if (expected.type === 'bearer') return [expected.token];
	return [];
}

/** A configuration the node cannot run with: answered 500 with what to fix, nothing started. */
const configurationRefusal = (message: string): Refusal => ({ status: 500, error: 'configuration', message });

/** The longest workflow ID whose static data n8n 1.x and 2.x both save (isWorkflowIdValid in packages/cli/src/utils.ts). */
const MAX_SAVED_WORKFLOW_ID = 16;

const workflowIdProblem = (id: string): string =>
	`Ignore Repeats cannot remember calls in this workflow: its ID "${id}" has ${id.length} characters, and n8n 1.x saves no static data for an ID over ${MAX_SAVED_WORKFLOW_ID} (n8n 2.x over 21). Import the workflow without its "id" (n8n then gives it one of 16) or duplicate it`;

function commaList(value: unknown): string[] {
	return typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter((part) => part !== '') : [];
}

export class NexthinkEventTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Nexthink Event Trigger',
		name: 'nexthinkEventTrigger',
		icon: { light: 'file:../icons/nexthink.svg', dark: 'file:../icons/nexthink.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ {"webhook": "webhook", "dataExporter": "data exporter", "workflowCall": "workflow call"}[$parameter["mode"]] }}',
		description: 'Starts the workflow when Nexthink calls n8n: a webhook, a data exporter batch or a workflow step',
		eventTriggerDescription: 'Waiting for Nexthink to call this URL',
		activationMessage: 'Give Nexthink the production URL (see Copy Into Nexthink in the node)',
		defaults: { name: 'Nexthink Event Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'nexthinkConnectorApi',
				required: true,
				testedBy: 'checkConnectorCredential',
				displayOptions: { show: { authentication: ['connectorCredential'] } },
			},
		],
		webhooks,
		properties: eventTriggerProperties,
	};

	methods = {
		credentialTest: {
			/** Nothing can call Nexthink to test: the test checks that the values are complete and hard to guess. */
			async checkConnectorCredential(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
				const problem = credentialProblem(credential.data ?? {});
				return problem ? { status: 'Error', message: problem } : { status: 'OK', message: 'The values are complete. Use Test send in Nexthink to check the connection.' };
			},
		},
		loadOptions: {
			/** The values to type into Nexthink, for the production URL of this node. */
			async setupValues(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const base = this.getInstanceBaseUrl().replace(/\/+$/, '');
				const path = String(this.getNodeParameter('path', '')).replace(/^\/+/, '') || this.getNode().webhookId || '';
				const mode = this.getNodeParameter('mode', 'webhook');
				const channel = CHANNELS.includes(mode as Channel) ? (mode as Channel) : 'webhook';
				const table = this.getNodeParameter('eventTable', 'auto');
				const lines = setupLines(channel, `${base}/webhook/${path}`, isEventTable(table) ? table : undefined);
				// the empty first entry is the field's default, so the editor shows no "value not in the list" warning
				return [{ name: 'Open to See What to Copy (Choosing Changes Nothing)', value: '' }, ...lines.map(({ label, value }) => ({ name: `${label}: ${value}`, value }))];
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const response = this.getResponseObject();

		const refuse = (refusal: Refusal): IWebhookResponseData => {
			this.logger.info(`Nexthink Event Trigger refused a call: ${refusal.status} ${refusal.error}`, { node: this.getNode().name });
			response.writeHead(refusal.status, { 'content-type': 'application/json; charset=utf-8', ...refusal.headers });
			response.end(JSON.stringify(refusalBody(refusal)));
			return { noWebhookResponse: true };
		};

		let choices: ReturnType<typeof readChoices>;
		try {
			choices = readChoices(this);
		} catch (error) {
			return refuse(configurationRefusal((error as Error).message));
		}
		const { channel } = choices;
		const expected: ExpectedAuthorization = choices.noAuthentication ? { type: 'none' } : expectedOf(await this.getCredentials('nexthinkConnectorApi'));
		const authorization = checkAuthorization(request.headers.authorization, expected);
		if (!authorization.ok) {
			return refuse({
				status: 401,
				error: 'unauthorized',
				message: REFUSAL_TEXTS[authorization.reason],
				headers: { 'www-authenticate': expected.type === 'basic' ? 'Basic realm="Nexthink Event Trigger"' : 'Bearer' },
			});
		}
		const callRefusal = checkMethod(channel, request.method ?? '') ?? checkContentType(request.headers['content-type']);
		if (callRefusal) return refuse(callRefusal);

		const options = this.getNodeParameter('options', {}) as IDataObject;
		let limitBytes: number;
		try {
			// 0 (the default): n8n's N8N_PAYLOAD_SIZE_MAX is the only limit
			limitBytes = limitFromOption(options.maxBodySizeMb, 'Maximum Body Size (MB)', 0, MB) || Infinity;
		} catch (error) {
			return refuse(configurationRefusal((error as Error).message));
		}
		const sizeRefusal = checkDeclaredSize(request.headers['content-length'], limitBytes);
		if (sizeRefusal) return refuse(sizeRefusal);

		const records = channel === 'dataExporter' ? String(options.recordsProperty ?? '').trim() : false;
		let raw: Buffer | undefined;
		let body: BodyShape;
		try {
			// A body n8n parsed already (a JSON body, when it reads bodies first) is not parsed again.
			if (request.body !== undefined && typeof request.body === 'object' && request.body !== null && request.rawBody === undefined) {
				body = classifyValue(request.body, records);
			} else {
				if (request.rawBody === undefined) await request.readRawBody();
				const bytes: Buffer = request.rawBody ?? Buffer.alloc(0);
				const readRefusal = checkReadSize(bytes.length, limitBytes);
				if (readRefusal) return refuse(readRefusal);
				body = parseBodyText(bytes.toString('utf8'), records);
				raw = bytes;
			}
		} catch (error) {
			if (error instanceof BodyShapeError) return refuse({ status: 400, error: 'invalid_json', message: error.message });
			return refuse(readFailure(error));
		}

		const secrets = secretsOf(expected);
		const call: CallDetails = {
			method: (request.method ?? '').toUpperCase(),
			headers: redact(request.headers as IDataObject, secrets),
			query: redact(request.query as IDataObject, secrets),
			receivedAt: new Date().toISOString(),
		};

		let ignoreRepeats: boolean;
		let includeRequest: boolean;
		try {
			ignoreRepeats = channel !== 'workflowCall' && readBoolean(this.getNodeParameter('dedupe', false), 'Ignore Repeats', false);
			includeRequest = channel === 'dataExporter' && readBoolean(options.includeRequest, 'Include Request Details', false);
		} catch (error) {
			return refuse(configurationRefusal((error as Error).message));
		}

		let items: IDataObject[];
		let dedupeKeys: string[] | undefined;
		try {
			const fields = ignoreRepeats ? commaList(this.getNodeParameter('dedupeFields', '')) : [];
			if (channel === 'webhook') {
				items = webhookItems(body, call, choices.eventTable) as IDataObject[];
				if (ignoreRepeats) dedupeKeys = items.map((item) => dedupeKey(item.body, fields));
			} else if (channel === 'dataExporter') {
				if (ignoreRepeats) {
					const batchValue = body.shape === 'records' ? body.properties : body.shape === 'object' ? body.value : {};
					dedupeKeys = [fields.length === 0 && raw ? dedupeKeyOfBytes(raw) : dedupeKey(fields.length === 0 ? body : batchValue, fields)];
				}
				items = exporterItems(body, call, { batchId: randomUUID(), includeRequest }) as IDataObject[];
			} else {
				items = [workflowCallItem(body, call) as IDataObject];
			}
		} catch (error) {
			if (error instanceof BodyShapeError) return refuse({ status: 400, error: 'unexpected_shape', message: error.message });
			throw new NodeOperationError(this.getNode(), error as Error);
		}

		let duplicates = 0;
		if (dedupeKeys) {
			const window = this.getNodeParameter('dedupeWindowMinutes', 60);
			const windowMinutes = numberOf(window) ?? Number.NaN;
			if (!(windowMinutes > 0)) return refuse(configurationRefusal(`The trigger's Window (Minutes) must be a positive number, not ${JSON.stringify(window)}`));
			// n8n saves no static data for a longer ID: the memory would silently forget every call
			const workflowId = this.getWorkflow().id;
			if (typeof workflowId === 'string' && workflowId.length > MAX_SAVED_WORKFLOW_ID) {
				return refuse(configurationRefusal(workflowIdProblem(workflowId)));
			}
			const staticData = this.getWorkflowStaticData('node');
			const checked = checkDuplicates(readDedupeState(staticData.dedupe), dedupeKeys, Date.now(), { windowMs: windowMinutes * 60_000 });
			staticData.dedupe = checked.state as unknown as IDataObject;
			if (channel === 'dataExporter') {
				if (checked.duplicate[0]) {
					duplicates = items.length;
					items = [];
				}
			} else {
				duplicates = checked.duplicate.filter(Boolean).length;
				items = items.filter((_, index) => !checked.duplicate[index]);
			}
		}

		if (channel === 'workflowCall') {
			if (choices.responseMode === 'onReceived') {
				const fixed = this.getNodeParameter('responseJson', '{}');
				const answer = typeof fixed === 'string' ? parseJson(fixed) : { value: fixed };
				if (answer.problem !== undefined) return refuse(configurationRefusal("The trigger's Response JSON is not valid JSON"));
				return { workflowData: [this.helpers.returnJsonArray(items)], webhookResponse: answer.value };
			}
			return { workflowData: [this.helpers.returnJsonArray(items)] };
		}

		const answer = { status: 'ok', items: items.length, duplicates };
		if (items.length === 0) return { webhookResponse: answer };
		// n8n answers with this once it saved the repeat filter's memory; an answer written here would not wait
		return { workflowData: [items.map((json) => ({ json }))], webhookResponse: answer };
	}
}
