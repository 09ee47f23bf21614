/** Editor helpers: the remote actions of the locator's list, and the chosen one's script inputs for the mapper. */
import type { ILoadOptionsFunctions, INodeListSearchResult, ResourceMapperFields } from 'n8n-workflow';

import { EDITOR_CALL, mapperField, searchResults } from '../shared/editorLists';
import { isApiEnabled, listLabel, scriptInputsOf } from './answers';
import { getRemoteAction, listRemoteActions } from './api';
import { normaliseRemoteActionId } from './runInput';

export async function searchRemoteActions(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return searchResults(await listRemoteActions(this, EDITOR_CALL), listLabel, filter);
}

export async function getScriptInputs(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const raw = this.getNodeParameter('remoteAction', '', { extractValue: true });
	if (typeof raw !== 'string' || raw.trim() === '') return { fields: [] };
	const nqlId = normaliseRemoteActionId(raw);
	const remoteAction = await getRemoteAction(this, nqlId, EDITOR_CALL);
	if (!isApiEnabled(remoteAction)) {
		// The editor's warning before running: n8n shows `emptyFieldsNotice` in the mapper (workflow/methods.ts).
		return {
			fields: [],
			emptyFieldsNotice: `⚠ Remote action ${nqlId} cannot be run from n8n: its "API" checkbox is not ticked in Nexthink (Remote actions > Manage remote actions > the remote action > General). Running it would fail with HTTP 403.`,
		};
	}
	const fields = scriptInputsOf(remoteAction).map((input) => mapperField(input.id, input.name, input, true));
	// Always a notice: n8n keeps the last one shown until another replaces it (the warning above must not stay).
	return { fields, emptyFieldsNotice: 'This remote action has no script inputs' };
}
