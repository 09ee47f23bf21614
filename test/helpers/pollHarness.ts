/**
 * Runs a polling trigger of this package the way n8n's active-workflow machinery does, in process:
 * one n8n-core `PollContext` per activated trigger, reused for every poll (as `ActiveWorkflows` /
 * `ActiveWorkflowTriggers` create it once per activation), and each poll run through n8n-core's own
 * `TriggersAndPollers` (`runPoll` in 1.x, `runPollFunction` in 2.x). The node's static data lives on
 * the workflow object, as in n8n; `restart()` builds a new workflow from the static data as JSON,
 * which is what n8n saves and reads back.
 *
 * Under the `n8n1` jest project `n8n-core` and `n8n-workflow` are the 1.x copies (jest.config.js).
 */
import * as path from 'node:path';

import type { ICredentialDataDecryptedObject, IDataObject, INode, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import { NexthinkApi } from '../../credentials/NexthinkApi.credentials';
import { engineAdditionalData, MemoryCredentialsHelper, NodeTypes } from './harness';

const n8nWorkflow = require('n8n-workflow');
const n8nCore = require('n8n-core');
const CORE_MAJOR = Number(require('n8n-core/package.json').version.split('.')[0]);

/** n8n-core's TriggersAndPollers, from the DI container of that n8n-core copy. */
function triggersAndPollers(): { run(workflow: unknown, node: INode, context: unknown): Promise<INodeExecutionData[][] | null> } {
	const corePackage = require.resolve('n8n-core/package.json');
	const { Container } = require(require.resolve('@n8n/di', { paths: [path.dirname(corePackage)] }));
	if (CORE_MAJOR >= 2) {
		const service = Container.get(n8nCore.TriggersAndPollers);
		return { run: async (workflow, node, context) => await service.runPollFunction(workflow, node, context) };
	}
	const { TriggersAndPollers } = require('n8n-core/dist/execution-engine/triggers-and-pollers');
	const service = Container.get(TriggersAndPollers);
	return { run: async (workflow, node, context) => await service.runPoll(workflow, node, context) };
}

export interface PollTriggerOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** `trigger`: an active workflow's poll; `manual`: the editor's *Fetch Test Event*. */
	mode?: 'trigger' | 'manual';
}

export interface PollOutcome {
	/** The items the poll returned (what n8n would emit), or null for none. */
	items: INodeExecutionData[] | null;
	/** The error the poll threw (what n8n records as the trigger's failed execution). */
	error?: any;
}

export interface PollingTrigger {
	poll(): Promise<PollOutcome>;
	/** The node's static data (`getWorkflowStaticData('node')`), live. */
	staticData(): IDataObject;
	/** A new workflow and context, with the static data as n8n stores it (JSON), as after an n8n restart. */
	restart(): void;
	credentialsHelper: MemoryCredentialsHelper;
	/** The messages logged through n8n's logger (any level) since this trigger was made, oldest first. */
	logged: string[];
}

let pollCounter = 0;

/** The lists that receive what n8n's logger logs; the logger is n8n-core's one instance, shared by every context. */
const logLists = new Set<string[]>();
const patchedLoggers = new WeakSet<object>();

/** Copies every message of `logger` into `logged` (the context's `logger` property cannot be replaced). */
function recordLogs(logger: any, logged: string[]): void {
	logLists.add(logged);
	if (patchedLoggers.has(logger)) return;
	patchedLoggers.add(logger);
	for (const level of ['error', 'warn', 'info', 'debug']) {
		const original = logger[level].bind(logger);
		logger[level] = (message: string, meta?: unknown) => {
			for (const list of logLists) list.push(message);
			original(message, meta);
		};
	}
}

export function pollingTrigger(options: PollTriggerOptions): PollingTrigger {
	const credentialsStore = Object.fromEntries(Object.entries(options.credentials).map(([k, v]) => [k, { ...v }]));
	const credentialsHelper = new MemoryCredentialsHelper({ nexthinkApi: new NexthinkApi() }, credentialsStore);
	const typeName = 'test.triggerUnderTest';
	const nodeTypes = new NodeTypes({ [typeName]: options.nodeType });
	const node: INode = {
		id: 'n1',
		name: 'Trigger',
		type: typeName,
		typeVersion: options.nodeType.description.version as number,
		position: [0, 0],
		parameters: options.parameters,
		credentials: Object.fromEntries(Object.keys(credentialsStore).map((t) => [t, { id: `cred-${t}`, name: t }])),
	};
	const mode = options.mode ?? 'trigger';
	const runner = triggersAndPollers();
	let workflow: any;
	let context: any;
	const build = (staticData: IDataObject) => {
		workflow = new n8nWorkflow.Workflow({
			id: 'wf-trigger',
			name: 'trigger',
			active: mode === 'trigger',
			nodeTypes,
			settings: { executionOrder: 'v1' },
			staticData,
			nodes: [node],
			connections: {},
		});
		const additionalData = engineAdditionalData(credentialsHelper, `test-poll-${++pollCounter}`);
		const fail = () => {
			throw new Error('the harness reads what poll() returns; n8n emits it');
		};
		context = new n8nCore.PollContext(workflow, node, additionalData, mode, mode === 'manual' ? 'manual' : 'activate', fail, fail);
		recordLogs(context.logger, logged);
	};
	const logged: string[] = [];
	build({});
	return {
		async poll() {
			try {
				const result = await runner.run(workflow, node, context);
				return { items: result === null ? null : result[0] };
			} catch (error) {
				return { items: null, error };
			}
		},
		staticData: () => workflow.getStaticData('node', node) as IDataObject,
		restart() {
			build(JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject);
		},
		credentialsHelper,
		logged,
	};
}
