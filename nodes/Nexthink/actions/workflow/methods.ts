/**
 * Editor helpers: the workflow list of the resource locator, and the "Workflow Parameters" mapper,
 * which reads the chosen workflow's details. A workflow that cannot be run from n8n (no API trigger,
 * inactive, unknown NQL ID) shows why in the mapper, before anything runs: n8n shows a resource
 * mapper's `emptyFieldsNotice` in the editor (1.x and 2.x), whereas a node hint's display condition
 * sees only a resource locator's value, not the list entry chosen (n8n-workflow's
 * `WorkflowDataProxy`, `$parameter`).
 */
import type { ILoadOptionsFunctions, INodeListSearchResult, ResourceMapperField, ResourceMapperFields } from 'n8n-workflow';

import { workflowListLabel, workflowParametersOf, workflowWarning } from './answers';
import { DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS, DEPENDENCIES, getWorkflow, listWorkflowsMerged } from './api';
import { normaliseWorkflowId } from './runInput';

const TIMEOUT_MS = DEFAULT_WORKFLOW_REQUEST_TIMEOUT_SECONDS * 1000;

/** Every workflow with the API trigger (one list call per dependency), inactive ones marked. */
export async function searchWorkflows(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const list = await listWorkflowsMerged(this, { dependencies: DEPENDENCIES, triggerMethods: ['API'] }, { timeoutMs: TIMEOUT_MS });
	const needle = (filter ?? '').trim().toLowerCase();
	const results = list
		.map((workflow) => ({ name: workflowListLabel(workflow), value: workflow.id }))
		.filter((entry) => needle === '' || entry.name.toLowerCase().includes(needle))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

export async function getWorkflowParameters(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const raw = this.getNodeParameter('workflow', '', { extractValue: true });
	if (typeof raw !== 'string' || raw.trim() === '' || raw.trim().startsWith('=')) return { fields: [], emptyFieldsNotice: 'Choose a workflow to see its parameters' };
	const nqlId = normaliseWorkflowId(raw);
	const workflow = await getWorkflow(this, nqlId, { timeoutMs: TIMEOUT_MS });
	const warning = workflowWarning(nqlId, workflow);
	// n8n keeps the last notice shown until another replaces it: every answer below has one.
	if (warning !== undefined || workflow === null) return { fields: [], emptyFieldsNotice: `⚠ ${warning}` };
	const fields = workflowParametersOf(workflow).map((parameter): ResourceMapperField => {
		const fixed = !parameter.allowCustomValue && parameter.options.length > 0;
		const suggested = !fixed && parameter.options.length > 0 ? ` (e.g. ${parameter.options.join(', ')})` : '';
		return {
			id: parameter.id,
			displayName: `${parameter.id}${suggested}`,
			required: false,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
			type: fixed ? 'options' : 'string',
			...(fixed ? { options: parameter.options.map((option) => ({ name: option, value: option })) } : {}),
		};
	});
	return {
		fields,
		emptyFieldsNotice: 'Nexthink lists no parameters for this workflow. If it has some, give them under "Other Parameters".',
	};
}
