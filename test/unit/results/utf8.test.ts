import { decodeUtf8, splitWideFields } from '../../../nodes/Nexthink/results/utf8';
import { chunked } from '../../helpers/chunkedSource';
import { seededRandom } from '../../helpers/zstdFixtures';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const hasWide = (text: string) => [...text].some((character) => (character.codePointAt(0) ?? 0) > 0xff);

function piecesOf(text: string): string[] {
	return splitWideFields(encode(text)).map(decode);
}

describe('splitWideFields', () => {
	it('keeps a chunk without characters beyond U+00FF whole, Latin-1 included', () => {
		const chunk = encode('a,b\nZürich,São Paulo\nŁódź is not Latin-1 but Renée is\n');
		const narrow = encode('a,b\nZürich,São Paulo\nRenée\n');
		expect(splitWideFields(narrow)).toEqual([narrow]);
		expect(splitWideFields(narrow)[0]).toBe(narrow);
		expect(piecesOf(decode(chunk))).toEqual(['a,b\nZürich,São Paulo\n', 'Łódź is not Latin-1 but Renée is\n']);
	});

	it('cuts a line\'s wide fields out as one span, after the commas around it, and the rest of its line', () => {
		expect(piecesOf('one\ntwo\nPC-1,東京,x,y\nthree\nfour\n')).toEqual(['one\ntwo\nPC-1,', '東京,', 'x,y\n', 'three\nfour\n']);
		expect(piecesOf('a,東,b,京,c\nd\n')).toEqual(['a,', '東,b,京,', 'c\n', 'd\n']);
		expect(piecesOf('a,b\r\nc,東京\r\nd\r\n')).toEqual(['a,b\r\nc,', '東京\r\n', 'd\r\n']);
	});

	it('keeps lines that are wide from start to end together with the span before them', () => {
		expect(piecesOf('a\n東\n京\nb\n')).toEqual(['a\n', '東\n京\n', 'b\n']);
		expect(piecesOf('x,東\n京,y\n')).toEqual(['x,', '東\n京,', 'y\n']);
	});

	it('takes the line from its start when a quote comes before the wide character, to its end when one comes after', () => {
		expect(piecesOf('x\na,"東,x",b\nc\n')).toEqual(['x\n', 'a,"東,x",b\n', 'c\n']);
		expect(piecesOf('x\na,"x,東",b\nc\n')).toEqual(['x\na,"x,', '東",b\n', 'c\n']);
	});

	it('makes at most three pieces of a line however many wide fields it has', () => {
		const line = Array.from({ length: 999 }, (_, index) => (index % 2 === 0 ? '東' : 'a')).join(','); // starts and ends wide
		expect(piecesOf(`${line}\nb\n`)).toEqual([line + '\n', 'b\n']);
		expect(piecesOf(`a,${line},a\n`)).toEqual(['a,', `${line},`, 'a\n']);
	});

	it('handles wide characters on the first and last line, and a last line without a line feed', () => {
		expect(piecesOf('東,1\na,2\nb,3\nオ')).toEqual(['東,', '1\n', 'a,2\nb,3\n', 'オ']);
		expect(piecesOf('no line feed at all 東京')).toEqual(['no line feed at all 東京']);
	});

	it('splits four-byte characters and a lead byte at the very end of a chunk like any other', () => {
		const bytes = encode('a\n😀\nb\n');
		const cut = bytes.subarray(0, 3); // "a\n" and the emoji's first byte
		expect(splitWideFields(cut).map((piece) => Array.from(piece))).toEqual([[0x61, 0x0a], [0xf0]]);
	});

	it('cuts out the first field of a chunk that starts inside a character', () => {
		const bytes = encode('東京,a,b\nc\n').subarray(1);
		expect(splitWideFields(bytes).map((piece) => piece.length)).toEqual([6, 4, 2]);
	});

	it('splits a chunk with many runs of wide lines into as many pieces', () => {
		const dense = Array.from({ length: 100 }, (_, run) => `narrow ${run}\n東 ${run}\n`).join('');
		const pieces = piecesOf(dense);
		expect(pieces).toHaveLength(200);
		expect(pieces.join('')).toBe(dense);
	});

	it('always returns pieces that concatenate to the chunk, every line of a wide piece wide (seeded random texts)', () => {
		const alphabet = ['a', ',', '\n', '"', 'ü', 'ã', '東', 'オ', '😀', '\r', 'z'];
		const random = seededRandom(12345);
		for (let round = 0; round < 500; round++) {
			const text = Array.from({ length: Math.floor(random() * 60) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
			const pieces = piecesOf(text);
			expect(pieces.join('')).toBe(text);
			for (const piece of pieces) if (hasWide(piece)) expect(piece.split(/(?<=\n)/).every(hasWide)).toBe(true);
		}
	});

	it('starts and ends a wide piece with a wide field where no quote or lone CR is near (seeded random texts)', () => {
		const alphabet = ['a', ',', ',', '\n', '\r\n', 'ü', 'ã', '東', 'オ', '😀', 'z'];
		const random = seededRandom(54321);
		for (let round = 0; round < 500; round++) {
			const text = Array.from({ length: Math.floor(random() * 60) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
			const pieces = piecesOf(text);
			expect(pieces.join('')).toBe(text);
			for (const piece of pieces) {
				if (!hasWide(piece)) continue;
				const fields = piece.replace(/(,|\r?\n)$/, '').split(/,|\r?\n/);
				expect([hasWide(fields[0]), hasWide(fields[fields.length - 1])]).toEqual([true, true]);
			}
		}
	});
});

describe('splitWideFields on chunks at any byte offset (the scan reads four bytes at a time)', () => {
	it('finds every wide field whatever the alignment and length of the chunk', () => {
		const text = 'aaaa\nbbbbbbb\nü,ß,é\nc東\nddddddddddddddddd\nĀ\neeee\nfffffffffffffffffffffffffffffffff😀\ng';
		const bytes = encode(text);
		for (let offset = 0; offset < 4; offset++) {
			const buffer = new Uint8Array(bytes.length + 8);
			buffer.set(bytes, offset);
			for (let length = bytes.length - 3; length <= bytes.length; length++) {
				const chunk = buffer.subarray(offset, offset + length);
				const pieces = splitWideFields(chunk);
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
