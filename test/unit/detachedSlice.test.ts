import { detachedSlice } from '../../nodes/Nexthink/results/detachedSlice';

describe('detachedSlice', () => {
	const text = 'device.name,2026-11-09T10:47:22.000Z,東京オフィス 😀,  Zürich HQ  ,\tx\n, padded on both ends ,x';

	it('returns exactly what slice returns, for every range (short, at the view threshold and long)', () => {
		for (let start = 0; start <= text.length; start++) {
			for (let end = start; end <= text.length; end++) {
				expect(detachedSlice(text, start, end)).toBe(text.slice(start, end));
			}
		}
	});
});
