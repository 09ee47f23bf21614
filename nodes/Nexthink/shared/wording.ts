/**
 * Small pieces of the messages every layer writes, so that a count or a sentence reads the same in
 * each node. Pure (no imports).
 */

/** `1 row`, `12,345 rows`. */
export function plural(count: number, noun: string): string {
	return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

/** The text with its first letter upper-case, to open a sentence. */
export function upperFirst(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
