// @ts-check
'use strict';

const crypto = require('node:crypto');

/**
 * State shared by the three action APIs (remote actions, workflows, campaigns): the objects that
 * exist (the catalog), every request triggered and its per-target executions, and how an execution's
 * status moves on. Nexthink reports outcomes only through NQL, so the executions are read through the
 * NQL tables `remote_action.executions`, `workflow.executions` and `campaign.responses`: a test (or
 * the demo estate) registers a stored query over one of them with `addStatusQuery`, and every run of
 * that query (execute, or export start) counts as one poll of the rows it returns.
 *
 * Progression of one execution (target): while not final, the first read shows the table's first
 * waiting status (`pending`), later reads the second (`in_progress` where the table has one). It
 * becomes final when it was read more than `actionCompleteAfterPolls` times **and**
 * `actionCompleteAfterMs` passed since it started (server clock), like an export. The final status
 * comes from the object's `outcome(target)` (default: success / answered for a known target). A
 * target whose outcome says `never` (an offline device, a user who ignores the campaign) stays
 * waiting; once the request's expiry passes it ends `expired`. A workflow with `waitForEvent` keeps
 * its executions `waiting` until the wait-for-event trigger resumes them; they then progress as above,
 * counted from the resume. A final status is kept (it never changes back).
 *
 * The status names beyond `success`, `failure` and `answered` are not documented by Nexthink; the
 * ones used here are listed in `STATUSES` and in README.md. Two live options make the answers vary
 * where Nexthink's are not known (nql-datamodel.md, "Result column names and status values", beside
 * the project root), so that clients are tested against each variant:
 * - `actionWaitingStates: 'unlisted'`: the not-yet-final statuses take spellings a client would not
 *   list (`STATUSES.<kind>.unlistedWaiting`, e.g. `targeted` for a campaign user who has not
 *   answered) instead of `pending` / `in_progress` / `waiting`;
 * - `actionColumnNames: 'qualified'`: status queries name the table's own fields fully qualified
 *   (`remote_action.execution.status`, `workflow.execution.execution_id`, `campaign.response.state`)
 *   as Nexthink's exports do; linked objects' fields (`device.collector.uid`, `user.sid`,
 *   `remote_action.name`) keep their names.
 *
 * @typedef {'remote_action' | 'workflow' | 'campaign'} ActionKind
 * @typedef {import('./inventory').Inventory} Inventory
 * @typedef {import('./inventory').InventoryObject} InventoryObject
 *
 * @typedef {object} Outcome
 * @property {string} [status]         final status: success | failure (remote actions, workflows), answered | declined (campaigns)
 * @property {string} [statusDetails]  `status_details`
 * @property {Record<string, string>} [outputs]  remote actions: output id → value (`outputs` as JSON text)
 * @property {string} [outcome]        workflows: `outcome`
 * @property {string} [outcomeDetails] workflows: `outcome_details`
 * @property {boolean} [never]         never reaches a final status by itself (expires at the request's expiry)
 * @property {number} [completeAfterPolls]  this target only
 * @property {number} [completeAfterMs]     this target only
 *
 * @typedef {object} Target
 * @property {unknown} input               the identifier as sent (a collector UID string, a SID, a v2 identifier object)
 * @property {number} index                position in the request's list
 * @property {'device' | 'user'} type
 * @property {InventoryObject | undefined} object  the inventory object it resolved to, if any
 *
 * @typedef {(target: Target) => Outcome | undefined} OutcomeFunction
 *
 * @typedef {object} RemoteActionInput
 * @property {string} id
 * @property {string} [name]
 * @property {string} [description]
 * @property {boolean} [usedByWindows]
 * @property {boolean} [usedByMacOs]
 * @property {string[]} [options]
 * @property {boolean} [allowCustomValue]
 *
 * @typedef {object} RemoteActionSpec
 * @property {string} id                   NQL ID, e.g. '#restart_service'
 * @property {string} name
 * @property {string} [uuid]
 * @property {string} [description]
 * @property {string} [origin]
 * @property {string} [builtInContentVersion]
 * @property {Array<'DATA_COLLECTION' | 'REMEDIATION'>} [purpose]
 * @property {boolean} [apiEnabled]        default true
 * @property {boolean} [manualEnabled]
 * @property {boolean} [workflowEnabled]
 * @property {boolean} [manualAllowMultipleDevices]
 * @property {'LOCAL_SYSTEM' | 'INTERACTIVE_USER' | 'DELEGATE_TO_SERVICE'} [runAs]
 * @property {number} [timeoutSeconds]
 * @property {boolean} [hasScriptWindows]
 * @property {boolean} [hasScriptMacOs]
 * @property {string} [executionServiceDelegate]
 * @property {RemoteActionInput[]} [inputs]
 * @property {Array<{ id: string, name?: string, type?: string, description?: string, usedByWindows?: boolean, usedByMacOs?: boolean }>} [outputs]
 * @property {OutcomeFunction} [outcome]
 *
 * @typedef {object} WorkflowSpec
 * @property {string} id                   NQL ID
 * @property {string} name
 * @property {string} [uuid]
 * @property {string} [description]
 * @property {'ACTIVE' | 'INACTIVE'} [status]  default ACTIVE
 * @property {'USER' | 'DEVICE' | 'USER_AND_DEVICE' | 'NONE'} [dependency]  default DEVICE
 * @property {{ apiEnabled?: boolean, manualEnabled?: boolean, manualMultipleEnabled?: boolean, schedulerEnabled?: boolean }} [triggerMethods]  default API only
 * @property {string} [lastUpdateTime]
 * @property {Array<{ id: string, options?: string[], allowCustomValue?: boolean }>} [parameters]
 * @property {boolean} [waitForEvent]      executions wait for the wait-for-event trigger
 * @property {OutcomeFunction} [outcome]
 *
 * @typedef {object} CampaignSpec
 * @property {string} id                   NQL ID
 * @property {string} name
 * @property {boolean} [apiEnabled]        default true
 * @property {string[]} [parameters]       parameter ids the trigger must give exactly
 * @property {OutcomeFunction} [outcome]
 *
 * @typedef {object} Execution
 * @property {ActionKind} kind
 * @property {string} requestId
 * @property {string | undefined} executionId  workflows
 * @property {string} objectId             the object's NQL ID
 * @property {string} objectName
 * @property {Target} target
 * @property {Outcome} outcome
 * @property {number} requestTime          server clock, ms
 * @property {number} startedAt            server clock, ms (the resume time after a wait-for-event trigger)
 * @property {number} polls                status-query reads since it started
 * @property {number | undefined} expiresAt
 * @property {boolean} waiting             workflows: waiting for the wait-for-event trigger
 * @property {Array<Record<string, string>>} resumes  parameters of each wait-for-event trigger received
 * @property {{ status: string, time: number } | undefined} final
 *
 * @typedef {object} ActionRequest
 * @property {ActionKind} kind
 * @property {string} requestId
 * @property {string} objectId
 * @property {string} clientId
 * @property {number} createdAt
 * @property {unknown} body                the parsed request body
 * @property {Execution[]} executions
 */

const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const SID_PATTERN = /^S(-\d+){2,10}$|^0$/;
const UPN_PATTERN = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;

/**
 * Waiting and final statuses per table (final ones are never left). `unlistedWaiting` are the
 * waiting ones under `actionWaitingStates: 'unlisted'`, position for position.
 */
const STATUSES = {
	remote_action: { waiting: ['pending', 'in_progress'], unlistedWaiting: ['waiting_for_device', 'executing'], final: ['success', 'failure', 'expired'] },
	workflow: { waiting: ['in_progress', 'waiting'], unlistedWaiting: ['executing', 'waiting_for_event'], final: ['success', 'failure'] },
	campaign: { waiting: ['pending'], unlistedWaiting: ['targeted'], final: ['answered', 'declined', 'expired'] },
};

/** How the fully-qualified names of a table's own fields begin (`actionColumnNames: 'qualified'`). */
const OWN_FIELD_PREFIX = { remote_action: 'remote_action.execution', workflow: 'workflow.execution', campaign: 'campaign.response' };

/**
 * A status query's column as the answer names it: under `qualified`, a table's own field (a name
 * without a dot, or a typed output `outputs.<id>`) gets the table's prefix; a linked object's field
 * (`device.name`, `remote_action.nql_id`) keeps its name.
 * @param {ActionKind} kind
 * @param {string} column
 * @param {'short' | 'qualified'} spelling
 */
function spellColumn(kind, column, spelling) {
	if (spelling !== 'qualified' || (column.includes('.') && !column.startsWith('outputs.'))) return column;
	return `${OWN_FIELD_PREFIX[kind]}.${column}`;
}

/** Execute's JSON types of the timestamp columns, in both spellings. */
const COLUMN_TYPES = /** @type {Record<string, 'timestamp'>} */ (
	Object.fromEntries(
		['time', 'request_time'].flatMap((column) => [
			[column, 'timestamp'],
			...Object.values(OWN_FIELD_PREFIX).map((prefix) => [`${prefix}.${column}`, 'timestamp']),
		]),
	)
);

/** NQL table of each kind and its columns, in order. */
const TABLES = {
	'remote_action.executions': {
		kind: /** @type {ActionKind} */ ('remote_action'),
		header: [
			'request_id',
			'remote_action.nql_id',
			'remote_action.name',
			'device.name',
			'device.uid',
			'device.collector.uid',
			'trigger_method',
			'purpose',
			'time',
			'status',
			'status_details',
			'outputs',
		],
	},
	'workflow.executions': {
		kind: /** @type {ActionKind} */ ('workflow'),
		header: [
			'request_id',
			'execution_id',
			'request_time',
			'workflow.nql_id',
			'workflow.name',
			'device.name',
			'device.collector.uid',
			'user.name',
			'user.sid',
			'user.upn',
			'trigger_method',
			'time',
			'status',
			'status_details',
			'outcome',
			'outcome_details',
		],
	},
	'campaign.responses': {
		kind: /** @type {ActionKind} */ ('campaign'),
		header: ['request_id', 'campaign.nql_id', 'campaign.name', 'user.name', 'user.sid', 'user.upn', 'request_time', 'time', 'state'],
	},
};

/**
 * A base table, or a per-object one: `remote_action.#<id>.executions` (the remote action's rows, its
 * outputs as typed columns `outputs.<output id>` instead of the one `outputs` text) or
 * `campaign.#<id>.responses` (the campaign's rows).
 * @typedef {keyof typeof TABLES | string} ActionTable
 */

const PER_REMOTE_ACTION = /^remote_action\.(#[^.\s]+)\.executions$/;
const PER_CAMPAIGN = /^campaign\.(#[^.\s]+)\.responses$/;

/** @param {string} kind @param {string} id */
function requireNqlId(kind, id) {
	if (typeof id !== 'string' || id.length === 0) throw new Error(`${kind}: id (the NQL ID) must be a non-empty string`);
}

/** A stable UUID-shaped id derived from a name (so the same catalog gives the same uuids). @param {string} name */
function stableUuid(name) {
	const hex = crypto.createHash('sha1').update(name).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** @param {RemoteActionSpec} spec */
function normalizeRemoteAction(spec) {
	requireNqlId('addRemoteAction', spec.id);
	return {
		...spec,
		uuid: spec.uuid ?? stableUuid(`remote_action:${spec.id}`),
		apiEnabled: spec.apiEnabled ?? true,
		inputs: (spec.inputs ?? []).map((input) => ({ ...input, options: input.options ?? [], allowCustomValue: input.allowCustomValue ?? input.options === undefined })),
		outputs: spec.outputs ?? [],
	};
}

/** @typedef {ReturnType<typeof normalizeRemoteAction>} RemoteAction */

/**
 * The API's `RemoteAction` object (every property the schema requires).
 * @param {RemoteAction} ra
 */
function remoteActionJson(ra) {
	return {
		id: ra.id,
		uuid: ra.uuid,
		name: ra.name,
		description: ra.description ?? '',
		origin: ra.origin ?? 'Custom',
		builtInContentVersion: ra.builtInContentVersion ?? '',
		purpose: ra.purpose ?? ['REMEDIATION'],
		targeting: {
			apiEnabled: ra.apiEnabled,
			manualEnabled: ra.manualEnabled ?? true,
			workflowEnabled: ra.workflowEnabled ?? true,
			manualAllowMultipleDevices: ra.manualAllowMultipleDevices ?? false,
		},
		scriptInfo: {
			executionServiceDelegate: ra.executionServiceDelegate ?? '',
			runAs: ra.runAs ?? 'LOCAL_SYSTEM',
			timeoutSeconds: ra.timeoutSeconds ?? 120,
			hasScriptWindows: ra.hasScriptWindows ?? true,
			hasScriptMacOs: ra.hasScriptMacOs ?? false,
			inputs: ra.inputs.map((input) => ({
				id: input.id,
				name: input.name ?? input.id,
				description: input.description ?? '',
				usedByWindows: input.usedByWindows ?? true,
				usedByMacOs: input.usedByMacOs ?? false,
				options: input.options,
				allowCustomValue: input.allowCustomValue,
			})),
			outputs: ra.outputs.map((output) => ({
				id: output.id,
				name: output.name ?? output.id,
				type: output.type ?? 'string',
				description: output.description ?? '',
				usedByWindows: output.usedByWindows ?? true,
				usedByMacOs: output.usedByMacOs ?? false,
			})),
		},
	};
}

/** @param {WorkflowSpec} spec */
function normalizeWorkflow(spec) {
	requireNqlId('addWorkflow', spec.id);
	const triggers = spec.triggerMethods ?? { apiEnabled: true };
	return {
		...spec,
		uuid: spec.uuid ?? stableUuid(`workflow:${spec.id}`),
		status: spec.status ?? 'ACTIVE',
		dependency: spec.dependency ?? 'DEVICE',
		triggerMethods: {
			apiEnabled: triggers.apiEnabled ?? false,
			manualEnabled: triggers.manualEnabled ?? false,
			manualMultipleEnabled: triggers.manualMultipleEnabled ?? false,
			schedulerEnabled: triggers.schedulerEnabled ?? false,
		},
		lastUpdateTime: spec.lastUpdateTime ?? '2026-10-01T08:00:00.000Z',
		parameters: spec.parameters ?? [],
		waitForEvent: spec.waitForEvent ?? false,
	};
}

/** @typedef {ReturnType<typeof normalizeWorkflow>} Workflow */

/**
 * The API's `Workflow` object. The vendor schema's `triggerMethods` and `versions` are broken
 * self-references; `triggerMethods` is given as an object of booleans (what the PowerShell client
 * reads), `versions` as `{ version, status, parameters, hasDevice, hasUser }` (a public Go SDK's shape).
 * @param {Workflow} wf
 */
function workflowJson(wf) {
	return {
		id: wf.id,
		uuid: wf.uuid,
		name: wf.name,
		description: wf.description ?? '',
		status: wf.status,
		lastUpdateTime: wf.lastUpdateTime,
		triggerMethods: { ...wf.triggerMethods },
		versions: [
			{
				version: 1,
				status: wf.status,
				parameters: wf.parameters.map((parameter) => ({
					id: parameter.id,
					options: parameter.options ?? [],
					allowCustomValue: parameter.allowCustomValue ?? parameter.options === undefined,
				})),
				hasDevice: wf.dependency === 'DEVICE' || wf.dependency === 'USER_AND_DEVICE',
				hasUser: wf.dependency === 'USER' || wf.dependency === 'USER_AND_DEVICE',
			},
		],
	};
}

/** @param {CampaignSpec} spec */
function normalizeCampaign(spec) {
	requireNqlId('addCampaign', spec.id);
	return { ...spec, apiEnabled: spec.apiEnabled ?? true, parameters: spec.parameters ?? [] };
}

/** @typedef {ReturnType<typeof normalizeCampaign>} Campaign */

/**
 * Default outcomes: a target found in the inventory succeeds (remote actions with a value for each
 * output); a remote action on an unknown Collector never runs (it expires); a workflow target that
 * matches nothing fails; a campaign user (always a known one) answers.
 * @param {ActionKind} kind
 * @param {Target} target
 * @param {RemoteAction | undefined} ra
 * @returns {Outcome}
 */
function defaultOutcome(kind, target, ra) {
	if (kind === 'remote_action') {
		if (!target.object) return { never: true };
		return { status: 'success', outputs: Object.fromEntries((ra?.outputs ?? []).map((output) => [output.id, `${output.id} on ${target.object?.name}`])) };
	}
	if (kind === 'workflow') {
		if (!target.object) return { status: 'failure', statusDetails: `No ${target.type} matches the identifiers` };
		return { status: 'success' };
	}
	return { status: 'answered' };
}

class ActionStore {
	/**
	 * @param {object} deps
	 * @param {Inventory} deps.inventory
	 * @param {() => number} deps.now
	 * @param {{ actionCompleteAfterPolls: number, actionCompleteAfterMs: number, actionWaitingStates: 'listed' | 'unlisted', actionColumnNames: 'short' | 'qualified' }} deps.options  read live
	 */
	constructor({ inventory, now, options }) {
		this.inventory = inventory;
		this.now = now;
		this.options = options;
		/** @type {Map<string, RemoteAction>} by NQL ID */
		this.remoteActions = new Map();
		/** @type {Map<string, Workflow>} by NQL ID */
		this.workflows = new Map();
		/** @type {Map<string, Campaign>} by NQL ID */
		this.campaigns = new Map();
		/** @type {Map<string, ActionRequest>} by request id (campaigns: one per user) */
		this.requests = new Map();
		/** @type {Map<string, Execution>} workflow executions by execution id */
		this.executionsById = new Map();
	}

	/** @param {RemoteActionSpec} spec */
	addRemoteAction(spec) {
		const ra = normalizeRemoteAction(spec);
		this.remoteActions.set(ra.id, ra);
		return ra;
	}

	/** @param {WorkflowSpec} spec */
	addWorkflow(spec) {
		const wf = normalizeWorkflow(spec);
		this.workflows.set(wf.id, wf);
		return wf;
	}

	/** @param {CampaignSpec} spec */
	addCampaign(spec) {
		const campaign = normalizeCampaign(spec);
		this.campaigns.set(campaign.id, campaign);
		return campaign;
	}

	/** @param {string} uuid */
	workflowByUuid(uuid) {
		const wanted = uuid.toLowerCase();
		return [...this.workflows.values()].find((wf) => wf.uuid.toLowerCase() === wanted);
	}

	/**
	 * Records a request and one execution per target.
	 * @param {object} input
	 * @param {ActionKind} input.kind
	 * @param {string} input.objectId
	 * @param {string} input.objectName
	 * @param {string} input.clientId
	 * @param {unknown} input.body
	 * @param {Target[]} input.targets
	 * @param {number | undefined} input.expiresInMinutes
	 * @param {OutcomeFunction | undefined} input.outcome
	 * @param {RemoteAction} [input.remoteAction]
	 * @param {boolean} [input.waitForEvent]
	 * @param {string} [input.requestId]
	 */
	record(input) {
		const now = this.now();
		const requestId = input.requestId ?? crypto.randomUUID();
		/** @type {ActionRequest} */
		const request = { kind: input.kind, requestId, objectId: input.objectId, clientId: input.clientId, createdAt: now, body: input.body, executions: [] };
		for (const target of input.targets) {
			const outcome = { ...defaultOutcome(input.kind, target, input.remoteAction), ...(input.outcome?.(target) ?? {}) };
			/** @type {Execution} */
			const execution = {
				kind: input.kind,
				requestId,
				executionId: input.kind === 'workflow' ? crypto.randomUUID() : undefined,
				objectId: input.objectId,
				objectName: input.objectName,
				target,
				outcome,
				requestTime: now,
				startedAt: now,
				polls: 0,
				expiresAt: input.expiresInMinutes === undefined ? undefined : now + input.expiresInMinutes * 60000,
				waiting: Boolean(input.waitForEvent && target.object && outcome.status !== 'failure'),
				resumes: [],
				final: undefined,
			};
			request.executions.push(execution);
			if (execution.executionId) this.executionsById.set(execution.executionId, execution);
		}
		this.requests.set(requestId, request);
		return request;
	}

	/**
	 * Resumes a workflow execution waiting for its event; false when it is not waiting.
	 * @param {Execution} execution
	 * @param {Record<string, string>} parameters
	 */
	resume(execution, parameters) {
		if (!execution.waiting || this.progress(execution, false) !== 'waiting') return false;
		execution.waiting = false;
		execution.resumes.push(parameters);
		execution.polls = 0;
		execution.startedAt = this.now();
		return true;
	}

	/**
	 * The execution's status now, as the status tables show it (`actionWaitingStates`); `read`
	 * counts this as one poll (a status query returned its row).
	 * @param {Execution} execution
	 * @param {boolean} read
	 */
	statusOf(execution, read) {
		const status = this.progress(execution, read);
		const { waiting, unlistedWaiting } = STATUSES[execution.kind];
		const index = waiting.indexOf(status);
		return this.options.actionWaitingStates === 'unlisted' && index !== -1 ? unlistedWaiting[index] : status;
	}

	/**
	 * Where the execution is now, in this server's own (listed) status names; `read` as in statusOf.
	 * @param {Execution} execution
	 * @param {boolean} read
	 */
	progress(execution, read) {
		if (execution.final) return execution.final.status;
		const now = this.now();
		if (read && !execution.waiting) execution.polls += 1;
		const { outcome } = execution;
		const afterPolls = outcome.completeAfterPolls ?? this.options.actionCompleteAfterPolls;
		const afterMs = outcome.completeAfterMs ?? this.options.actionCompleteAfterMs;
		const ready = !execution.waiting && !outcome.never && execution.polls > afterPolls && now - execution.startedAt >= afterMs;
		if (ready) {
			execution.final = { status: /** @type {string} */ (outcome.status), time: now };
			return execution.final.status;
		}
		if (execution.expiresAt !== undefined && now >= execution.expiresAt) {
			execution.final = { status: 'expired', time: execution.expiresAt };
			return 'expired';
		}
		if (execution.kind === 'workflow') return execution.waiting ? 'waiting' : 'in_progress';
		if (execution.kind === 'campaign') return 'pending';
		return execution.polls <= 1 ? 'pending' : 'in_progress';
	}

	/**
	 * The NQL rows of a table, for the executions whose `column` equals `value` (every execution when
	 * `value` is undefined). `read` counts one poll for each execution returned.
	 * @param {ActionTable} table
	 * @param {string} column
	 * @param {string | undefined} value
	 * @param {boolean} [read]
	 */
	rows(table, column, value, read = true) {
		const { kind, header, base, objectId, outputIds } = this.table(table);
		const index = header.indexOf(column);
		if (index === -1) throw new Error(`${table} has no column ${column}`);
		/** @param {Execution} execution @param {boolean} reading */
		const rowOf = (execution, reading) => {
			const row = this.rowOf(base, execution, reading);
			if (!outputIds) return row;
			// Typed outputs: the `outputs` text (last column) becomes one column per output, empty until final.
			const outputs = row[row.length - 1] === '' ? {} : JSON.parse(row[row.length - 1]);
			return [...row.slice(0, -1), ...outputIds.map((id) => String(outputs[id] ?? ''))];
		};
		const rows = [];
		// By request id (what status queries ask for): one lookup instead of a scan of every request.
		const requests = column === 'request_id' && value !== undefined ? [this.requests.get(value)].filter((request) => request !== undefined) : this.requests.values();
		for (const request of requests) {
			if (request.kind !== kind || (objectId !== undefined && request.objectId !== objectId)) continue;
			for (const execution of request.executions) {
				const before = rowOf(execution, false);
				if (value !== undefined && before[index] !== value) continue;
				rows.push(read ? rowOf(execution, true) : before);
			}
		}
		return rows;
	}

	/**
	 * What a table name stands for: its kind, columns, the base table whose rows it shows, and for a
	 * per-object table the object (and a remote action's output ids). Throws for an unknown table or
	 * object.
	 * @param {ActionTable} table
	 * @returns {{ kind: ActionKind, header: string[], base: keyof typeof TABLES, objectId?: string, outputIds?: string[] }}
	 */
	table(table) {
		if (Object.prototype.hasOwnProperty.call(TABLES, table)) {
			const known = /** @type {keyof typeof TABLES} */ (table);
			return { kind: TABLES[known].kind, header: TABLES[known].header, base: known };
		}
		const raMatch = PER_REMOTE_ACTION.exec(table);
		if (raMatch) {
			const ra = this.remoteActions.get(raMatch[1]);
			if (!ra) throw new Error(`${table}: no remote action ${raMatch[1]}`);
			const outputIds = ra.outputs.map((output) => output.id);
			const header = [...TABLES['remote_action.executions'].header.slice(0, -1), ...outputIds.map((id) => `outputs.${id}`)];
			return { kind: 'remote_action', header, base: 'remote_action.executions', objectId: ra.id, outputIds };
		}
		const campaignMatch = PER_CAMPAIGN.exec(table);
		if (campaignMatch) {
			const campaign = this.campaigns.get(campaignMatch[1]);
			if (!campaign) throw new Error(`${table}: no campaign ${campaignMatch[1]}`);
			return { kind: 'campaign', header: TABLES['campaign.responses'].header, base: 'campaign.responses', objectId: campaign.id };
		}
		throw new Error(`table must be one of ${Object.keys(TABLES).join(', ')}, remote_action.#<id>.executions or campaign.#<id>.responses, got ${table}`);
	}

	/**
	 * @param {keyof typeof TABLES} table
	 * @param {Execution} execution
	 * @param {boolean} read
	 * @returns {string[]}
	 */
	rowOf(table, execution, read) {
		const status = this.statusOf(execution, read);
		const final = execution.final;
		const time = new Date(final ? final.time : execution.startedAt).toISOString();
		const requestTime = new Date(execution.requestTime).toISOString();
		const object = execution.target.object;
		const device = execution.target.type === 'device' ? object : undefined;
		const user = execution.target.type === 'user' ? object : undefined;
		const outcome = final && final.status !== 'expired' ? execution.outcome : {};
		const details = final?.status === 'expired' ? 'Expired before the target picked it up' : (outcome.statusDetails ?? '');
		if (table === 'remote_action.executions') {
			const ra = this.remoteActions.get(execution.objectId);
			return [
				execution.requestId,
				execution.objectId,
				execution.objectName,
				device?.name ?? '',
				device?.uid ?? '',
				device?.collectorUid ?? String(execution.target.input),
				'api',
				(ra?.purpose ?? ['REMEDIATION']).map((purpose) => purpose.toLowerCase()).join(', '),
				time,
				status,
				details,
				final?.status === 'success' || final?.status === 'failure' ? JSON.stringify(outcome.outputs ?? {}) : '',
			];
		}
		if (table === 'workflow.executions') {
			return [
				execution.requestId,
				/** @type {string} */ (execution.executionId),
				requestTime,
				execution.objectId,
				execution.objectName,
				device?.name ?? '',
				device?.collectorUid ?? '',
				user?.name ?? '',
				user?.sid ?? '',
				user?.upn ?? '',
				'api',
				time,
				status,
				details,
				outcome.outcome ?? '',
				outcome.outcomeDetails ?? '',
			];
		}
		return [execution.requestId, execution.objectId, execution.objectName, user?.name ?? '', user?.sid ?? '', user?.upn ?? '', requestTime, time, status];
	}
}

/**
 * Registers a stored NQL query over one of the action tables that takes one parameter (by default
 * `$request_id`) and lists the rows whose `column` (by default `request_id`) equals it. Each run reads
 * the executions now (the query is a snapshot at export start, fresh on every execute) and counts as
 * one poll of every execution it returns.
 *
 * Given only `nql` (no `table`), the NQL text itself defines the query, as in Nexthink: it must read
 * `<table> during past <n>d|h | where <column> == $<parameter> | list <columns>` (line breaks and
 * spaces free), over a table `table` accepts, with columns of that table; the query then returns
 * exactly the listed columns in that order. Without the `where` part it takes no parameter and
 * returns every row of the table (every request's: what a query that does not filter by the request
 * ID gives a client). Anything else throws, naming what is not understood.
 *
 * The answer names the columns as `options.actionColumnNames` says when it is sent (short or
 * qualified, see spellColumn).
 *
 * @typedef {object} StatusQuerySpec
 * @property {string} id                   stored query id, e.g. '#n8n_ra_status'
 * @property {ActionTable} [table]          a base table, `remote_action.#<id>.executions` or `campaign.#<id>.responses`
 * @property {string} [parameter]          default 'request_id' (the query expects `$request_id`)
 * @property {string} [column]             default 'request_id'
 * @property {string} [nql]                default: `<table> during past 7d | where <column> == $<parameter> | list <columns>`;
 *                                         without `table`: the query's definition (see above)
 *
 * @param {import('./queries').QueryRegistry} queries
 * @param {ActionStore} store
 * @param {StatusQuerySpec} spec
 */
function addStatusQuery(queries, store, spec) {
	if (spec.table === undefined) {
		if (typeof spec.nql !== 'string') throw new Error('addActionStatusQuery: give a table, or the NQL text of the query');
		const parsed = parseStatusQueryNql(store, spec.nql);
		const query = queries.add({
			id: spec.id,
			header: parsed.columns,
			parameters: parsed.parameter === undefined ? [] : [parsed.parameter],
			rows: (params) =>
				store
					.rows(parsed.table, parsed.column ?? 'request_id', parsed.parameter === undefined ? undefined : params[parsed.parameter])
					.map((row) => parsed.indexes.map((index) => row[index])),
			snapshot: true,
			columnTypes: COLUMN_TYPES,
			nql: spec.nql,
		});
		return spelledLive(query, store, parsed.kind, parsed.columns);
	}
	let table;
	try {
		table = store.table(spec.table);
	} catch (error) {
		throw new Error(`addActionStatusQuery: ${/** @type {Error} */ (error).message}`);
	}
	const parameter = spec.parameter ?? 'request_id';
	const column = spec.column ?? 'request_id';
	if (!table.header.includes(column)) throw new Error(`addActionStatusQuery: ${spec.table} has no column ${column}`);
	const query = queries.add({
		id: spec.id,
		header: [...table.header],
		parameters: [parameter],
		rows: (params) => store.rows(spec.table, column, params[parameter]),
		snapshot: true,
		columnTypes: COLUMN_TYPES,
		nql: spec.nql ?? `${spec.table} during past 7d | where ${column} == $${parameter} | list ${table.header.join(', ')}`,
	});
	return spelledLive(query, store, table.kind, [...table.header]);
}

/**
 * Makes a registered query's `header` follow `options.actionColumnNames` at every answer (execute
 * and export files read `query.header` when they answer).
 * @template {{ header: string[] }} Q
 * @param {Q} query
 * @param {ActionStore} store
 * @param {ActionKind} kind
 * @param {string[]} columns  the columns as the NQL lists them
 * @returns {Q}
 */
function spelledLive(query, store, kind, columns) {
	Object.defineProperty(query, 'header', { enumerable: true, get: () => columns.map((column) => spellColumn(kind, column, store.options.actionColumnNames)) });
	return query;
}

const STATUS_QUERY_SHAPE = /^(\S+)\s+during\s+past\s+\d+\s*(?:d|h)\s*(?:\|\s*where\s+(\S+)\s*==\s*\$([A-Za-z0-9_]+)\s*)?\|\s*list\s+([\s\S]+)$/;

/**
 * Reads the NQL text of a status query (the shape in addStatusQuery's comment); `column` and
 * `parameter` are undefined for a query without `where`.
 * @param {ActionStore} store
 * @param {string} nql
 * @returns {{ table: ActionTable, kind: ActionKind, column: string | undefined, parameter: string | undefined, columns: string[], indexes: number[] }}
 */
function parseStatusQueryNql(store, nql) {
	const match = STATUS_QUERY_SHAPE.exec(nql.trim());
	if (!match) {
		throw new Error(`addActionStatusQuery: the NQL must read "<table> during past <n>d [| where <column> == $<parameter>] | list <columns>", got ${JSON.stringify(nql)}`);
	}
	const [, tableName, column, parameter, list] = match;
	let table;
	try {
		table = store.table(tableName);
	} catch (error) {
		throw new Error(`addActionStatusQuery: ${/** @type {Error} */ (error).message}`);
	}
	if (column !== undefined && !table.header.includes(column)) throw new Error(`addActionStatusQuery: ${tableName} has no column ${column} (where)`);
	const columns = list.split(',').map((name) => name.trim());
	const unknown = columns.filter((name) => !table.header.includes(name));
	if (unknown.length > 0 || columns.length === 0) {
		throw new Error(`addActionStatusQuery: ${tableName} has no column ${unknown.join(', ') || '(empty list)'}; its columns are ${table.header.join(', ')}`);
	}
	return { table: tableName, kind: table.kind, column, parameter, columns, indexes: columns.map((name) => table.header.indexOf(name)) };
}

/**
 * The NQL a user creates in Nexthink for Wait for Results, one per table: exactly the text the
 * README gives (section "Wait for Results"; a unit test compares them), accepted by
 * addStatusQuery as the query's definition and used by the demo estate.
 */
const STATUS_QUERY_NQL = {
	'remote_action.executions':
		'remote_action.executions during past 7d | where request_id == $request_id | list request_id, device.name, device.collector.uid, status, status_details, outputs, time',
	'workflow.executions':
		'workflow.executions during past 7d | where request_id == $request_id | list request_id, execution_id, device.name, device.collector.uid, user.sid, user.upn, status, status_details, outcome, outcome_details, time',
	'campaign.responses': 'campaign.responses during past 7d | where request_id == $request_id | list request_id, user.name, user.sid, user.upn, state, time',
};

/**
 * The NQL text of a status query over a base table (what a user creates in Nexthink).
 * @param {keyof typeof TABLES} table
 * @param {string} [column]
 * @param {string} [parameter]
 */
function statusQueryNql(table, column = 'request_id', parameter = 'request_id') {
	return `${table} during past 7d | where ${column} == $${parameter} | list ${TABLES[table].header.join(', ')}`;
}

module.exports = {
	ActionStore,
	addStatusQuery,
	statusQueryNql,
	STATUS_QUERY_NQL,
	remoteActionJson,
	workflowJson,
	TABLES,
	STATUSES,
	spellColumn,
	UUID_PATTERN,
	SID_PATTERN,
	UPN_PATTERN,
};
