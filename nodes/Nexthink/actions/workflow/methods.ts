/**
 * Editor helpers: the workflows of the locator's list, and the parameters mapper, which says why a workflow
 * cannot be run. Why there: docs/decisions.md, row "Warning for objects that are not API-enabled".
 */
import type { ILoadOptionsFunctions, INodeListSearchResult, ResourceMapperFields } from 'n8n-workflow';

import { EDITOR_CALL, mapperField, searchResults } from '../shared/editorLists';
import { workflowListLabel, workflowParametersOf, workflowWarning } from './answers';
import { DEPENDENCIES, getWorkflow, listWorkflowsMerged } from './api';
import { normaliseWorkflowId } from './runInput';

/** Every workflow with the API trigger (one list call per dependency), inactive ones marked. */
export async function searchWorkflows(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return searchResults(await listWorkflowsMerged(this, { dependencies: DEPENDENCIES, triggerMethods: ['API'] }, EDITOR_CALL), workflowListLabel, filter);
}

export async function getWorkflowParameters(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const raw = this.getNodeParameter('workflow', '', { extractValue: true });
	if (typeof raw !== 'string' || raw.trim() === '' || raw.trim().startsWith('=')) return { fields: [], emptyFieldsNotice: 'Choose a workflow to see its parameters' };
	const nqlId = normaliseWorkflowId(raw);
	const workflow = await getWorkflow(this, nqlId, EDITOR_CALL);
	const warning = workflowWarning(nqlId, workflow);
	// n8n keeps the last notice shown until another replaces it: every answer below has one.
	if (warning !== undefined || workflow === null) return { fields: [], emptyFieldsNotice: `⚠ ${warning}` };
	const fields = workflowParametersOf(workflow).map((parameter) => mapperField(parameter.id, parameter.id, parameter, false));
	return {
		fields,
		emptyFieldsNotice: 'Nexthink lists no parameters for this workflow. If it has some, give them under "Other Parameters".',
	};
}
