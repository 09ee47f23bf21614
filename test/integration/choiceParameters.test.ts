/**
 * Every options parameter (a choice) of every node, found in the node's own description, given by an
 * expression a value its panel does not offer: the node stops before any request (the local server
 * receives nothing, not even the token exchange) with an error naming the parameter, the value and
 * the values it takes (shared/parameterValues.ts). Before, several choices fell back to a default or
 * went on the wire unchecked. Run on both n8n generations, through n8n-core's engine, poll and
 * webhook contexts.
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

const BOGUS = 'no-such-choice';

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The one choice reading's message; `listedValues` checks the values it lists. */
const choiceMessage = (choice: ShownParameter) =>
	new RegExp(`"${escaped(choice.property.displayName)}" must be ${choice.values.length > 1 ? 'one of ' : ''}".*", got "${BOGUS}"\\.`);

/** The values the message lists, which must be exactly the panel's. */
function listedValues(message: string, choice: ShownParameter): string[] {
	const label = choice.property.displayName;
	const start = message.indexOf(`"${label}" must be `);
	const end = message.indexOf(`, got "${BOGUS}"`, start);
	return [...message.slice(start + label.length + 2, end).matchAll(/"([^"]*)"/g)].map((match) => match[1]).sort();
}

/** Enrichment's field entries read a name or a number for a broker or a type (enrichment/valueConversion.ts), with their own wording. */
const OWN_WORDING: Record<string, RegExp> = {
	Field: new RegExp(`"${BOGUS}" is not a field of a (device|user)`),
	'Desktop Broker': new RegExp(`virtualization/desktop_broker: "${BOGUS}" is not one of clear, citrix_cvad, .* \\(or 0–7\\)`),
	'Virtualization Type': new RegExp(`virtualization/type: "${BOGUS}" is not one of`),
};

let server: any;

beforeAll(async () => {
	server = await startNexthinkServer();
});

localServerHooks(() => server);

describe('a choice given a value its panel does not offer stops the node before any request, naming it', () => {
	for (const { node, make, items, baselines } of RUN_NODES) {
		const description = make().description as INodeTypeDescription;
		const cases = Object.entries(baselines).flatMap(([branch, parameters]) => shownParameters(description, parameters, 'options').map((choice) => ({ branch, parameters, choice })));

		it(`${node}: the baselines show every choice of the node`, () => {
			expect(new Set(cases.map(({ choice }) => choice.property.displayName))).toEqual(everyParameterName(description, 'options'));
		});

		it.each(cases.map((entry) => [`${entry.branch}: ${entry.choice.path.join('.')}`, entry]))(`${node}, %s`, async (_title, { parameters, choice }) => {
			const result = await runNode({
				nodeType: make(),
				parameters: withValue(parameters, choice, BOGUS),
				items: (items ?? [{}]).map((json) => ({ json })),
				credentials: { nexthinkApi: nexthinkCredentials(server) },
			});
			const message = String(result.error?.message ?? '');
			const own = OWN_WORDING[choice.property.displayName];
			if (own !== undefined) {
				expect(message).toMatch(own);
			} else {
				expect(message).toMatch(choiceMessage(choice));
				expect(listedValues(message, choice)).toEqual([...choice.values].sort());
			}
			expect(result.items).toEqual([]);
			expect(server.requests).toEqual([]);
		});
	}
});

describe('the triggers refuse a choice their panel does not offer, starting nothing', () => {
	const triggerChoices = shownParameters(new NexthinkTrigger().description, TRIGGER_BASELINE, 'options');

	it.each(triggerChoices.map((choice) => [choice.path.join('.'), choice]))('Nexthink Trigger, %s: the poll fails before any request', async (_title, choice) => {
		const poll = pollingTrigger({ nodeType: new NexthinkTrigger(), parameters: withValue(TRIGGER_BASELINE, choice, BOGUS), credentials: { nexthinkApi: nexthinkCredentials(server) } });
		const outcome = await poll.poll();
		expect(outcome.items).toBeNull();
		expect(String(outcome.error?.message)).toMatch(choiceMessage(choice));
		expect(listedValues(String(outcome.error?.message), choice)).toEqual([...choice.values].sort());
		expect(server.requests).toEqual([]);
	});

	const eventDescription = new NexthinkEventTrigger().description;
	const eventCases = Object.entries(EVENT_TRIGGER_BASELINES).flatMap(([branch, parameters]) =>
		shownParameters(eventDescription, parameters, 'options')
			// the setup help lists what to copy; its value is never read
			.filter((choice) => choice.values.length > 1)
			.map((choice) => [`${branch}: ${choice.path.join('.')}`, parameters, choice] as const),
	);

	it('the Event Trigger baselines show every choice it reads', () => {
		expect(new Set(eventCases.map(([, , choice]) => choice.property.displayName))).toEqual(new Set(['Channel', 'Authentication', 'Event Table', 'Respond']));
	});

	it.each(eventCases)('Nexthink Event Trigger, %s: a call is answered 500 with the choice named, and nothing starts', async (_title, parameters, choice) => {
		const trigger = await serveEventTrigger({ parameters: withValue(parameters, choice, BOGUS), credentials: { authType: 'bearer', token: 'nx-choice-token-3e8c1d' } });
		try {
			const answer = await send({ url: trigger.url, credential: { type: 'bearer', token: 'nx-choice-token-3e8c1d' }, body: '{}' });
			expect(answer.status).toBe(500);
			expect(answer.json).toMatchObject({ status: 'error', error: 'configuration', message: expect.stringMatching(choiceMessage(choice)) });
			expect(listedValues((answer.json as { message: string }).message, choice)).toEqual([...choice.values].sort());
			expect(trigger.executions).toEqual([]);
		} finally {
			await trigger.close();
		}
	});
});
