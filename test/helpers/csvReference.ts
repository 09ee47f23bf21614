/**
 * An independent, deliberately simple RFC 4180 reader used only to compute what the tests expect
 * from the server's CSV text (so expectations never come from the code under test).
 */
export function referenceCsvRows(text: string): Array<Record<string, string>> {
	const records: string[][] = [];
	let field = '';
	let record: string[] = [];
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') {
				field += '"';
				i++;
			} else if (c === '"') {
				quoted = false;
			} else {
				field += c;
			}
		} else if (c === '"') {
			quoted = true;
		} else if (c === ',') {
			record.push(field);
			field = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && text[i + 1] === '\n') i++;
			record.push(field);
			records.push(record);
			record = [];
			field = '';
		} else {
			field += c;
		}
	}
	if (field !== '' || record.length > 0) {
		record.push(field);
		records.push(record);
	}
	const [header, ...rows] = records;
	return rows.map((values) => Object.fromEntries(header.map((name, i) => [name, values[i]])));
}
