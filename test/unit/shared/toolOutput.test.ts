/**
 * What an AI agent's tool run gives the model (nodes/Nexthink/shared/toolOutput.ts): rows bounded
 * by the size of their JSON, a note on what was left out, and the tool settings' checks.
 */
import { isToolTypeName } from '../../../nodes/Nexthink/shared/toolMode';
import { jsonBytes, limitToolRows, toolMaxOutputBytes, type ToolRowsInput } from '../../../nodes/Nexthink/shared/toolOutput';

const base: Omit<ToolRowsInput, 'rows' | 'maxBytes'> = {
	otherItems: [],
	rowsAfter: 0,
	maxRows: 50,
	rowLimitOption: 'Max Rows When Used as a Tool',
	what: 'this export',
	fullResultHint: 'Run it outside the agent.',
};

/** The answer text n8n gives the model: the JSON of the output items, the note first. */
function answer(input: ToolRowsInput): string {
	const result = limitToolRows(input);
	const items = [...(result.note ? [result.note] : []), ...input.rows.slice(0, result.keptRows), ...input.otherItems];
	return JSON.stringify(items);
}

describe('limitToolRows', () => {
	it('keeps every row and adds no note when all fit and none were cut', () => {
		const rows = [{ a: '1' }, { a: '2' }];
		expect(limitToolRows({ ...base, rows, maxBytes: 1024 })).toEqual({ keptRows: 2 });
	});

	it('stays within the limit, note included, for every limit from tiny to large', () => {
		const rows = Array.from({ length: 40 }, (_, i) => ({ 'device.name': `PC-${i}`, note: 'n'.repeat(i * 7) }));
		const overs: number[] = [];
		for (let maxBytes = 700; maxBytes <= 12_000; maxBytes += 37) {
			const input = { ...base, rows, otherItems: [{ exportId: 'e1', rowCount: 40 }], maxBytes };
			const { keptRows } = limitToolRows(input);
			if (keptRows > 0 && Buffer.byteLength(answer(input)) > maxBytes) overs.push(maxBytes);
		}
		expect(overs).toEqual([]);
	});

	it('counts bytes in UTF-8, as the model receives them', () => {
		const rows = Array.from({ length: 10 }, () => ({ city: '東京'.repeat(50) })); // 300 bytes of text each
		const result = limitToolRows({ ...base, rows, maxBytes: 1600 });
		expect(result.keptRows).toBeLessThan(5);
		expect(Buffer.byteLength(answer({ ...base, rows, maxBytes: 1600 }))).toBeLessThanOrEqual(1600);
		expect(jsonBytes({ city: '東京🚀' })).toBe(Buffer.byteLength(JSON.stringify({ city: '東京🚀' })));
	});

	it('always outputs the note, also when the limit leaves room for no row', () => {
		const result = limitToolRows({ ...base, rows: [{ a: 'x'.repeat(5000) }], maxBytes: 1024 });
		expect(result.keptRows).toBe(0);
		expect(result.note).toMatchObject({ rowsShown: 0, rowsLeftOut: 1, moreRowsNotCounted: false });
		expect(result.note!.nexthinkToolNote).toContain('only 0 of 1 rows of this export are shown');
	});

	it('says how many rows the row limit cut when the total is known, and names both limits', () => {
		const rows = Array.from({ length: 50 }, (_, i) => ({ n: 'x'.repeat(100), i }));
		const result = limitToolRows({ ...base, rows, rowsAfter: 950, maxBytes: 2048 });
		expect(result.note).toMatchObject({ rowsShown: result.keptRows, rowsLeftOut: 1000 - result.keptRows, moreRowsNotCounted: false });
		expect(result.note!.nexthinkToolNote).toContain(`only ${result.keptRows} of 1,000 rows`);
		expect(result.note!.nexthinkToolNote).toContain('at most 50 rows ("Max Rows When Used as a Tool") and its output is limited to 2 KB of JSON');
		expect(result.note!.nexthinkToolNote).toContain('Run it outside the agent.');
	});

	it('names the option that set the row limit (Max Rows when the author chose fewer rows)', () => {
		const result = limitToolRows({ ...base, rows: [{ a: 1 }], rowsAfter: 'unknown', maxRows: 1, rowLimitOption: 'Max Rows', maxBytes: 4096 });
		expect(result.note!.nexthinkToolNote).toContain('at most 1 row ("Max Rows")');
		expect(result.note!.nexthinkToolNote).toContain('raise "Max Rows" in the node\'s options');
	});
});

describe('limitToolRows when the total is not known (Execute Query at Nexthink\'s row limit)', () => {
	const rows = Array.from({ length: 50 }, (_, i) => ({ a: i }));

	it('says "at least" the rows it knows of, never that they are all', () => {
		const result = limitToolRows({ ...base, rows, rowsAfter: 950, totalUnknown: true, maxBytes: 64 * 1024 });
		expect(result.keptRows).toBe(50);
		expect(result.note!.nexthinkToolNote).toMatch(/^Incomplete result: only 50 of at least 1,000 rows of this export are shown/);
		expect(result.note!.nexthinkToolNote).toContain('How many rows there are in all is not known');
		expect(result.note).toMatchObject({ rowsShown: 50, rowsLeftOut: 950, moreRowsNotCounted: true });
	});

	it('gives the plain count when the total is known', () => {
		const result = limitToolRows({ ...base, rows, rowsAfter: 950, maxBytes: 64 * 1024 });
		expect(result.note!.nexthinkToolNote).toMatch(/^Incomplete result: only 50 of 1,000 rows/);
		expect(result.note).toMatchObject({ moreRowsNotCounted: false });
	});
});

describe('toolMaxOutputBytes', () => {
	it('defaults to 32 KB and reads KB as 1,024 bytes', () => {
		expect(toolMaxOutputBytes(undefined)).toBe(32 * 1024);
		expect(toolMaxOutputBytes(8)).toBe(8192);
		expect(toolMaxOutputBytes('2.5')).toBe(2560);
	});

	it.each([0, 0.5, -1, Number.NaN, Number.POSITIVE_INFINITY, 'abc', 2_000_000, true])('refuses %p, naming the option', (value) => {
		expect(() => toolMaxOutputBytes(value)).toThrow(/^Max Output Size When Used as a Tool \(KB\) must be a number from 1 to 1,048,576/);
	});
});

describe('isToolTypeName', () => {
	it('recognises the tool variant n8n derives from a usableAsTool node', () => {
		expect(isToolTypeName('n8n-nodes-nexthink.nexthinkExportTool')).toBe(true);
		expect(isToolTypeName('n8n-nodes-nexthink.nexthinkEnrichmentTool')).toBe(true);
		expect(isToolTypeName('n8n-nodes-nexthink.nexthinkExport')).toBe(false);
		expect(isToolTypeName('Tool.nexthinkExport')).toBe(false);
	});
});
