/**
 * Typing of field values for the wire, per `ValueKind`: the value to send, or an `InputError` saying
 * what is accepted. `''` clears a field: it passes through, and is `clear` (0) for the desktop broker.
 */
import { DESKTOP_BROKERS, VIRTUALIZATION_TYPES, type FieldTarget } from './fieldCatalogue';
import { INPUT_ERROR_CODES } from './itemOutcome';
import { describeValue, InputError } from '../shared/inputError';

export type WireValue = string | number;

export interface ConversionContext {
	/** IANA zone for date-times written without an offset (n8n's date picker writes local wall-clock time). */
	timezone: string;
}

export function convertFieldValue(target: FieldTarget, raw: unknown, context: ConversionContext): WireValue {
	switch (target.kind) {
		case 'text':
			return toText(target.name, raw);
		case 'dateTime':
			return toIsoUtcMillis(target.name, raw, context.timezone);
		case 'desktopBroker':
			return toEnumInteger(target.name, raw, DESKTOP_BROKERS, 0);
		case 'virtualizationType':
			return toEnumInteger(target.name, raw, VIRTUALIZATION_TYPES, '');
	}
}

function invalid(field: string, message: string): InputError {
	return new InputError(`${field}: ${message}`, undefined, INPUT_ERROR_CODES.invalidValue);
}

/** Date-like values from expressions: JavaScript Dates and Luxon DateTimes (recognised by shape, not imported). */
function asInstant(raw: unknown): Date | undefined {
	if (raw instanceof Date) return raw;
	if (typeof raw === 'object' && raw !== null && typeof (raw as { toJSDate?: unknown }).toJSDate === 'function') {
		const date = (raw as { toJSDate(): unknown }).toJSDate();
		return date instanceof Date ? date : undefined;
	}
	return undefined;
}

function toText(field: string, raw: unknown): string {
	if (typeof raw === 'string') return raw;
	if (typeof raw === 'boolean' || typeof raw === 'bigint') return String(raw);
	if (typeof raw === 'number') {
		if (!Number.isFinite(raw)) throw invalid(field, `expects text, got ${describeValue(raw)}.`);
		return String(raw);
	}
	const instant = asInstant(raw);
	if (instant !== undefined && !Number.isNaN(instant.getTime())) return instant.toISOString();
	throw invalid(field, `expects text, got ${describeValue(raw)}. Pick a single value from the object, or convert it to a string first.`);
}

function toEnumInteger(
	field: string,
	raw: unknown,
	names: Readonly<Record<string, number>>,
	empty: WireValue,
): WireValue {
	const allowed = Object.values(names);
	const accepted = `one of ${Object.keys(names).join(', ')} (or ${Math.min(...allowed)}–${Math.max(...allowed)})`;
	if (typeof raw !== 'string' && typeof raw !== 'number') throw invalid(field, `expects ${accepted}, got ${describeValue(raw)}.`);
	// a number is read as its digits, like the same number given as text
	const name = String(raw).trim().toLowerCase().replace(/[\s-]+/g, '_');
	if (name === '') return empty;
	if (/^\d+$/.test(name)) {
		const number = Number(name);
		if (allowed.includes(number)) return number;
	} else if (Object.prototype.hasOwnProperty.call(names, name)) {
		return names[name];
	}
	throw invalid(field, `${describeValue(raw)} is not ${accepted}.`);
}

/* ISO 8601 as people and systems write it; anything else is refused, never handed to the lenient `Date.parse`. */
const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

export function toIsoUtcMillis(field: string, raw: unknown, timezone: string): string {
	const instant = asInstant(raw);
	if (instant !== undefined) {
		if (Number.isNaN(instant.getTime())) throw invalid(field, 'the date is invalid.');
		return instant.toISOString();
	}
	if (typeof raw !== 'string') {
		throw invalid(
			field,
			`expects an ISO 8601 date such as 2024-05-31T14:30:00Z, got ${describeValue(raw)}.` +
				(typeof raw === 'number' ? ' Numbers are refused because seconds and milliseconds cannot be told apart.' : ''),
		);
	}
	const text = raw.trim();
	if (text === '') return '';
	const match = ISO_DATE_TIME.exec(text);
	if (match === null) throw invalid(field, `${describeValue(raw)} is not an ISO 8601 date such as 2024-05-31T14:30:00Z.`);
	const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone] = match;
	const wallClock = Date.UTC(+year, +month - 1, +day, +hour, +minute, +second, +fraction.padEnd(3, '0').slice(0, 3));
	// a real date and time reads back as written (2024-02-30 becomes March 1st; years below 100 become 19xx)
	const written = `${year}-${month}-${day}T${[hour, minute, second].map((part) => part.padStart(2, '0')).join(':')}`;
	if (new Date(wallClock).toISOString().slice(0, 19) !== written) throw invalid(field, `${describeValue(raw)} is not a real date or time.`);
	if (zone === undefined) return new Date(wallClockToUtc(wallClock, timezone)).toISOString();
	const offset = offsetMinutes(zone);
	if (offset === undefined) throw invalid(field, `${describeValue(raw)} has an impossible UTC offset.`);
	return new Date(wallClock - offset * 60_000).toISOString();
}

function offsetMinutes(zone: string): number | undefined {
	if (zone.toUpperCase() === 'Z') return 0;
	const digits = zone.slice(1).replace(':', '');
	const hours = Number(digits.slice(0, 2));
	const minutes = Number(digits.slice(2) || '0');
	if (hours > 23 || minutes > 59) return undefined;
	const total = hours * 60 + minutes;
	return zone.startsWith('-') ? -total : total;
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at the given instant, in milliseconds. */
function zoneOffsetAt(utc: number, timezone: string): number {
	let formatter = zoneFormatters.get(timezone);
	if (formatter === undefined) {
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone: timezone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		zoneFormatters.set(timezone, formatter);
	}
	const parts: Record<string, number> = {};
	for (const part of formatter.formatToParts(new Date(utc))) parts[part.type] = Number(part.value);
	const asIfUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
	return asIfUtc - (utc - (((utc % 1000) + 1000) % 1000));
}

/**
 * The UTC instant at which `timezone` shows the given wall-clock time. The offset is looked up at the
 * first estimate and once more, which settles on the right side of a DST change; a wall-clock time
 * skipped by a DST jump resolves to the instant an hour later, like most calendar software does.
 */
function wallClockToUtc(wallClock: number, timezone: string): number {
	const first = wallClock - zoneOffsetAt(wallClock, timezone);
	return wallClock - zoneOffsetAt(first, timezone);
}
