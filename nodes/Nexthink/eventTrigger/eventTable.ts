/**
 * The webhook tables, and which one fired a webhook, guessed from the payload the administrator typed:
 * it never invents a table (the order of the clues: docs/decisions.md, "Event table").
 */

/**
 * The webhook tables Nexthink documents (platform.audit_logs appears only in one translated page), each
 * with the fields its payload template under Copy Into Nexthink shows (a suggestion: every listed field
 * must be in the webhook's NQL `list`).
 */
export const TEMPLATE_FIELDS = {
	'alert.alerts': {
		monitor: 'alert.monitor.name',
		status: 'alert.status',
		context: 'alert.context',
		priority: 'monitor.priority',
		triggered: 'trigger_time',
		recovered: 'recovery_time',
	},
	'campaign.responses': { campaign: 'campaign.name', user: 'user.name', state: 'state', answeredAt: 'time' },
	'execution.crashes': { device: 'device.name', binary: 'binary.name', version: 'binary.version', time: 'time' },
	'device_performance.boots': { device: 'device.name', duration: 'duration', type: 'type', time: 'time' },
	'device_performance.system_crashes': { device: 'device.name', error: 'error_label', time: 'time' },
	'device_performance.hard_resets': { device: 'device.name', time: 'time' },
	'remote_action.executions': {
		remoteAction: 'remote_action.name',
		device: 'device.name',
		status: 'status',
		statusDetails: 'status_details',
		requestId: 'request_id',
	},
	sessions: { device: 'device.name', user: 'user.name', time: 'time' },
	'web.events': { application: 'application.name', user: 'user.name', time: 'time' },
	'web.errors': { application: 'application.name', user: 'user.name', error: 'label', time: 'time' },
	'web.page_views': { application: 'application.name', user: 'user.name', time: 'time' },
	'web.transactions': { application: 'application.name', transaction: 'transaction.name', status: 'status', time: 'time' },
	'workflow.executions': { workflow: 'workflow.name', device: 'device.name', status: 'status', outcome: 'outcome', requestId: 'request_id' },
	'platform.audit_logs': { user: 'user.name', action: 'action', time: 'time' },
} satisfies Record<string, Record<string, string>>;

export type EventTable = keyof typeof TEMPLATE_FIELDS;

export const EVENT_TABLES = Object.keys(TEMPLATE_FIELDS) as EventTable[];

export const isEventTable = (value: unknown): value is EventTable => typeof value === 'string' && (EVENT_TABLES as string[]).includes(value);

export interface EventTableGuess {
	table: EventTable | null;
	basis: 'declared' | 'placeholders' | 'configured' | 'unknown';
}

const DECLARING_KEYS = ['table', 'event_table', 'eventTable'];

/** Namespaces whose fields name one table (a field `alert.status` or `monitor.priority` means an alert). */
const NAMESPACE_TABLES: Record<string, EventTable> = {
	alert: 'alert.alerts',
	monitor: 'alert.alerts',
	campaign: 'campaign.responses',
	remote_action: 'remote_action.executions',
	workflow: 'workflow.executions',
	crash: 'execution.crashes',
	session: 'sessions',
	sessions: 'sessions',
	boot: 'device_performance.boots',
	system_crash: 'device_performance.system_crashes',
	hard_reset: 'device_performance.hard_resets',
	audit_log: 'platform.audit_logs',
};

const asTable = (value: unknown): EventTable | null =>
	typeof value === 'string' && isEventTable(value.trim()) ? (value.trim() as EventTable) : null;

/** The table a field path names: a full table prefix (`web.errors.x`) wins over a namespace. */
function tableOfPath(path: string): EventTable | null {
	for (const table of EVENT_TABLES) if (path === table || path.startsWith(`${table}.`)) return table;
	const namespace = path.split('.')[0];
	if (path.includes('.') && namespace in NAMESPACE_TABLES) return NAMESPACE_TABLES[namespace];
	return null;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_#][\w.#]*)\s*\}\}/g;

/**
 * Whether `visit` says true for a string value (`isKey` false) or an object key (`isKey` true) of
 * `value`, walked to a bounded depth (8 levels, the first 100 members of an array).
 */
function someText(value: unknown, visit: (text: string, isKey: boolean) => boolean, depth = 0): boolean {
	if (depth > 8) return false;
	if (typeof value === 'string') return visit(value, false);
	if (Array.isArray(value)) return value.slice(0, 100).some((member) => someText(member, visit, depth + 1));
	if (typeof value === 'object' && value !== null) {
		return Object.entries(value).some(([key, member]) => visit(key, true) || someText(member, visit, depth + 1));
	}
	return false;
}

export function guessEventTable(body: unknown, query: Record<string, unknown> = {}, configured?: EventTable): EventTableGuess {
	const sources = [body, query].filter((source): source is Record<string, unknown> => typeof source === 'object' && source !== null && !Array.isArray(source));
	for (const source of sources) {
		for (const key of DECLARING_KEYS) {
			const table = asTable(source[key]);
			if (table) return { table, basis: 'declared' };
		}
	}
	// the tables named by placeholders in string values and by NQL-path keys
	const found = new Set<EventTable>();
	someText(body, (text, isKey) => {
		const paths = isKey ? (text.includes('.') ? [text] : []) : [...text.matchAll(PLACEHOLDER)].map((match) => match[1]);
		for (const table of paths.map(tableOfPath)) if (table) found.add(table);
		return false;
	});
	if (found.size === 1) return { table: [...found][0], basis: 'placeholders' };
	return configured ? { table: configured, basis: 'configured' } : { table: null, basis: 'unknown' };
}

/** Whether the body still holds `{{…}}` placeholders: a *Test send*, or a field missing from the NQL `list`. */
export function hasPlaceholders(value: unknown): boolean {
	return someText(value, (text, isKey) => !isKey && /\{\{[^{}]*\}\}/.test(text));
}
