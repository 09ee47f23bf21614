/**
 * Editor helpers: the remote action list of the resource locator, and the script inputs of the
 * chosen remote action for the "Script Inputs" mapper (names, allowed values, free text or not).
 */
import type { ILoadOptionsFunctions, INodeListSearchResult, ResourceMapperField, ResourceMapperFields } from 'n8n-workflow';

import { isApiEnabled, listLabel, scriptInputsOf } from './answers';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, getRemoteAction, listRemoteActions } from './api';
import { normaliseRemoteActionId } from './runInput';

const TIMEOUT_MS = DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000;

export async function searchRemoteActions(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const list = await listRemoteActions(this, { timeoutMs: TIMEOUT_MS });
	const needle = (filter ?? '').trim().toLowerCase();
	const results = list
		.map((remoteAction) => ({ name: listLabel(remoteAction), value: remoteAction.id }))
		.filter((entry) => needle === '' || entry.name.toLowerCase().includes(needle))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

export async function getScriptInputs(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const raw = this.getNodeParameter('remoteAction', '', { extractValue: true });
	if (typeof raw !== 'string' || raw.trim() === '') return { fields: [] };
	const nqlId = normaliseRemoteActionId(raw);
	const remoteAction = await getRemoteAction(this, nqlId, { timeoutMs: TIMEOUT_MS });
	if (!isApiEnabled(remoteAction)) {
		// The editor's warning before running: n8n shows `emptyFieldsNotice` in the mapper (workflow/methods.ts says why not a node hint).
		return {
			fields: [],
			emptyFieldsNotice: `⚠ Remote action ${nqlId} cannot be run from n8n: its "API" checkbox is not ticked in Nexthink (Remote actions > Manage remote actions > the remote action > General). Running it would fail with HTTP 403.`,
		};
	}
	const fields = scriptInputsOf(remoteAction).map((input): ResourceMapperField => {
		const fixed = !input.allowCustomValue && input.options.length > 0;
		const suggested = !fixed && input.options.length > 0 ? ` (e.g. ${input.options.join(', ')})` : '';
		return {
			id: input.id,
			displayName: `${input.name}${suggested}`,
			required: true,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
			type: fixed ? 'options' : 'string',
			...(fixed ? { options: input.options.map((option) => ({ name: option, value: option })) } : {}),
		};
	});
	// Always a notice: n8n keeps the last one shown until another replaces it (the warning above must not stay).
	return { fields, emptyFieldsNotice: 'This remote action has no script inputs' };
}
