/**
 * The walls of nodes/Nexthink/ (docs/development.md, "Layout"): a node's folder is its own, so no
 * node folder imports another node's folder; what several nodes use lives in a layer below them
 * (nql/, results/, shared/, transport/), and those layers import no node folder. In the Actions
 * node, actions/shared/ imports no resource folder. Read from the sources' relative imports, so a
 * new import across a wall fails here with the file and the import that crosses it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '../../nodes/Nexthink');
const NODE_FOLDERS = ['actions', 'enrichment', 'eventTrigger', 'export', 'trigger'];
const LAYERS = ['nql', 'results', 'shared', 'transport'];
const ACTION_RESOURCES = ['campaign', 'device', 'remoteAction', 'spark', 'workflow'];

interface Import {
	file: string;
	from: string[];
	to: string[];
}

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** Every relative import of the package's sources, as folder paths under nodes/Nexthink/. */
function relativeImports(): Import[] {
	return sourceFiles(ROOT).flatMap((file) => {
		const text = readFileSync(file, 'utf8');
		const specifiers = [...text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]);
		return specifiers.map((specifier) => ({
			file: relative(ROOT, file),
			from: relative(ROOT, dirname(file)).split(sep),
			to: relative(ROOT, resolve(dirname(file), specifier)).split(sep),
		}));
	});
}

const imports = relativeImports();
const show = (found: Import[]) => found.map(({ file, to }) => `${file} imports ${to.join('/')}`);

describe('layout of nodes/Nexthink', () => {
	it('reads the imports it checks', () => {
		// a regular expression that stopped matching would make every rule below pass
		expect(imports.length).toBeGreaterThan(300);
		expect(imports.some(({ from, to }) => from[0] === 'trigger' && to[0] === 'nql')).toBe(true);
	});

	it.each(NODE_FOLDERS)('no file of %s/ imports another node folder', (node) => {
		const crossing = imports.filter(({ from, to }) => from[0] === node && NODE_FOLDERS.includes(to[0]) && to[0] !== node);
		expect(show(crossing)).toEqual([]);
	});

	it.each(LAYERS)('the shared layer %s/ imports no node folder', (layer) => {
		const crossing = imports.filter(({ from, to }) => from[0] === layer && NODE_FOLDERS.includes(to[0]));
		expect(show(crossing)).toEqual([]);
	});

	it('actions/shared/ imports no resource folder', () => {
		const crossing = imports.filter(({ from, to }) => from[0] === 'actions' && from[1] === 'shared' && to[0] === 'actions' && ACTION_RESOURCES.includes(to[1]));
		expect(show(crossing)).toEqual([]);
	});

	it('no Actions resource imports another resource', () => {
		const crossing = imports.filter(
			({ from, to }) => from[0] === 'actions' && ACTION_RESOURCES.includes(from[1]) && to[0] === 'actions' && ACTION_RESOURCES.includes(to[1]) && to[1] !== from[1],
		);
		expect(show(crossing)).toEqual([]);
	});

	it('knows every folder of nodes/Nexthink', () => {
		const folders = readdirSync(ROOT, { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'icons').map((entry) => entry.name);
		expect(folders.sort()).toEqual([...NODE_FOLDERS, ...LAYERS].sort());
		const resources = readdirSync(join(ROOT, 'actions'), { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'shared').map((entry) => entry.name);
		expect(resources.sort()).toEqual([...ACTION_RESOURCES].sort());
	});
});
