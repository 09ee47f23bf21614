/**
 * What a model is told about each operation when an AI agent or an MCP client uses a node as a tool:
 * each node's `toolDescription` parameter, once per operation, shown only in the tool variant, its
 * default the text below (docs/decisions.md, "Where the tool description comes from"). Each text says
 * what the operation does, needs and returns, and for a write that it sends nothing unless allowed.
 */
import type { INodeProperties } from 'n8n-workflow';

/** The parameter's name: n8n reads this one, and adds its own only when the node has none. */
export const TOOL_DESCRIPTION_PARAMETER = 'toolDescription';

const STORED_QUERY =
	'It needs the ID of a query stored in Nexthink (e.g. #all_devices; it cannot run NQL text) and the values of its $parameters. If no query IDs are listed here, call it with the query ID "?": the refusal lists the queries it may run and their parameters.';

const ROWS_RETURNED =
	'It returns the rows as JSON objects whose keys are the query\'s columns (e.g. "device.name"), at most a set number of rows and of kilobytes: when rows were left out, the first item is a note ("nexthinkToolNote") saying how many; then tell the user that the answer is based on part of the rows.';

/** The write guard, in the words of every operation that changes something (see toolMode.ts). */
export const WRITES_GUARDED =
	'Unless the workflow\'s author allowed writes ("Allow Writes When Used as a Tool"), it sends nothing: it checks the input and reports what it would send, with a "note"; then tell the user nothing was done. Its last item, "nexthinkToolWrites", lists each request sent and its request IDs.';

const READ_ONLY = 'It only reads; it changes nothing.';

export const EXPORT_TOOL_DESCRIPTIONS: Readonly<Record<string, string>> = {
	executeQuery: `Runs a stored Nexthink NQL query at once and returns its rows (Nexthink gives about 1,000 rows at most). ${STORED_QUERY} ${ROWS_RETURNED} ${READ_ONLY}`,
	export: `Exports the results of a stored Nexthink NQL query (any number of rows; takes seconds to minutes) and returns its rows. ${STORED_QUERY} ${ROWS_RETURNED} ${READ_ONLY}`,
	startExport: `Starts an export of a stored Nexthink NQL query without waiting and returns its "exportId"; pass it to the tools that get the export's status and download its results. ${STORED_QUERY} ${READ_ONLY}`,
	getStatus: `Checks once how a Nexthink export is going, by its "exportId" (from starting the export). Returns "status": SUBMITTED or IN_PROGRESS (check again later), COMPLETED (the results can be downloaded) or ERROR (with Nexthink's "errorDescription"). ${READ_ONLY}`,
	downloadResults: `Downloads the results of a COMPLETED Nexthink export by its "exportId" and returns its rows. ${ROWS_RETURNED} ${READ_ONLY}`,
};

export const ENRICHMENT_TOOL_DESCRIPTION = `Writes values (custom fields, virtualization, Entra ID or organization fields, as set up in this tool) to a Nexthink device, user, binary or package, identified as set up in this tool (e.g. by device name). Returns one outcome per object under "enrichment": "status" (applied, valid or failed), the fields, and Nexthink's error for an object it does not know. ${WRITES_GUARDED}`;

/** Per resource, per operation. */
export const ACTIONS_TOOL_DESCRIPTIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
	remoteAction: {
		run: `Runs a Nexthink remote action (a script set up in Nexthink, named by its NQL ID such as #restart_service) on devices given by their Collector UID (device.collector.uid, a UUID; not a device name or device.uid). Returns "nexthinkRemoteAction": "status" (triggered, failed, or validated when nothing was sent), "requestId" and the devices; with results waited for, each device's outcome and outputs. ${WRITES_GUARDED}`,
		get: `Returns the details of one Nexthink remote action by its NQL ID (e.g. #restart_service): name, description, script inputs, outputs and targeting. ${READ_ONLY}`,
		getMany: `Lists the Nexthink remote actions (by default those that can be run through the API), each with its NQL ID, name, description and inputs. ${READ_ONLY}`,
	},
	workflow: {
		run: `Runs a Nexthink workflow (named by its NQL ID such as #repair_teams) on devices and/or users, identified as set up in this tool. Returns "nexthinkWorkflow": "status" (triggered, failed, or validated when nothing was sent), "requestId" and one "executionIds" entry per target. ${WRITES_GUARDED}`,
		resume: `Sends the event a waiting Nexthink workflow execution waits for ("wait for event" step): needs the workflow's UUID (not its NQL ID) and the execution's UUID. Returns "nexthinkWorkflowResume" with "status" (resumed, or validated when nothing was sent). ${WRITES_GUARDED}`,
		get: `Returns one Nexthink workflow by its NQL ID (e.g. #repair_teams): its UUID, name, status, triggers and parameters. ${READ_ONLY}`,
		getMany: `Lists the Nexthink workflows (by default those that can be triggered through the API), each with its NQL ID, UUID, name and status. ${READ_ONLY}`,
	},
	campaign: {
		trigger: `Sends a Nexthink campaign (a survey or message shown to users, named by its NQL ID such as #device_replacement_survey) to users given by their Windows SID (S-1-5-…; not a name or email). Returns "nexthinkCampaign": "status" (triggered, partial, failed, or validated when nothing was sent) and each user's request ID or Nexthink's message. ${WRITES_GUARDED}`,
	},
	device: {
		delete: `Deletes devices from the Nexthink inventory (cannot be undone; Nexthink queues the deletion): each device needs its device UID (device.uid, a UUID) and its name, e.g. from a query of devices. Returns "nexthinkDevice" per device: "status" (scheduled, invalid or failed) and the request ID. Unless the workflow's author allowed writes for this tool ("Allow Writes When Used as a Tool"), it sends nothing and returns the deletion request it would send ("nexthinkDeletionPreview") with a "note" saying so; then tell the user that nothing was deleted. Its last item, "nexthinkToolWrites", lists each request sent with its request IDs.`,
	},
	spark: {
		handOff: `Hands the person over to Nexthink Spark, the IT support agent, which continues the conversation with them in Microsoft Teams (nothing comes back here). Needs the person's work email address (UPN) and their request in their words. Returns "nexthinkSpark": "status" handedOff, failed with the reason (a 404 means Spark does not know that person), or validated when nothing was sent. ${WRITES_GUARDED}`,
	},
};

/** One `toolDescription` parameter, shown in the tool variant only, when `show` matches. */
function toolDescriptionProperty(text: string, show: Record<string, string[]>): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: TOOL_DESCRIPTION_PARAMETER,
		type: 'string',
		typeOptions: { rows: 4 },
		default: text,
		description:
			'What the model is told about this tool: what it does, what it needs and what it returns. Filled in for the operation; add what the model should know here, e.g. which stored queries it may run.',
		displayOptions: { show: { '@tool': [true], ...show } },
	};
}

export const exportToolDescriptionProperties: INodeProperties[] = Object.entries(EXPORT_TOOL_DESCRIPTIONS).map(([operation, text]) =>
	toolDescriptionProperty(text, { operation: [operation] }),
);

export const enrichmentToolDescriptionProperty: INodeProperties = toolDescriptionProperty(ENRICHMENT_TOOL_DESCRIPTION, {});

export const actionsToolDescriptionProperties: INodeProperties[] = Object.entries(ACTIONS_TOOL_DESCRIPTIONS).flatMap(([resource, operations]) =>
	Object.entries(operations).map(([operation, text]) => toolDescriptionProperty(text, { resource: [resource], operation: [operation] })),
);
