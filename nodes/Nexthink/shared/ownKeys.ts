/**
 * Keys are data. A name the user gives (a metadata key, a campaign, workflow or event parameter, a
 * script input) becomes an own property of the object that is sent, whatever it is: plain
 * assignment `object[key] = value` with the key `__proto__` sets the object's prototype instead,
 * so the entry would vanish from the JSON sent. `JSON.stringify`, spreading and `Object.entries`
 * keep an own `__proto__` property; `constructor` and `prototype` are looked up with `hasOwnKey`,
 * never with `in` or `object[key]`, which would find Object.prototype's own members.
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
	Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function hasOwnKey(target: object, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(target, key);
}
