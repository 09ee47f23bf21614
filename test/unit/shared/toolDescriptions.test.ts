/**
 * The tool descriptions (nodes/Nexthink/shared/toolDescriptions.ts) against the nodes' own
 * parameters: every operation of every node has exactly one, shown only in the tool variant; each
 * says what the operation needs and returns; every operation with "Allow Writes When Used as a Tool"
 * states the write guard, every other one says it only reads. What the model
 * really gets, and that the guard holds, is run per operation in test/integration/toolOperations.test.ts.
 */
import type { INode, INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { NexthinkActions } from '../../../nodes/Nexthink/actions/NexthinkActions.node';
import { NexthinkEnrichment } from '../../../nodes/Nexthink/enrichment/NexthinkEnrichment.node';
import { NexthinkExport } from '../../../nodes/Nexthink/export/NexthinkExport.node';
import { TOOL_DESCRIPTION_PARAMETER, WRITES_GUARDED } from '../../../nodes/Nexthink/shared/toolDescriptions';

interface Operation {
	node: string;
	nodeType: INodeType;
	resource?: string;
	operation?: string;
	/** Its tool descriptions, with the display rule of each. */
	descriptions: INodeProperties[];
	/** Whether one of its options collections offers "Allow Writes When Used as a Tool". */
	guarded: boolean;
}

/** Whether n8n shows `property` for this resource and operation, in the node or in its tool variant. */
function shownFor(node: INodeType, property: INodeProperties, resource: string | undefined, operation: string | undefined, asTool: boolean): boolean {
	const { description } = node;
	const typeDescription = { ...description, name: asTool ? `${description.name}Tool` : description.name };
	const version = description.defaultVersion ?? (Array.isArray(description.version) ? Math.max(...description.version) : description.version);
	const values = { ...(resource !== undefined ? { resource } : {}), ...(operation !== undefined ? { operation } : {}) };
	return NodeHelpers.displayParameter(values, property, { typeVersion: version } as INode, typeDescription);
}

function operationsOf(node: INodeType): Operation[] {
	const { properties, displayName } = node.description;
	const resources = (properties.find((property) => property.name === 'resource')?.options as INodePropertyOptions[] | undefined)?.map((option) => String(option.value)) ?? [undefined];
	return resources.flatMap((resource) => {
		const operationProperty = properties.find((property) => property.name === 'operation' && shownFor(node, property, resource, undefined, false));
		const operations = (operationProperty?.options as INodePropertyOptions[] | undefined)?.map((option) => String(option.value)) ?? [undefined];
		return operations.map((operation) => {
			const shown = properties.filter((property) => shownFor(node, property, resource, operation, true));
			return {
				node: displayName,
				resource,
				operation,
				nodeType: node,
				descriptions: shown.filter((property) => property.name === TOOL_DESCRIPTION_PARAMETER),
				guarded: shown.some((property) => property.type === 'collection' && (property.options as INodeProperties[]).some((option) => option.name === 'allowWritesAsTool')),
			};
		});
	});
}

const operations = [new NexthinkExport(), new NexthinkEnrichment(), new NexthinkActions()].flatMap(operationsOf);
const table = operations.map((operation) => [[operation.node, operation.resource, operation.operation].filter(Boolean).join(' / '), operation] as const);

it('covers every operation: 5 of Export, Enrichment, 10 of Actions', () => {
	expect(table.map(([title]) => title)).toEqual([
		'Nexthink Export / downloadResults',
		'Nexthink Export / executeQuery',
		'Nexthink Export / export',
		'Nexthink Export / getStatus',
		'Nexthink Export / startExport',
		'Nexthink Enrichment',
		'Nexthink Actions / campaign / trigger',
		'Nexthink Actions / device / delete',
		'Nexthink Actions / remoteAction / get',
		'Nexthink Actions / remoteAction / getMany',
		'Nexthink Actions / remoteAction / run',
		'Nexthink Actions / spark / handOff',
		'Nexthink Actions / workflow / get',
		'Nexthink Actions / workflow / getMany',
		'Nexthink Actions / workflow / resume',
		'Nexthink Actions / workflow / run',
	]);
});

describe.each(table)('%s as a tool', (_title, operation) => {
	const [description] = operation.descriptions;
	const text = String(description?.default ?? '');

	it('has exactly one Tool Description, shown only in the tool variant', () => {
		expect(operation.descriptions).toHaveLength(1);
		expect(description.type).toBe('string');
		expect(shownFor(operation.nodeType, description, operation.resource, operation.operation, false)).toBe(false);
		expect(text.length).toBeGreaterThan(100);
		// a tool description is sent with every model call: bounded
		expect(text.length).toBeLessThanOrEqual(700);
	});

	it('says what it returns, naming the output it gives', () => {
		expect(text).toMatch(/\b(Returns|returns|Lists)\b/);
	});

	it('states the write guard exactly when the operation has "Allow Writes When Used as a Tool"', () => {
		if (operation.guarded) {
			expect(text).toContain('"Allow Writes When Used as a Tool"');
			expect(text).toContain('"nexthinkToolWrites"');
			expect(text).toMatch(/it sends nothing/);
			expect(text).not.toContain('It only reads');
		} else {
			expect(text).toContain('It only reads; it changes nothing.');
		}
	});

	it('says a query ID is a stored query, not NQL text, where it takes one', () => {
		if (['executeQuery', 'export', 'startExport'].includes(operation.operation ?? '')) {
			expect(text).toContain('the ID of a query stored in Nexthink');
			expect(text).toContain('it cannot run NQL text');
			// the query catalogue's refusal is how a model learns the queries on every n8n generation
			expect(text).toContain('call it with the query ID "?"');
		}
		if (['executeQuery', 'export', 'downloadResults'].includes(operation.operation ?? '')) expect(text).toContain('"nexthinkToolNote"');
	});
});

it('the shared write-guard sentence is used by every guarded operation but Device Delete, which says what it returns instead', () => {
	const guarded = operations.filter((operation) => operation.guarded);
	expect(guarded.map((operation) => operation.operation ?? operation.node)).toEqual(['Nexthink Enrichment', 'trigger', 'delete', 'run', 'handOff', 'resume', 'run']);
	for (const operation of guarded) {
		const text = String(operation.descriptions[0].default);
		if (operation.operation === 'delete') expect(text).toContain('"nexthinkDeletionPreview"');
		else expect(text).toContain(WRITES_GUARDED);
	}
});
