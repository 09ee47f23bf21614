// Decompression bombs against the results pipeline: peak memory and time until a
// ~2 MB hostile file fails (or, for a build without limits, until it finishes or the process dies).
//
// Usage: npx tsc -p tsconfig.json && node test/bench/bombs.js [--dist <dir>] [--heap-mb 1024] [--timeout-s 120]
// `--dist` is the compiled `dist` folder to measure (default: this checkout's), so the same script
// measures an older build for a before/after table. Each case runs in a fresh child process with
// `--max-old-space-size=<heap-mb>` (a 1 GiB heap by default, like a small n8n container), reading the
// file in 64 KiB chunks through `readCsvRows` with the build's default limits. Reported: the outcome
// (the error's first words, "ok" or how the process died), wall time, and peak RSS of the child
// (`process.resourceUsage().maxRSS`) above its RSS before reading.
//
// The bombs, made here: gzip files are one gzip member of a repeated 16 MiB deflate part (see
// gzipBomb), zstd files repeated frames from the `zstd` CLI (level 19); each about 2 MB.
//   gzip-field   one field of 2 GiB ('x')
//   gzip-row     one row of 1 GiB of 16-character fields
//   zstd-field   one field of about 100 GiB
//   zstd-row     one row of about 100 GiB of 16-character fields
'use strict';

const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');

const MB = 1024 * 1024;

function argument(name, fallback) {
	const index = process.argv.indexOf(name);
	return index === -1 ? fallback : process.argv[index + 1];
}

if (process.argv[2] === '--child') {
	runChild(process.argv[3], process.argv[4]);
} else {
	main();
}

function main() {
	const dist = path.resolve(argument('--dist', path.join(__dirname, '../../dist')));
	const heapMb = Number(argument('--heap-mb', 1024));
	const timeoutS = Number(argument('--timeout-s', 120));
	const reader = path.join(dist, 'nodes/Nexthink/results/readCsvRows.js');
	if (!fs.existsSync(reader)) {
		console.error(`Missing ${reader}: build first with "npx tsc -p tsconfig.json".`);
		process.exit(1);
	}
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexthink-bombs-'));
	const field = Buffer.alloc(16 * MB, 'x');
	const row = Buffer.from('xxxxxxxxxxxxxxx,'.repeat(MB));
	const head = Buffer.from('device.name,device.note\nPC-1,');
	const bombs = {
		'gzip-field': gzipBomb(head, field, 128),
		'gzip-row': gzipBomb(head, row, 64),
		'zstd-field': zstdBomb(head, field, 2 * MB),
		'zstd-row': zstdBomb(head, row, 2 * MB),
	};
	console.log(`build: ${dist}; heap limit ${heapMb} MB; Node ${process.version}`);
	console.log('| bomb | file KB | outcome | wall s | peak RSS above start, MB |');
	console.log('|---|---|---|---|---|');
	for (const [name, bytes] of Object.entries(bombs)) {
		const file = path.join(dir, `${name}.bin`);
		fs.writeFileSync(file, bytes);
		const child = spawnSync(process.execPath, [`--max-old-space-size=${heapMb}`, __filename, '--child', reader, file], {
			encoding: 'utf8',
			timeout: timeoutS * 1000,
			maxBuffer: 1 << 20,
		});
		let outcome;
		let wall = '-';
		let peak = '-';
		const line = (child.stdout ?? '').trim().split('\n').pop() ?? '';
		if (line.startsWith('{')) {
			const result = JSON.parse(line);
			outcome = result.outcome;
			wall = (result.ms / 1000).toFixed(2);
			peak = Math.round(result.peakAboveStartMb);
		} else if (child.error?.code === 'ETIMEDOUT') {
			outcome = `still running after ${timeoutS} s (killed)`;
		} else {
			const stderr = child.stderr ?? '';
			outcome = /heap out of memory|Reached heap limit/.test(stderr) ? 'process died: JavaScript heap out of memory' : `process died (${child.status ?? child.signal})`;
		}
		console.log(`| ${name} | ${Math.round(bytes.length / 1024)} | ${outcome} | ${wall} | ${peak} |`);
	}
	fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * One gzip member: `head`, then `copies` times `unit`. Each part is raw deflate ended with a full
 * flush (byte-aligned, no final block, no back-references across parts), so the same bytes can be
 * repeated; an empty final block and the trailer (CRC-32, size) close it. One member, because
 * Node 22 and later refuse bytes after the first.
 */
function gzipBomb(head, unit, copies) {
	const part = (/** @type {Buffer} */ data) => zlib.deflateRawSync(data, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
	const unitPart = part(unit);
	let crc = zlib.crc32(head);
	for (let copy = 0; copy < copies; copy++) crc = zlib.crc32(unit, crc);
	const trailer = Buffer.alloc(8);
	trailer.writeUInt32LE(crc >>> 0, 0);
	trailer.writeUInt32LE((head.length + unit.length * copies) % 2 ** 32, 4);
	const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
	return Buffer.concat([header, part(head), ...Array.from({ length: copies }, () => unitPart), Buffer.from([0x03, 0x00]), trailer]);
}

/** Repeated zstd frames of `unit` up to about `targetBytes`. */
function zstdBomb(head, unit, targetBytes) {
	const frame = execFileSync('zstd', ['-q', '-c', '-19'], { input: unit, maxBuffer: 1 << 26 });
	const first = execFileSync('zstd', ['-q', '-c'], { input: head });
	return Buffer.concat([first, ...Array.from({ length: Math.ceil(targetBytes / frame.length) }, () => frame)]);
}

async function runChild(readerPath, file) {
	const { readCsvRows } = require(readerPath);
	const bytes = fs.readFileSync(file);
	async function* source() {
		for (let offset = 0; offset < bytes.length; offset += 64 * 1024) {
			yield Uint8Array.from(bytes.subarray(offset, offset + 64 * 1024));
			// a network read is a macrotask: let timers and GC run between chunks
			await new Promise((resolve) => setImmediate(resolve));
		}
	}
	const rssStart = process.memoryUsage().rss;
	const started = Date.now();
	let outcome;
	try {
		const result = await readCsvRows(source(), { compression: 'NONE', convertTypes: false });
		outcome = `ok, ${result.rows.length} rows`;
	} catch (error) {
		outcome = `error: ${String(error.message).slice(0, 90)}`;
	}
	const ms = Date.now() - started;
	const peakAboveStartMb = (process.resourceUsage().maxRSS * 1024 - rssStart) / MB;
	console.log(JSON.stringify({ outcome, ms, peakAboveStartMb }));
}
