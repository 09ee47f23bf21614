/**
 * Keys are data: a name the user gives becomes an own property, `__proto__` included, and is looked
 * up as an own key (docs/decisions.md, "Keys are data").
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
	Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function hasOwnKey(target: object, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(target, key);
}
