/**
 * The Workflows API's success answers (no n8n imports); undefined: not the documented body. Why two
 * shapes: docs/decisions.md, rows "Workflow: `triggerMethods`" and "Workflow: details".
 */
import { isRecord } from '../../shared/jsonValues';
import { isNqlObject, type NqlObject } from '../shared/nqlObjects';

/** ExecutionResponse of v1 and v2: `requestUuid` (required) and `executionsUuids` (required, at least one). */
export interface WorkflowExecutionAnswer {
	requestUuid: string;
	executionsUuids: string[];
}

export function readWorkflowExecutionResponse(body: unknown): WorkflowExecutionAnswer | undefined {
	if (!isRecord(body)) return undefined;
	const { requestUuid, executionsUuids } = body;
	if (typeof requestUuid !== 'string' || requestUuid.trim() === '') return undefined;
	if (!Array.isArray(executionsUuids) || !executionsUuids.every((id) => typeof id === 'string' && id !== '')) return undefined;
	return { requestUuid, executionsUuids: executionsUuids as string[] };
}

/** The wait-for-event trigger's 200: an array of `{ requestUuid }` (at least one). */
export function readResumeResponse(body: unknown): string[] | undefined {
	if (!Array.isArray(body) || body.length === 0) return undefined;
	const ids: string[] = [];
	for (const entry of body) {
		if (!isRecord(entry) || typeof entry.requestUuid !== 'string' || entry.requestUuid === '') return undefined;
		ids.push(entry.requestUuid);
	}
	return ids;
}

/** The details answer, an array (empty: unknown NQL ID, then null) or an object; undefined when it is neither. */
export function readWorkflowDetails(body: unknown): NqlObject | null | undefined {
	if (Array.isArray(body)) {
		if (body.length === 0) return null;
		return isNqlObject(body[0]) ? body[0] : undefined;
	}
	return isNqlObject(body) ? body : undefined;
}

/** Whether the workflow's API trigger is ticked: `triggerMethods.apiEnabled`, or `"API"` in a list of methods. */
export function isWorkflowApiEnabled(workflow: Record<string, unknown>): boolean {
	const methods = workflow.triggerMethods;
	if (Array.isArray(methods)) return methods.some((method) => typeof method === 'string' && method.toUpperCase() === 'API');
	return isRecord(methods) && methods.apiEnabled === true;
}

export function isWorkflowActive(workflow: Record<string, unknown>): boolean {
	return workflow.status === undefined || workflow.status === 'ACTIVE';
}

/** The answers of several list calls merged: the first of each workflow by `uuid` (else `id`), in the order first seen. */
export function mergeWorkflowLists(lists: ReadonlyArray<readonly NqlObject[]>): NqlObject[] {
	const seen = new Set<string>();
	const out: NqlObject[] = [];
	for (const list of lists) {
		for (const workflow of list) {
			const key = typeof workflow.uuid === 'string' && workflow.uuid !== '' ? `uuid:${workflow.uuid.toLowerCase()}` : `id:${workflow.id}`;
			if (seen.has(key)) continue;
			seen.add(key);
			out.push(workflow);
		}
	}
	return out;
}

/** Label of a workflow in the editor's list; one that cannot be run says why. */
export function workflowListLabel(workflow: NqlObject): string {
	const name = typeof workflow.name === 'string' && workflow.name !== '' ? workflow.name : workflow.id;
	const base = `${name} (${workflow.id})`;
	if (!isWorkflowApiEnabled(workflow)) return `${base} — API trigger not enabled, cannot be run from n8n`;
	if (!isWorkflowActive(workflow)) return `${base} — inactive, cannot be run`;
	return base;
}

/** Why the workflow (`null`: no workflow has that NQL ID) cannot be run from n8n, for the editor; undefined when it can. */
export function workflowWarning(nqlId: string, workflow: NqlObject | null): string | undefined {
	if (workflow === null) {
		return `Nexthink has no workflow with the NQL ID ${nqlId}. Copy it in Workflows > Manage workflows ("Copy NQL ID"); IDs are case-sensitive.`;
	}
	if (!isWorkflowApiEnabled(workflow)) {
		return `Workflow ${nqlId} cannot be run from n8n: its "API" trigger is not ticked in Nexthink (Workflows > Manage workflows > the workflow > trigger options). Running it would fail with HTTP 403.`;
	}
	if (!isWorkflowActive(workflow)) return `Workflow ${nqlId} is inactive in Nexthink: running it would fail. Activate it first.`;
	return undefined;
}

/** The parameters of the workflow's active version (`versions[].parameters`, as a Go SDK reads them); anything else gives none. */
export function workflowParametersOf(workflow: Record<string, unknown>) {
	const versions = Array.isArray(workflow.versions) ? workflow.versions.filter(isRecord) : [];
	const version = versions.find((entry) => entry.status === 'ACTIVE' || entry.isActive === true) ?? versions[0];
	const parameters = version !== undefined && Array.isArray(version.parameters) ? version.parameters : [];
	const out: Array<{ id: string; options: string[]; allowCustomValue: boolean }> = [];
	for (const parameter of parameters) {
		const id = typeof parameter === 'string' ? parameter : isRecord(parameter) && typeof parameter.id === 'string' ? parameter.id : '';
		if (id === '' || out.some((known) => known.id === id)) continue;
		const options = isRecord(parameter) && Array.isArray(parameter.options) ? parameter.options.filter((option): option is string => typeof option === 'string') : [];
		out.push({ id, options, allowCustomValue: options.length === 0 || !isRecord(parameter) || parameter.allowCustomValue !== false });
	}
	return out;
}
