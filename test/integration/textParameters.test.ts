/**
 * Every text parameter and resource locator of the nodes that send requests, found in the node's own
 * description, given by an expression a list or an object: the node stops before any request (the
 * local server receives nothing, not even the token exchange) with an error saying what is wrong (each
 * field has its own wording). `String()` had sent an export ID `["a"]` as `a`. Run on both n8n
 * generations.
 */
import type { INodeTypeDescription } from 'n8n-workflow';

import { NexthinkTrigger } from '../../nodes/Nexthink/trigger/NexthinkTrigger.node';
import { nexthinkCredentials, runNode } from '../helpers/harness';
import { localServerHooks } from '../helpers/localServer';
import { RUN_NODES, shownParameters, TRIGGER_BASELINE, withValue } from '../helpers/parameterCases';
import { pollingTrigger } from '../helpers/pollHarness';

const { startNexthinkServer } = require('../server');

jest.setTimeout(60_000);

const WRONG: Array<[string, unknown]> = [
	['a list of a list', [['a']]],
	['an object', { x: 1 }],
];

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
});

localServerHooks(() => server);

describe('a text parameter given a list or an object stops the node before any request', () => {
	for (const { node, make, items, baselines } of RUN_NODES) {
		const description = make().description as INodeTypeDescription;
		const cases = Object.entries(baselines).flatMap(([branch, parameters]) =>
			[...shownParameters(description, parameters, 'string'), ...shownParameters(description, parameters, 'resourceLocator')].flatMap((parameter) =>
				WRONG.map(([what, value]) => [`${branch}: ${parameter.path.join('.')}, ${what}`, parameters, parameter, value] as const),
			),
		);

		it.each(cases)(`${node}, %s`, async (_title, parameters, parameter, value) => {
			const result = await runNode({
				nodeType: make(),
				parameters: withValue(parameters, parameter, value),
				items: (items ?? [{}]).map((json) => ({ json })),
				credentials: { nexthinkApi: nexthinkCredentials(server) },
			});
			expect(result.error?.message).toEqual(expect.any(String));
			expect(result.items).toEqual([]);
			expect(server.requests).toEqual([]);
		});
	}

	const triggerCases = shownParameters(new NexthinkTrigger().description, TRIGGER_BASELINE, 'string').flatMap((parameter) =>
		WRONG.map(([what, value]) => [`${parameter.path.join('.')}, ${what}`, parameter, value] as const),
	);

	it.each(triggerCases)('Nexthink Trigger, %s: the poll fails before any request', async (_title, parameter, value) => {
		const poll = pollingTrigger({ nodeType: new NexthinkTrigger(), parameters: withValue(TRIGGER_BASELINE, parameter, value), credentials: { nexthinkApi: nexthinkCredentials(server) } });
		const outcome = await poll.poll();
		expect(outcome.items).toBeNull();
		expect(outcome.error?.message).toEqual(expect.any(String));
		expect(server.requests).toEqual([]);
	});
});
