/** A resource locator of a stored object: picked from a searchable list ("From List") or typed ("By …"). */
import type { INodeProperties } from 'n8n-workflow';

export function listOrIdLocator(
	field: Pick<INodeProperties, 'displayName' | 'name' | 'description' | 'displayOptions'> & { mode: 'list' | 'id' },
	searchListMethod: string,
	byId: { displayName: string; placeholder: string; hint?: string },
	listHint?: string,
): INodeProperties {
	const { mode, ...shown } = field;
	return {
		...shown,
		type: 'resourceLocator',
		default: { mode, value: '' },
		required: true,
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', hint: listHint, typeOptions: { searchListMethod, searchable: true } },
			{ name: 'id', type: 'string', ...byId },
		],
	};
}
