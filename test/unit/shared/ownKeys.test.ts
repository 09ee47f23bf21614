/** Keys are data (shared/ownKeys.ts): `__proto__`, `constructor` and `prototype` are own keys that JSON sends. */
import { hasOwnKey, setOwn } from '../../../nodes/Nexthink/shared/ownKeys';

describe('setOwn and hasOwnKey', () => {
	it.each([['__proto__'], ['constructor'], ['prototype'], ['toString'], ['hasOwnProperty']])('%s is an ordinary key', (key) => {
		const target: Record<string, string> = {};
		expect(hasOwnKey(target, key)).toBe(false);
		setOwn(target, key, 'value');
		expect(hasOwnKey(target, key)).toBe(true);
		expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
		expect(JSON.parse(JSON.stringify(target))).toEqual(JSON.parse(`{"${key}":"value"}`));
		expect(Object.keys({ ...target })).toEqual([key]);
	});
});
