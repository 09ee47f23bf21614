/** Remote actions and workflows as their APIs answer them (no n8n imports): objects known by NQL ID, and their lists. */
import { isRecord } from '../../shared/jsonValues';

/** A RemoteAction or Workflow object: at least a non-empty `id` (the NQL ID). */
export type NqlObject = Record<string, unknown> & { id: string };

export function isNqlObject(value: unknown): value is NqlObject {
	return isRecord(value) && typeof value.id === 'string' && value.id !== '';
}

/** A list answer (`RemoteAction[]`, `Workflow[]`), or undefined when it is not one. */
export function readNqlObjectList(body: unknown): NqlObject[] | undefined {
	return Array.isArray(body) && body.every(isNqlObject) ? body : undefined;
}
