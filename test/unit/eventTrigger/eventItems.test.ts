/** The items of a call: one per webhook event, one per exporter row with the batch's identity, one per workflow call. */
import { parseBodyText } from '../../../nodes/Nexthink/eventTrigger/bodyShape';
import { exporterItems, webhookItems, workflowCallItem } from '../../../nodes/Nexthink/eventTrigger/eventItems';

const call = { method: 'POST', headers: { 'content-type': 'application/json' }, query: { source: 'nx' }, receivedAt: '2026-11-27T10:00:00.000Z' };

describe('webhookItems', () => {
	it('makes one item of an event, with the table it believes it saw and whether it is a test send', () => {
		const [item] = webhookItems(parseBodyText('{"table":"alert.alerts","monitor":"CPU","status":"open"}', false), call);
		expect(item).toEqual({
			body: { table: 'alert.alerts', monitor: 'CPU', status: 'open' },
			headers: call.headers,
			query: call.query,
			method: 'POST',
			nexthink: { channel: 'webhook', eventTable: 'alert.alerts', eventTableBasis: 'declared', isTest: false, receivedAt: call.receivedAt, eventIndex: 0, eventCount: 1 },
		});
		const [test] = webhookItems(parseBodyText('{"monitor":"{{alert.monitor.name}}"}', false), call);
		expect(test.nexthink).toMatchObject({ isTest: true, eventTable: 'alert.alerts', eventTableBasis: 'placeholders' });
	});

	it('keeps an event whose field holds an array of objects whole, and splits an array or NDJSON of events', () => {
		expect(webhookItems(parseBodyText('{"devices":[{"n":1},{"n":2}]}', false), call)).toHaveLength(1);
		expect(webhookItems(parseBodyText('[{"a":1},{"a":2}]', false), call).map((item) => item.body)).toEqual([{ a: 1 }, { a: 2 }]);
		expect(webhookItems(parseBodyText('{"a":1}\n{"a":2}\n{"a":3}', false), call).map((item) => (item.nexthink as { eventIndex: number }).eventIndex)).toEqual([0, 1, 2]);
		expect(webhookItems(parseBodyText('', false), call)).toEqual([]);
	});
});

describe('exporterItems', () => {
	const options = { batchId: 'b-1', includeRequest: false };

	it.each([
		['NDJSON', '{"device.name":"PC-1"}\n{"device.name":"PC-2"}', 'ndjson'],
		['an array', '[{"device.name":"PC-1"},{"device.name":"PC-2"}]', 'array'],
		['an object with one array', '{"exporter":"daily","records":[{"device.name":"PC-1"},{"device.name":"PC-2"}]}', 'records'],
	])('splits %s into one item per row with the batch identity', (_, text, shape) => {
		const items = exporterItems(parseBodyText(text), call, options);
		expect(items.map((item) => item['device.name'])).toEqual(['PC-1', 'PC-2']);
		expect(items.map((item) => item.nexthinkBatch)).toEqual([0, 1].map(() => expect.objectContaining({ id: 'b-1', rowCount: 2, shape, receivedAt: call.receivedAt })));
		expect(items[0].nexthinkBatch).toBe(items[1].nexthinkBatch);
		expect(items[0].nexthinkBatch).not.toHaveProperty('headers');
	});

	it('puts the batch object\'s other properties on each row, and the request only when asked', () => {
		const items = exporterItems(parseBodyText('{"exporter":"daily","records":[{"a":1}]}'), call, { batchId: 'b', includeRequest: true });
		expect(items[0].nexthinkBatch).toMatchObject({ recordsProperty: 'records', properties: { exporter: 'daily' }, method: 'POST', headers: call.headers, query: call.query });
	});

	it('takes a single object as a batch of one row, and an empty batch as no item', () => {
		expect(exporterItems(parseBodyText('{"a":1}'), call, options)).toHaveLength(1);
		expect(exporterItems(parseBodyText('[]'), call, options)).toEqual([]);
		expect(exporterItems(parseBodyText('{"records":[]}'), call, options)).toEqual([]);
		expect(exporterItems(parseBodyText(''), call, options)).toEqual([]);
	});

	it('names what it does not take', () => {
		expect(() => exporterItems(parseBodyText('[{"a":1},"x"]'), call, options)).toThrow('Row 2 of the batch is a string, not an object');
		expect(() => exporterItems(parseBodyText('{"a":[{"x":1}],"b":[{"y":1}]}'), call, options)).toThrow(/several arrays of records \(a, b\)/);
		expect(() => exporterItems(parseBodyText('7'), call, options)).toThrow(/is a number, not rows/);
	});

	it('splits 100,000 rows without copying them', () => {
		const rows = Array.from({ length: 100_000 }, (_, index) => ({ 'device.name': `PC-${index}` }));
		const items = exporterItems({ shape: 'array', rows }, call, options);
		expect(items).toHaveLength(100_000);
		expect(items[99_999]).toBe(rows[99_999]);
		expect(items[99_999].nexthinkBatch).toMatchObject({ rowCount: 100_000 });
	});
});

describe('workflowCallItem', () => {
	it('makes one item of any call, an empty body as {}', () => {
		expect(workflowCallItem(parseBodyText('', false), { ...call, method: 'GET' })).toMatchObject({ body: {}, method: 'GET', nexthink: { channel: 'workflowCall' } });
		expect(workflowCallItem(parseBodyText('{"device":"PC-1"}', false), call).body).toEqual({ device: 'PC-1' });
		expect(workflowCallItem(parseBodyText('[1,2]', false), call).body).toEqual([1, 2]);
	});
});
