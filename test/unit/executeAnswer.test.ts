/**
 * Bounds on an execute answer before it is parsed (export/shared/executeResponse.ts): its size while
 * it arrives, and the count of values a JSON text holds.
 */
import { boundedAnswer, answerText, jsonHasMoreValuesThan, ExecuteAnswerLimitError } from '../../nodes/Nexthink/export/shared/executeResponse';

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
