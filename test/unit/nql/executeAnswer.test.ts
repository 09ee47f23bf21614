/**
 * Bounds on an execute answer before it is parsed: its size while it arrives (the transport's
 * boundedBody with nql/executeAnswer.ts's error), and the count of values a JSON text holds.
 */
import { answerTooLarge, jsonHasMoreValuesThan, ExecuteAnswerLimitError, executionDateTimeWithZone } from '../../../nodes/Nexthink/nql/executeAnswer';
import { bodyText as answerText, boundedBody } from '../../../nodes/Nexthink/transport/streamedBodies';

/** An execute answer bounded as nql/executeApi.ts bounds it. */
const boundedAnswer = (source: AsyncIterable<Uint8Array>, maxBytes: number) => boundedBody(source, maxBytes, () => answerTooLarge(maxBytes));

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
	for (const part of parts) yield new TextEncoder().encode(part);
}

describe('jsonHasMoreValuesThan', () => {
	it.each([
		['{"data":[{"a":1,"b":2},{"a":3,"b":4}]}', 7], // 4 opening brackets and 3 commas
		['[{},{},{}]', 6],
		['[1,1,1,1]', 4],
		['{"data":["a,b,c{[", "\\",{["]}', 3], // commas and brackets inside strings, escaped quotes, do not count
		['', 0],
	])('counts %s as %i', (text, count) => {
		expect(jsonHasMoreValuesThan(text, count)).toBe(false);
		if (count > 0) expect(jsonHasMoreValuesThan(text, count - 1)).toBe(true);
	});
});

describe('boundedAnswer', () => {
	it('passes an answer of at most maxBytes and refuses one byte more, naming the option', async () => {
		expect(await answerText(boundedAnswer(chunks('ab', 'cd', 'é'), 6))).toBe('abcdé');
		await expect(answerText(boundedAnswer(chunks('ab', 'cd', 'é!'), 6))).rejects.toThrow(ExecuteAnswerLimitError);
		await expect(answerText(boundedAnswer(chunks('ab', 'cd', 'é!'), 6))).rejects.toThrow(/raise "Max Answer Size \(MB\)"/);
		expect(await answerText(boundedAnswer(chunks('x'.repeat(1000)), 0))).toHaveLength(1000);
	});

	it('stops reading the source once the bound is passed', async () => {
		let read = 0;
		async function* endless(): AsyncGenerator<Uint8Array> {
			for (;;) {
				read += 1;
				yield new Uint8Array(1024);
			}
		}
		await expect(answerText(boundedAnswer(endless(), 10 * 1024))).rejects.toThrow(ExecuteAnswerLimitError);
		expect(read).toBe(11);
	});
});

describe('executionDateTimeWithZone', () => {
	const answeredAtMs = Date.UTC(2026, 10, 23, 10, 15, 7);

	it('marks a value asked for in UTC with Z', () => {
		expect(executionDateTimeWithZone('2026-11-23T10:15:03', { utc: true, answeredAtMs })).toBe('2026-11-23T10:15:03Z');
	});

	it.each([
		['2026-11-23T11:15:03', '2026-11-23T11:15:03+01:00'],
		['2026-11-23T04:15:00', '2026-11-23T04:15:00-06:00'],
		['2026-11-23T15:45:01', '2026-11-23T15:45:01+05:30'],
		['2026-11-23T10:14:59', '2026-11-23T10:14:59Z'],
		// the execution ran a little before the answer arrived
		['2026-11-23T12:11:00', '2026-11-23T12:11:00+02:00'],
	])('reads the instance zone of %s from the moment the answer arrived', (raw, expected) => {
		expect(executionDateTimeWithZone(raw, { utc: false, answeredAtMs })).toBe(expected);
		expect(Date.parse(expected)).toBeLessThanOrEqual(answeredAtMs);
	});

	it('turns the v1 object form into the same string', () => {
		const raw = { year: 2026, month: 11, day: 23, hour: 11, minute: 15, second: 3 };
		expect(executionDateTimeWithZone(raw, { utc: false, answeredAtMs })).toBe('2026-11-23T11:15:03+01:00');
		expect(executionDateTimeWithZone(raw, { utc: true, answeredAtMs })).toBe('2026-11-23T11:15:03Z');
	});

	it('keeps a value that already names its zone', () => {
		expect(executionDateTimeWithZone('2026-11-23T11:15:03+01:00', { utc: false, answeredAtMs })).toBe('2026-11-23T11:15:03+01:00');
	});

	it('gives null rather than a guess when the offset is not near a multiple of 15 minutes, or the value is no date-time', () => {
		expect(executionDateTimeWithZone('2026-11-23T11:22:30', { utc: false, answeredAtMs })).toBeNull();
		expect(executionDateTimeWithZone('2026-11-21T10:15:03', { utc: false, answeredAtMs })).toBeNull();
		expect(executionDateTimeWithZone('yesterday', { utc: false, answeredAtMs })).toBeNull();
		expect(executionDateTimeWithZone(null, { utc: true, answeredAtMs })).toBeNull();
		expect(executionDateTimeWithZone({ year: 2026 }, { utc: true, answeredAtMs })).toBeNull();
	});
});
