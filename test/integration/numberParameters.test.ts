/**
 * Every number parameter of every node, found in the node's own description, given by an expression
 * a value that is not a number its panel allows (text, a boolean, a list, below its minimum, above its
 * maximum, a fraction where it takes whole numbers): the node stops before any request (the local
 * server receives nothing, not even the token exchange) with an error naming the parameter. Numeric
 * text is a number (`"5"`), as a CSV column or `$vars` give it. Run on both n8n generations, through
 * n8n-core's engine, poll and webhook contexts.
 */
import type { INodeTypeDescription } from 'n8n-workflow';

import { NexthinkEventTrigger } from '../../nodes/Nexthink/eventTrigger/NexthinkEventTrigger.node';
import { NexthinkTrigger } from '../../nodes/Nexthink/trigger/NexthinkTrigger.node';
import { serveEventTrigger } from '../helpers/eventTriggerHarness';
import { nexthinkCredentials, runNode } from '../helpers/harness';
import { localServerHooks } from '../helpers/localServer';
import { EVENT_TRIGGER_BASELINES, everyParameterName, RUN_NODES, shownParameters, TRIGGER_BASELINE, withValue, type ShownParameter } from '../helpers/parameterCases';
import { pollingTrigger } from '../helpers/pollHarness';

const { startNexthinkServer } = require('../server');
const { send } = require('../server/outbound');

jest.setTimeout(60_000);

/** The wrong values for a number parameter, from its panel's bounds. */
function wrongValues({ property }: ShownParameter): Array<[string, unknown]> {
	const { minValue, maxValue, numberPrecision } = (property.typeOptions ?? {}) as { minValue?: number; maxValue?: number; numberPrecision?: number };
	const wrong: Array<[string, unknown]> = [
		['text', 'ten'],
		['a boolean', true],
		['a list', [5]],
	];
	if (minValue !== undefined) wrong.push(['below its minimum', minValue - 1]);
	if (maxValue !== undefined) wrong.push(['above its maximum', maxValue + 1]);
	if (numberPrecision === 0) wrong.push(['a fraction', (minValue ?? 0) + 1.5]);
	return wrong;
}

/** The parameter as a message names it: its display name without the unit in brackets, in any case. */
const named = ({ property }: ShownParameter) => new RegExp(property.displayName.replace(/ \((Seconds|Minutes|MB|KB|%)\)$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
});

localServerHooks(() => server);

describe('a number parameter given a value its panel does not allow stops the node before any request, naming it', () => {
	for (const { node, make, items, baselines } of RUN_NODES) {
		const description = make().description as INodeTypeDescription;
		const cases = Object.entries(baselines).flatMap(([branch, parameters]) =>
			shownParameters(description, parameters, 'number').flatMap((parameter) => wrongValues(parameter).map(([what, value]) => ({ branch, parameters, parameter, what, value }))),
		);

		it(`${node}: the baselines show every number parameter of the node`, () => {
			expect(new Set(cases.map(({ parameter }) => parameter.property.displayName))).toEqual(everyParameterName(description, 'number'));
		});

		it.each(cases.map((entry) => [`${entry.branch}: ${entry.parameter.path.join('.')}, ${entry.what} (${JSON.stringify(entry.value)})`, entry]))(`${node}, %s`, async (_title, { parameters, parameter, value }) => {
			const result = await runNode({
				nodeType: make(),
				parameters: withValue(parameters, parameter, value),
				items: (items ?? [{}]).map((json) => ({ json })),
				credentials: { nexthinkApi: nexthinkCredentials(server) },
			});
			expect(String(result.error?.message ?? '')).toMatch(named(parameter));
			expect(result.items).toEqual([]);
			expect(server.requests).toEqual([]);
		});
	}
});

describe('the triggers refuse a number their panel does not allow, starting nothing', () => {
	const triggerCases = shownParameters(new NexthinkTrigger().description, TRIGGER_BASELINE, 'number').flatMap((parameter) =>
		wrongValues(parameter).map(([what, value]) => [`${parameter.path.join('.')}, ${what} (${JSON.stringify(value)})`, parameter, value] as const),
	);

	it('the Trigger baseline shows every number parameter', () => {
		expect(new Set(triggerCases.map(([, parameter]) => parameter.property.displayName))).toEqual(everyParameterName(new NexthinkTrigger().description, 'number'));
	});

	it.each(triggerCases)('Nexthink Trigger, %s: the poll fails before any request', async (_title, parameter, value) => {
		const poll = pollingTrigger({ nodeType: new NexthinkTrigger(), parameters: withValue(TRIGGER_BASELINE, parameter, value), credentials: { nexthinkApi: nexthinkCredentials(server) } });
		const outcome = await poll.poll();
		expect(outcome.items).toBeNull();
		expect(String(outcome.error?.message)).toMatch(named(parameter));
		expect(server.requests).toEqual([]);
	});

	const eventDescription = new NexthinkEventTrigger().description;
	const eventCases = Object.entries(EVENT_TRIGGER_BASELINES).flatMap(([branch, parameters]) =>
		shownParameters(eventDescription, parameters, 'number').flatMap((parameter) =>
			wrongValues(parameter).map(([what, value]) => [`${branch}: ${parameter.path.join('.')}, ${what} (${JSON.stringify(value)})`, parameters, parameter, value] as const),
		),
	);

	it('the Event Trigger baselines show every number parameter', () => {
		expect(new Set(eventCases.map(([, , parameter]) => parameter.property.displayName))).toEqual(everyParameterName(eventDescription, 'number'));
	});

	it.each(eventCases)('Nexthink Event Trigger, %s: a call is answered 500 naming it, and nothing starts', async (_title, parameters, parameter, value) => {
		const trigger = await serveEventTrigger({ parameters: withValue(parameters, parameter, value), credentials: { authType: 'bearer', token: 'nx-number-token-7d2a9f' } });
		try {
			const answer = await send({ url: trigger.url, credential: { type: 'bearer', token: 'nx-number-token-7d2a9f' }, body: '{}' });
			expect(answer.status).toBe(500);
			expect(answer.json).toMatchObject({ status: 'error', error: 'configuration', message: expect.stringMatching(named(parameter)) });
			expect(trigger.executions).toEqual([]);
		} finally {
			await trigger.close();
		}
	});
});
