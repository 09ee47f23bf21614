/** Which event table a webhook came from: declared, read from placeholders and NQL field names, or unknown. */
import { EVENT_TABLES, guessEventTable, hasPlaceholders } from '../../../nodes/Nexthink/eventTrigger/eventTable';

describe('guessEventTable', () => {
	it('lists the 13 documented tables and the audit log', () => {
		expect(EVENT_TABLES).toHaveLength(14);
	});

	it('takes a table the body or the query declares', () => {
		expect(guessEventTable({ table: 'remote_action.executions' })).toEqual({ table: 'remote_action.executions', basis: 'declared' });
		expect(guessEventTable({ eventTable: 'web.errors' })).toEqual({ table: 'web.errors', basis: 'declared' });
		expect(guessEventTable({ monitor: 'x' }, { table: 'alert.alerts' })).toEqual({ table: 'alert.alerts', basis: 'declared' });
		expect(guessEventTable({ table: 'not.a_table' })).toEqual({ table: null, basis: 'unknown' });
	});

	it('reads placeholders left by a Test send, and field names written as NQL paths', () => {
		expect(guessEventTable({ monitor: '{{alert.monitor.name}}', status: '{{ alert.status }}' })).toEqual({ table: 'alert.alerts', basis: 'placeholders' });
		expect(guessEventTable({ 'remote_action.name': 'Clear cache', status: 'success' })).toEqual({ table: 'remote_action.executions', basis: 'placeholders' });
		expect(guessEventTable({ 'web.errors.label': 'x' })).toEqual({ table: 'web.errors', basis: 'placeholders' });
		expect(guessEventTable({ nested: { 'workflow.name': 'Disk cleanup' } })).toEqual({ table: 'workflow.executions', basis: 'placeholders' });
	});

	it('never invents a table: plain names, mixed namespaces or no object give unknown', () => {
		expect(guessEventTable({ monitor: 'CPU', status: 'open' })).toEqual({ table: null, basis: 'unknown' });
		expect(guessEventTable({ a: '{{alert.status}}', b: '{{workflow.name}}' })).toEqual({ table: null, basis: 'unknown' });
		expect(guessEventTable('text')).toEqual({ table: null, basis: 'unknown' });
		expect(guessEventTable({ 'device.name': 'PC-1' })).toEqual({ table: null, basis: 'unknown' });
	});
});

describe('hasPlaceholders', () => {
	it('flags literal {{…}} anywhere in the values', () => {
		expect(hasPlaceholders({ a: { b: ['x', 'Monitor {{alert.monitor.name}}'] } })).toBe(true);
		expect(hasPlaceholders({ a: 'CPU {high}' })).toBe(false);
		expect(hasPlaceholders({ a: 1, b: null })).toBe(false);
	});
});
