/**
 * Whether a poll's answer is the query's result and the guard against mass removal (both
 * resultCheck.ts): pure rules, each variant of an answer that is not the result.
 */
import {
	checkAnswer,
	checkRemovals,
	readRemovalLimit,
	RemovalLimitError,
	ResultCheckError,
	type QueryAnswer,
} from '../../../nodes/Nexthink/trigger/resultCheck';
import { InputError } from '../../../nodes/Nexthink/shared/inputError';

const QUALIFIED = ['device.name', 'device.uid', 'device.operating_system.name'];
const SHORT = ['name', 'uid', 'operating_system.name'];
const byUid = { keyColumns: ['device.uid'], compareColumns: [] as string[] };
const answer = (columns: string[], rows: Array<Record<string, unknown>> = []): QueryAnswer => ({ columns, rows, source: 'the results file of export x1' });

describe('checkAnswer', () => {
	it('resolves the Key and Compare Columns as the answer spells them: equal, or the one column ending with "." + the name', () => {
		const short = { keyColumns: ['uid'], compareColumns: ['operating_system.name'] };
		expect(checkAnswer(answer(QUALIFIED), short, 10)).toEqual({ keyColumns: ['device.uid'], compareColumns: ['device.operating_system.name'] });
		expect(checkAnswer(answer(SHORT), short, 10)).toEqual(short);
		expect(checkAnswer(answer(QUALIFIED), byUid, 10)).toEqual(byUid);
		// a header-only answer is the query's empty result: every previous row may be removed
		expect(checkAnswer(answer(QUALIFIED), byUid, 10)).toEqual(byUid);
	});

	it('refuses an answer whose columns lack a Key or Compare Column, listing the columns that arrived', () => {
		expect(() => checkAnswer(answer(SHORT), byUid, 10)).toThrow(
			'Key Column "device.uid" is not among the columns of the results file of export x1, so it is not the query\'s result (0 rows). The columns that arrived: "name", "uid", "operating_system.name". Nothing was compared.',
		);
		expect(() => checkAnswer(answer(QUALIFIED), { keyColumns: ['uid'], compareColumns: ['os'] }, 0)).toThrow(/^Compare Column "os" is not among the columns/);
		// also on the first poll and with rows: a CSV without the key column is never a result
		expect(() => checkAnswer(answer(['device.name'], [{ 'device.name': 'PC-1' }]), byUid, 0)).toThrow(/\(1 row\)\. The columns that arrived: "device\.name"\./);
	});

	it("refuses a proxy's one-line HTML page, showing its first 100 characters, not the whole page", () => {
		const page = `<html><head><title>Sign in</title></head><body>${'<div>please sign in</div>'.repeat(200)}</body></html>`;
		let message = '';
		try {
			checkAnswer(answer([page]), byUid, 3);
		} catch (error) {
			expect(error).toBeInstanceOf(ResultCheckError);
			message = (error as Error).message;
		}
		expect(message).toContain(`The columns that arrived: "${page.slice(0, 100)}…".`);
		expect(message.length).toBeLessThan(400);
	});

	it('an answer that names no columns counts as empty only where it cannot report a removal', () => {
		// no state, or an empty previous result: an empty result written without a header
		expect(checkAnswer(answer([]), byUid, 0)).toEqual(byUid);
		// after a result with rows: refused, naming how many rows it would have removed
		expect(() => checkAnswer(answer([]), byUid, 30)).toThrow(
			"The results file of export x1 names no columns (no header row) and holds 0 rows: it does not show the query's result, and comparing it would report 30 rows as removed. Nothing was compared.",
		);
	});

	it('a short name that fits two columns is an error naming both', () => {
		expect(() => checkAnswer(answer(['device.uid', 'user.uid']), { keyColumns: ['uid'], compareColumns: [] }, 0)).toThrow(
			'Column "uid" is ambiguous: "device.uid", "user.uid" all end with it. Give the full name of the one you mean.',
		);
	});
});

describe('Maximum Removed per Poll', () => {
	it('reads the options: empty or 0 is no limit; a bad value names the option', () => {
		expect(readRemovalLimit(undefined, '')).toEqual({ maxRemoved: 0, maxRemovedPercent: 0 });
		expect(readRemovalLimit(5, 20)).toEqual({ maxRemoved: 5, maxRemovedPercent: 20 });
		expect(() => readRemovalLimit(-1, 0)).toThrow(InputError);
		expect(() => readRemovalLimit(0, 101)).toThrow('Maximum Removed per Poll (%) must be a whole number from 0 to 100 (0: no limit), got number 101.');
		expect(() => readRemovalLimit(2.5, 0)).toThrow(/^Maximum Removed per Poll must be a whole number/);
	});

	it('fails a poll that removes more than the count or the share allows, and lets the rest through', () => {
		const limit = { maxRemoved: 10, maxRemovedPercent: 0 };
		expect(() => checkRemovals(10, 100, limit)).not.toThrow();
		expect(() => checkRemovals(11, 100, limit)).toThrow(
			'11 of the previous 100 rows (11 %) vanished at once, more than the trigger may report as removed in one poll (Maximum Removed per Poll: 10). Nothing was reported.',
		);
		const share = { maxRemoved: 0, maxRemovedPercent: 25 };
		expect(() => checkRemovals(25, 100, share)).not.toThrow();
		expect(() => checkRemovals(26, 100, share)).toThrow(RemovalLimitError);
		// one row may always go, whatever the share of a small result
		expect(() => checkRemovals(1, 2, share)).not.toThrow();
		expect(() => checkRemovals(2, 2, share)).toThrow(/2 of the previous 2 rows \(100 %\)/);
		// no limit
		expect(() => checkRemovals(100_000, 100_000, { maxRemoved: 0, maxRemovedPercent: 0 })).not.toThrow();
	});
});
