import { decodeUtf8, splitWideLines } from '../../../nodes/Nexthink/results/utf8';
import { chunked } from '../../helpers/chunkedSource';
import { seededRandom } from '../../helpers/zstdFixtures';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const hasWide = (text: string) => [...text].some((character) => (character.codePointAt(0) ?? 0) > 0xff);

function piecesOf(text: string): string[] {
	return splitWideLines(encode(text)).map(decode);
}

describe('splitWideLines', () => {
	it('keeps a chunk without characters beyond U+00FF whole, Latin-1 included', () => {
		const chunk = encode('a,b\nZürich,São Paulo\nŁódź is not Latin-1 but Renée is\n');
		const narrow = encode('a,b\nZürich,São Paulo\nRenée\n');
		expect(splitWideLines(narrow)).toEqual([narrow]);
		expect(splitWideLines(narrow)[0]).toBe(narrow);
		expect(piecesOf(decode(chunk))).toEqual(['a,b\nZürich,São Paulo\n', 'Łódź is not Latin-1 but Renée is\n']);
	});

	it('cuts the lines with wide characters out on their own, right after line feeds', () => {
		expect(piecesOf('one\ntwo\n東京,x\nthree\nfour\n')).toEqual(['one\ntwo\n', '東京,x\n', 'three\nfour\n']);
	});

	it('keeps consecutive wide lines together', () => {
		expect(piecesOf('a\n東\n京\nb\n')).toEqual(['a\n', '東\n京\n', 'b\n']);
	});

	it('handles wide characters on the first and last line, and a last line without a line feed', () => {
		expect(piecesOf('東,1\na,2\nb,3\nオ')).toEqual(['東,1\n', 'a,2\nb,3\n', 'オ']);
		expect(piecesOf('no line feed at all 東京')).toEqual(['no line feed at all 東京']);
	});

	it('splits four-byte characters and a lead byte at the very end of a chunk like any other', () => {
		const bytes = encode('a\n😀\nb\n');
		const cut = bytes.subarray(0, 3); // "a\n" and the emoji's first byte
		expect(splitWideLines(cut).map((piece) => Array.from(piece))).toEqual([[0x61, 0x0a], [0xf0]]);
	});

	it('splits a chunk with many runs of wide lines into as many pieces', () => {
		const dense = Array.from({ length: 100 }, (_, run) => `narrow ${run}\n東 ${run}\n`).join('');
		const pieces = piecesOf(dense);
		expect(pieces).toHaveLength(200);
		expect(pieces.join('')).toBe(dense);
	});

	it('always returns pieces that concatenate to the chunk, wide lines apart (seeded random texts)', () => {
		const alphabet = ['a', ',', '\n', '"', 'ü', 'ã', '東', 'オ', '😀', '\r', 'z'];
		const random = seededRandom(12345);
		for (let round = 0; round < 500; round++) {
			const text = Array.from({ length: Math.floor(random() * 60) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
			const pieces = piecesOf(text);
			expect(pieces.join('')).toBe(text);
			for (const piece of pieces) {
				const lines = piece.split(/(?<=\n)/);
				// a piece is either free of wide characters, or every line in it has one
				if (hasWide(piece)) expect(lines.every(hasWide)).toBe(true);
			}
		}
	});
});

describe('splitWideLines on chunks at any byte offset (the scan reads four bytes at a time)', () => {
	it('finds every wide line whatever the alignment and length of the chunk', () => {
		const text = 'aaaa\nbbbbbbb\nü,ß,é\nc東\nddddddddddddddddd\nĀ\neeee\nfffffffffffffffffffffffffffffffff😀\ng';
		const bytes = encode(text);
		for (let offset = 0; offset < 4; offset++) {
			const buffer = new Uint8Array(bytes.length + 8);
			buffer.set(bytes, offset);
			for (let length = bytes.length - 3; length <= bytes.length; length++) {
				const chunk = buffer.subarray(offset, offset + length);
				const pieces = splitWideLines(chunk);
				expect(Buffer.concat(pieces).equals(Buffer.from(chunk))).toBe(true);
				// judged on bytes: a cut may leave the emoji's lead byte alone at the end
				const hasWideLeadByte = (line: Uint8Array) => line.some((byte) => byte >= 0xc4);
				const wideText = pieces.filter(hasWideLeadByte).map(decode).join('');
				expect(wideText.startsWith('c東\nĀ\nfffffffff')).toBe(true);
				for (const piece of pieces) {
					if (!hasWideLeadByte(piece)) continue;
					const lines = decode(piece).split(/(?<=\n)/).map(encode);
					expect(lines.every(hasWideLeadByte)).toBe(true);
				}
			}
		}
	});
});

describe('decodeUtf8 with wide lines', () => {
	it('decodes exactly the same text whatever the chunking', async () => {
		const text = 'device.name,site\nPC-1,Zürich\nPC-2,東京オフィス\nPC-3,"two\nlines 😀"\nPC-4,Kraków\n';
		const bytes = encode(text);
		for (const size of [1, 2, 3, 5, 7, 64, bytes.length]) {
			const decoded: string[] = [];
			for await (const pieces of decodeUtf8(chunked(bytes, size))) decoded.push(...pieces);
			expect(decoded.join('')).toBe(text);
			// One-byte pieces stay apart from the wide ones (a wide piece holds only wide lines).
			for (const piece of decoded) if (hasWide(piece)) expect(piece.split(/(?<=\n)/).filter((line) => line !== '').every(hasWide)).toBe(true);
		}
	});
});
