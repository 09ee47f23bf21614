/**
 * What n8n's editor does to a node's parameters when the user changes one top-level parameter, with
 * the n8n-workflow of the jest project (1.x under `n8n1`, 2.x under `n8n2`), the generation whose
 * editor does the same:
 * 1. the parameters without defaults and hidden values (`getNodeParameters(…, false, false)`);
 * 2. the new value set, then `removeMismatchedOptionValues` (below);
 * 3. the parameters with defaults and without hidden values (`getNodeParameters(…, true, false)`),
 *    which the editor stores.
 * That is `updateNodeParameter` of editor-ui's useNodeSettingsParameters.ts; checked against the
 * editor bundles of n8n 1.123.81 and 2.41.1 (identical there). The editor's own code is not a
 * package this project can load, so step 2 is ported as it reads in
 * https://github.com/n8n-io/n8n/blob/master/packages/frontend/editor-ui/src/features/ndv/shared/ndv.utils.ts
 */
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription, NodeParameterValue } from 'n8n-workflow';

const n8nWorkflow = require('n8n-workflow');
const { NodeHelpers, isINodePropertiesList, isINodePropertyCollectionList, isINodePropertyOptionsList } = n8nWorkflow;

/**
 * Unsets each parameter that depends (by name) on the changed one, is shown after the change and
 * whose value is not "valid" for it. For collections the check compares the keys of the whole
 * node's parameters with the collection's options, so any such collection is emptied.
 */
function removeMismatchedOptionValues(nodeType: INodeTypeDescription, typeVersion: number, values: INodeParameters, changed: string): void {
	for (const prop of nodeType.properties) {
		const displayOptions = prop.displayOptions;
		if (!Object.prototype.hasOwnProperty.call(values, prop.name) || !displayOptions || !prop.options) continue;
		if (displayOptions.show?.[changed] === undefined && displayOptions.hide?.[changed] === undefined) continue;
		let valid = true;
		if (isINodePropertyCollectionList(prop.options) || isINodePropertiesList(prop.options)) {
			valid = Object.keys(values).every((key) => (prop.options as INodeProperties[]).find((option) => option.name === key) !== undefined);
		} else if (isINodePropertyOptionsList(prop.options)) {
			valid = (prop.options as INodePropertyOptions[]).some((option) => option.value === values[prop.name]);
		}
		if (!valid && NodeHelpers.displayParameter(values, prop, { typeVersion }, nodeType)) delete values[prop.name];
	}
}

/** The parameters the editor stores after the user set `name` to `value` on a node with `parameters`. */
export function editorChange(
	nodeType: INodeTypeDescription,
	typeVersion: number,
	parameters: INodeParameters,
	name: string,
	value: NodeParameterValue,
): INodeParameters {
	const node = { typeVersion, parameters } as unknown as INode;
	const before = NodeHelpers.getNodeParameters(nodeType.properties, parameters, false, false, node, nodeType) as INodeParameters;
	const changed: INodeParameters = structuredClone({ ...before, [name]: value });
	removeMismatchedOptionValues(nodeType, typeVersion, changed, name);
	return NodeHelpers.getNodeParameters(nodeType.properties, changed, true, false, { ...node, parameters: changed }, nodeType) as INodeParameters;
}
