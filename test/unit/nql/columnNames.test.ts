/**
 * Finding a column by name however Nexthink spells it (nodes/Nexthink/nql/columnNames.ts):
 * exact, then a unique `.name` ending; two endings are an error that lists them.
 */
import { arrivedColumns, ColumnNameError, findColumn, requireColumn } from '../../../nodes/Nexthink/nql/columnNames';

describe('findColumn', () => {
	it('takes the column that equals the name, before any that ends with it', () => {
		expect(findColumn('status', ['remote_action.execution.status', 'status'])).toBe('status');
	});

	it('takes the one column that ends with "." + the name (the fully-qualified spelling)', () => {
		expect(findColumn('status', ['device.collector.uid', 'remote_action.execution.status'])).toBe('remote_action.execution.status');
		expect(findColumn('uid', ['device.uid', 'device.name'])).toBe('device.uid');
	});

	it('compares without case', () => {
		expect(findColumn('Device.UID', ['device.uid'])).toBe('device.uid');
		expect(findColumn('STATUS', ['remote_action.execution.status'])).toBe('remote_action.execution.status');
	});

	it('does not take a column whose name merely ends with the same letters', () => {
		expect(findColumn('uid', ['device.collector_uid', 'xuid'])).toBeUndefined();
	});

	it('tries every name for an exact match before any ending, in the order given', () => {
		expect(findColumn(['device.collector.uid', 'collector.uid'], ['a.collector.uid', 'device.collector.uid'])).toBe('device.collector.uid');
		expect(findColumn(['device.collector.uid', 'collector.uid'], ['collector.uid'])).toBe('collector.uid');
		expect(findColumn(['execution_id', 'id'], ['workflow.execution.execution_id'])).toBe('workflow.execution.execution_id');
	});

	it('refuses to choose between two columns that end with the name, and lists them', () => {
		expect(() => findColumn('name', ['device.name', 'user.name'])).toThrow(ColumnNameError);
		expect(() => findColumn('name', ['device.name', 'user.name'])).toThrow('Column "name" is ambiguous: "device.name", "user.name"');
	});

	it('is undefined when no column matches', () => {
		expect(findColumn('status', [])).toBeUndefined();
		expect(findColumn('status', ['state'])).toBeUndefined();
	});
});

describe('requireColumn', () => {
	it('names what is missing and lists the columns that arrived', () => {
		expect(() => requireColumn('device.uid', ['<html><body>Sign in</body></html>'], 'The key column')).toThrow(
			'The key column "device.uid" is not in the result. The columns that arrived: "<html><body>Sign in</body></html>".',
		);
	});

	it('says so when no column arrived', () => {
		expect(() => requireColumn('status', [], 'The status column')).toThrow('The status column "status" is not in the result. No columns arrived.');
	});
});

describe('arrivedColumns', () => {
	it('lists at most 20 columns and counts the rest', () => {
		const columns = Array.from({ length: 23 }, (_, i) => `c${i}`);
		expect(arrivedColumns(columns)).toMatch(/"c19" and 3 more\.$/);
		expect(arrivedColumns(columns)).not.toContain('"c20"');
	});
});
