/**
 * Runs a node of this package through n8n-core's real execution engine, in process.
 *
 * `WorkflowExecute` runs a two-node workflow (an "Input" node that emits fixture items, then the
 * node under test), so parameters (expressions included), `getCredentials`,
 * `httpRequestWithAuthentication`, `continueOnFail`, error outputs and binary data all go through
 * n8n-core's own code. Credentials live in memory; `preAuthentication` and `authenticate` run the
 * way n8n's server runs them (n8n's published test helpers skip both).
 *
 * Under the `n8n1` jest project, `n8n-core` and `n8n-workflow` resolve to the 1.x copies, so the
 * same tests prove the package on both generations (see jest.config.js).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// n8n-core's InstanceSettings creates <N8N_USER_FOLDER>/.n8n on first use: keep it in a temp dir.
process.env.N8N_USER_FOLDER ??= fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-nexthink-harness-'));
process.env.N8N_LOG_LEVEL ??= 'silent';

import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IVersionedNodeType,
	Workflow as WorkflowType,
} from 'n8n-workflow';

const { credentialData } = require('../server/client');
const n8nWorkflow = require('n8n-workflow');
const n8nCore = require('n8n-core');
const CORE_MAJOR = Number(require('n8n-core/package.json').version.split('.')[0]);

export const N8N_CORE_VERSION: string = require('n8n-core/package.json').version;
export const N8N_WORKFLOW_VERSION: string = require('n8n-workflow/package.json').version;

import { NexthinkApi } from '../../credentials/NexthinkApi.credentials';

type AnyNodeType = INodeType | IVersionedNodeType;

export class NodeTypes {
	constructor(private readonly types: Record<string, AnyNodeType>) {}
	getByName(type: string) {
		return this.types[type];
	}
	getByNameAndVersion(type: string, version?: number) {
		return n8nWorkflow.NodeHelpers.getVersionedNodeType(this.types[type], version);
	}
	getKnownTypes() {
		return {};
	}
}

/** In-memory credentials with the semantics of n8n's CLI CredentialsHelper. */
export class MemoryCredentialsHelper extends n8nWorkflow.ICredentialsHelper {
	/** Every time `preAuthentication` stored a new token. */
	readonly tokenUpdates: Array<{ type: string; data: ICredentialDataDecryptedObject }> = [];

	constructor(
		private readonly types: Record<string, ICredentialType>,
		readonly store: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}
	getParentTypes() {
		return [];
	}
	isCredentialUsableByNode() {
		return true;
	}
	async runPreAuthentication(helpers: any, credentials: ICredentialDataDecryptedObject, typeName: string) {
		return await this.types[typeName].preAuthentication?.call(helpers, credentials);
	}
	getCredentialsProperties(type: string) {
		return this.types[type].properties;
	}
	private withDefaults(type: string, data: ICredentialDataDecryptedObject) {
		const out: ICredentialDataDecryptedObject = { ...data };
		for (const property of this.types[type].properties) {
			if (out[property.name] === undefined) out[property.name] = property.default as never;
		}
		return out;
	}
	async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, type: string) {
		return this.withDefaults(type, this.store[type]);
	}
	async getCredentials(_nodeCredentials: unknown, type: string) {
		return { getData: () => ({ ...this.store[type] }) };
	}
	async updateCredentials(_nodeCredentials: unknown, type: string, data: ICredentialDataDecryptedObject) {
		this.tokenUpdates.push({ type, data });
		this.store[type] = { ...data };
	}
	async updateCredentialsOauthTokenData() {}
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: WorkflowType,
		node: INode,
	) {
		const { authenticate } = this.types[typeName];
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate?.type === 'generic') {
			const resolve = (value: string) =>
				n8nWorkflow.isExpression(value)
					? String(
							workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials } as never, undefined, '') ?? '',
						)
					: value;
			for (const [outerKey, inner] of Object.entries(authenticate.properties)) {
				const target = ((requestOptions as any)[outerKey] ??= {});
				for (const [key, value] of Object.entries(inner as Record<string, string>)) target[resolve(key)] = resolve(value);
			}
		}
		return requestOptions;
	}
	async preAuthentication(
		helpers: any,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	) {
		const type = this.types[typeName];
		const expirable = type.properties.find((p) => p.type === 'hidden' && p.typeOptions?.expirable === true);
		if (expirable === undefined || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		await this.updateCredentials(node.credentials?.[typeName], typeName, { ...this.store[typeName], ...output } as ICredentialDataDecryptedObject);
		return Object.assign(credentials, output);
	}
}

/** A node that emits the given items (the workflow's trigger in tests). */
export function inputNode(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Input',
			name: 'input',
			group: ['input'],
			version: 1,
			description: '',
			defaults: { name: 'Input' },
			inputs: ['main'] as never,
			outputs: ['main'] as never,
			properties: [],
		},
		async execute() {
			return [items];
		},
	};
}

export interface RunNodeOptions {
	nodeType: AnyNodeType;
	parameters: INodeParameters;
	items?: INodeExecutionData[];
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	typeVersion?: number;
	/** Node type name in the workflow; a name ending in `Tool` is how n8n runs a node for an AI agent. */
	typeName?: string;
	/** n8n's "On Error" node setting. */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
}

export interface RunNodeResult {
	/** Items of the first (main) output. */
	items: INodeExecutionData[];
	/** Every output: `[main, error]` when the node uses an error output. */
	outputs: INodeExecutionData[][];
	error?: any;
	run: IRun;
	credentialsHelper: MemoryCredentialsHelper;
}

export interface RunningNode {
	result: Promise<RunNodeResult>;
	/** Cancels the execution the way n8n's "stop" does (aborts the execution's cancel signal). */
	cancel(): void;
}

/** A test workflow run from its node named "Input". */
export interface WorkflowSetup {
	id: string;
	name: string;
	/** The node types by type name. */
	types: Record<string, AnyNodeType>;
	nodes: INode[];
	connections: IConnections;
	credentialsHelper: MemoryCredentialsHelper;
	executionId: string;
}

/**
 * What n8n's server hands the engine about itself (`IWorkflowExecuteAdditionalData`), with the
 * in-memory credentials: enough for a node's context to resolve parameters, credentials and requests.
 */
export function engineAdditionalData(credentialsHelper: MemoryCredentialsHelper, executionId: string): any {
	return {
		credentialsHelper,
		currentNodeExecutionIndex: 0,
		variables: {},
		executionId,
		// must be valid URLs: n8n-core builds $resumeWebhookUrl and friends from them
		...Object.fromEntries(
			[
				'restApiUrl',
				'instanceBaseUrl',
				'formBaseUrl',
				'formWaitingBaseUrl',
				'formTestBaseUrl',
				'webhookBaseUrl',
				'webhookWaitingBaseUrl',
				'webhookTestBaseUrl',
				'mcpBaseUrl',
				'mcpTestBaseUrl',
			].map((key) => [key, `http://127.0.0.1:5678/${key}`]),
		),
		logAiEvent: () => {},
		getRunExecutionData: async () => undefined,
		executeWorkflow: async () => {
			throw new Error('not supported in tests');
		},
		startRunnerTask: async () => {
			throw new Error('not supported in tests');
		},
	};
}


/**
 * Runs a workflow through n8n-core's `WorkflowExecute` from its "Input" node, with the additional
 * data n8n's server gives a manual run; `runNode` and the agent-tool harness build on it.
 */
export function startWorkflow(setup: WorkflowSetup): Promise<IRun> & { cancel(): void } {
	const workflow: WorkflowType = new n8nWorkflow.Workflow({
		id: setup.id,
		name: setup.name,
		active: false,
		nodeTypes: new NodeTypes(setup.types),
		settings: { executionOrder: 'v1' },
		staticData: {},
		nodes: setup.nodes,
		connections: setup.connections,
	});
	const additionalData = engineAdditionalData(setup.credentialsHelper, setup.executionId);
	additionalData.hooks = new n8nCore.ExecutionLifecycleHooks('manual', setup.executionId, {
		id: workflow.id,
		name: workflow.name,
		nodes: [],
		connections: {},
		active: false,
		settings: {},
	});
	const workflowExecute = new n8nCore.WorkflowExecute(additionalData, 'manual');
	const start = workflow.getNode('Input');
	return CORE_MAJOR >= 2 ? workflowExecute.run({ workflow, startNode: start }) : workflowExecute.run(workflow, start);
}

let executionCounter = 0;

export function startNode(options: RunNodeOptions): RunningNode {
	const credentialTypes: Record<string, ICredentialType> = { nexthinkApi: new NexthinkApi() };
	const credentialsStore = Object.fromEntries(Object.entries(options.credentials ?? {}).map(([k, v]) => [k, { ...v }]));
	const credentialsHelper = new MemoryCredentialsHelper(credentialTypes, credentialsStore);
	const typeName = options.typeName ?? 'test.nodeUnderTest';
	const described = (options.nodeType as IVersionedNodeType).nodeVersions
		? (options.nodeType as IVersionedNodeType).currentVersion
		: (options.nodeType as INodeType).description.version;
	const latest = Array.isArray(described) ? Math.max(...described) : described;
	const typeVersion = options.typeVersion ?? latest;
	const nodeCredentials = Object.fromEntries(Object.keys(credentialsStore).map((t) => [t, { id: `cred-${t}`, name: t }]));
	const cancelable = startWorkflow({
		id: 'wf-test',
		name: 'test',
		types: { 'test.input': inputNode(options.items ?? [{ json: {} }]), [typeName]: options.nodeType },
		nodes: [
			{ id: 'n1', name: 'Input', type: 'test.input', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'n2',
				name: 'Node',
				type: typeName,
				typeVersion,
				position: [200, 0],
				parameters: options.parameters,
				credentials: nodeCredentials,
				...(options.onError ? { onError: options.onError } : {}),
			},
		],
		connections: { Input: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
		credentialsHelper,
		executionId: `test-exec-${++executionCounter}`,
	});
	const result = (async (): Promise<RunNodeResult> => {
		const run: IRun = await cancelable;
		const taskData = run.data.resultData.runData.Node?.[0];
		const outputs = (taskData?.data?.main ?? []).map((output) => output ?? []);
		return { run, credentialsHelper, error: run.data.resultData.error ?? taskData?.error, items: outputs[0] ?? [], outputs };
	})();
	return { result, cancel: () => cancelable.cancel() };
}

export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	return await startNode(options).result;
}

/** Credential data pointing at a local test server through custom URLs. */
export function nexthinkCredentials(server: {
	baseUrl: string;
	tokenUrl: string;
	clientId: string;
	clientSecret: string;
}): ICredentialDataDecryptedObject {
	return credentialData(server);
}

/** n8n-core 1.x starts a 60 s interval that is not unref'd; call in afterAll so jest can exit. */
export function disposeHarness(): void {
	try {
		// resolve @n8n/di from n8n-core's own folder: 1.x carries its own copy, whose container holds the timer
		const corePackage = require.resolve('n8n-core/package.json');
		const { Container } = require(require.resolve('@n8n/di', { paths: [path.dirname(corePackage)] }));
		const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager');
		clearInterval(Container.get(SSHClientsManager).cleanupTimer);
	} catch {
		// nothing to clean up on this n8n-core version
	}
}

export interface LoadOptionsOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** The parameter being edited, e.g. `parameters.remoteAction`. */
	path: string;
}

/**
 * n8n-core's own `LoadOptionsContext` (what the editor's list searches, option lists and resource
 * mappers run in), for one node of a workflow, with the in-memory credentials above.
 */
export function loadOptionsContext(options: LoadOptionsOptions): any {
	const credentialsStore = Object.fromEntries(Object.entries(options.credentials).map(([k, v]) => [k, { ...v }]));
	const credentialsHelper = new MemoryCredentialsHelper({ nexthinkApi: new NexthinkApi() }, credentialsStore);
	const typeName = 'test.nodeUnderTest';
	const nodeTypes = new NodeTypes({ [typeName]: options.nodeType });
	const described = options.nodeType.description.version;
	const node: INode = {
		id: 'n1',
		name: 'Node',
		type: typeName,
		typeVersion: Array.isArray(described) ? Math.max(...described) : described,
		position: [0, 0],
		parameters: options.parameters,
		credentials: Object.fromEntries(Object.keys(credentialsStore).map((t) => [t, { id: `cred-${t}`, name: t }])),
	};
	const workflow: WorkflowType = new n8nWorkflow.Workflow({
		id: 'wf-options',
		name: 'options',
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
		staticData: {},
		nodes: [node],
		connections: {},
	});
	// currentNodeParameters: what n8n's server sets from the editor's request (workflow-execute-additional-data.ts getBase)
	const additionalData: any = { credentialsHelper, currentNodeParameters: options.parameters, variables: {}, restApiUrl: 'http://127.0.0.1:5678/rest', instanceBaseUrl: 'http://127.0.0.1:5678/' };
	return new n8nCore.LoadOptionsContext(workflow, node, additionalData, options.path);
}
