/**
 * The example workflows' IDs: n8n saves a workflow's static data (the Trigger's baseline, the Event
 * Trigger's repeat filter) and links its executions to it only for an ID of at most 16 characters
 * in n8n 1.x (21 in 2.x): `isWorkflowIdValid` in n8n's packages/cli/src/utils.ts.
 */
const { readExamples } = require('../../../scripts/n8n-examples');

describe('example workflows', () => {
	it('have IDs n8n 1.x and 2.x both save static data for (1 to 16 characters), each its own', () => {
		const ids = readExamples().map(({ workflow }: { workflow: { id: unknown } }) => workflow.id);
		for (const id of ids) expect(typeof id === 'string' && id.length >= 1 && id.length <= 16 ? 'ok' : id).toBe('ok');
		expect(new Set(ids).size).toBe(ids.length);
	});
});
