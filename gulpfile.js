// Copies the node and credential icons next to the compiled JavaScript: tsc only emits .js/.d.ts,
// and n8n resolves `file:` icon references relative to the compiled node file.
const { src, dest } = require('gulp');

function buildIcons() {
	const nodeIcons = src('nodes/**/*.{png,svg}', { encoding: false }).pipe(dest('dist/nodes'));
	const credentialIcons = src('credentials/**/*.{png,svg}', { encoding: false }).pipe(dest('dist/credentials'));
	return Promise.all([streamDone(nodeIcons), streamDone(credentialIcons)]);
}

function streamDone(stream) {
	return new Promise((resolve, reject) => stream.on('finish', resolve).on('end', resolve).on('error', reject));
}

exports['build:icons'] = buildIcons;
