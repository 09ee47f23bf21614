/**
 * The one place a thrown error becomes n8n's error or an item's failure (shared/nodeErrors.ts):
 * an input error keeps its message and names its field, an API error stays itself, anything else
 * keeps its message. Over real n8n: test/integration/failedItemShape.test.ts.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InputError } from '../../../nodes/Nexthink/shared/inputError';
import { failureOf, nodeErrorOf } from '../../../nodes/Nexthink/shared/nodeErrors';

const NODE = { id: 'n', name: 'Node', type: 't', typeVersion: 1, position: [0, 0], parameters: {} } as INode;

describe('nodeErrorOf', () => {
	it('turns an input error into an error on the item, naming the field', () => {
		const error = nodeErrorOf(NODE, new InputError('Limit must be a whole number from 1, got 0', 'Limit'), 3);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('Limit must be a whole number from 1, got 0');
		expect(error.description).toBe('Field: Limit');
		expect(error.context.itemIndex).toBe(3);
	});

	it('an input error without a field has no description, and no item when none is given', () => {
		const error = nodeErrorOf(NODE, new InputError('Emit is empty'));
		expect(error.message).toBe('Emit is empty');
		expect(error.description ?? undefined).toBeUndefined();
		expect(error.context.itemIndex).toBeUndefined();
	});

	it('keeps an API error as it is, and the message of anything else', () => {
		const api = new NodeApiError(NODE, { message: 'Not found', httpCode: '404' } as JsonObject, { message: 'Getting x failed (HTTP 404)', httpCode: '404' });
		expect(nodeErrorOf(NODE, api, 0)).toBe(api);
		const other = nodeErrorOf(NODE, new TypeError('x is not a function'), 1);
		expect(other).toBeInstanceOf(NodeOperationError);
		expect(other.message).toBe('x is not a function');
	});
});

describe('failureOf', () => {
	it('an input error: its message and field', () => {
		expect(failureOf(new InputError('A Collector UID is not a UUID', 'Collector UIDs'))).toEqual({ message: 'A Collector UID is not a UUID', field: 'Collector UIDs' });
	});

	it("an n8n error: its message and description, after the prefix", () => {
		const error = new NodeOperationError(NODE, 'refused', { description: 'why' });
		expect(failureOf(error, 'Not sent: ')).toEqual({ message: 'Not sent: refused', description: 'why' });
	});

	it('anything else: its message', () => {
		expect(failureOf(new Error('boom'))).toEqual({ message: 'boom' });
		expect(failureOf('text')).toEqual({ message: 'text' });
	});
});
