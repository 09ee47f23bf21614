/** The Remote Actions API's success answers (no n8n imports); undefined: not the documented body. */
import { isRecord } from '../../shared/jsonValues';
import type { NqlObject } from '../shared/nqlObjects';

/** ExecutionResponse: `requestId` (required, non-empty), `expiresInMinutes` (optional). */
export function readExecutionResponse(body: unknown): { requestId: string; expiresInMinutes?: number } | undefined {
	if (!isRecord(body)) return undefined;
	const { requestId, expiresInMinutes } = body;
	if (typeof requestId !== 'string' || requestId.trim() === '') return undefined;
	return typeof expiresInMinutes === 'number' && Number.isInteger(expiresInMinutes) ? { requestId, expiresInMinutes } : { requestId };
}

/** `targeting.apiEnabled`; false when absent (the object cannot then be triggered through the API). */
export function isApiEnabled(remoteAction: Record<string, unknown>): boolean {
	const targeting = remoteAction.targeting;
	return isRecord(targeting) && targeting.apiEnabled === true;
}

export interface ScriptInput {
	id: string;
	name: string;
	description: string;
	options: string[];
	allowCustomValue: boolean;
}

/** `scriptInfo.inputs[]`, tolerant of missing members (an input without options allows free text). */
export function scriptInputsOf(remoteAction: Record<string, unknown>): ScriptInput[] {
	const scriptInfo = remoteAction.scriptInfo;
	const inputs = isRecord(scriptInfo) && Array.isArray(scriptInfo.inputs) ? scriptInfo.inputs : [];
	const out: ScriptInput[] = [];
	for (const input of inputs) {
		if (!isRecord(input) || typeof input.id !== 'string' || input.id === '') continue;
		const options = Array.isArray(input.options) ? input.options.filter((option): option is string => typeof option === 'string') : [];
		out.push({
			id: input.id,
			name: typeof input.name === 'string' && input.name !== '' ? input.name : input.id,
			description: typeof input.description === 'string' ? input.description : '',
			options,
			allowCustomValue: options.length === 0 || input.allowCustomValue !== false,
		});
	}
	return out;
}

/** Label of a remote action in the editor's list; one that is not API-enabled says so. */
export function listLabel(remoteAction: NqlObject): string {
	const name = typeof remoteAction.name === 'string' && remoteAction.name !== '' ? remoteAction.name : remoteAction.id;
	return isApiEnabled(remoteAction) ? `${name} (${remoteAction.id})` : `${name} (${remoteAction.id}) — API not enabled, cannot be run from n8n`;
}
