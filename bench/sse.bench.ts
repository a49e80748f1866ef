/**
 * The event-stream parser (nodes/shared/sse.ts): CPU per MiB of body, as chunk sizes and frame
 * shapes vary. Long lines in small chunks are what a slow or hostile server sends; a parser that
 * rescans its unfinished line on every chunk is quadratic there. `SSE_PARSER=<file>` measures
 * another build of the parser (for example the previous one, from `git show <rev>:nodes/shared/sse.ts`).
 */
import * as path from 'node:path';
import type { SseParser as Parser } from '../nodes/shared/sse';

const MIB = 1024 * 1024;

interface Case {
	name: string;
	/** One frame of the body, repeated to fill a MiB. */
	frame: string;
	chunk: number;
}

const longLine = `data: ${'x'.repeat(60 * 1024)}\n\n`;
const heartbeat = 'event: heartbeat\ndata: {}\n\n';
const CASES: Case[] = [
	{ name: '60 KiB data lines, 16 B chunks', frame: longLine, chunk: 16 },
	{ name: '60 KiB data lines, 1 KiB chunks', frame: longLine, chunk: 1024 },
	{ name: '60 KiB data lines, 64 KiB chunks', frame: longLine, chunk: 64 * 1024 },
	{ name: 'heartbeat frames, 16 B chunks', frame: heartbeat, chunk: 16 },
	{ name: 'heartbeat frames, one 1 MiB chunk', frame: heartbeat, chunk: MIB },
];

function chunksOf(c: Case): string[] {
	const body = c.frame.repeat(Math.ceil(MIB / c.frame.length));
	const out: string[] = [];
	for (let i = 0; i < body.length; i += c.chunk) out.push(body.slice(i, i + c.chunk));
	return out;
}

export async function run(): Promise<void> {
	const file = process.env.SSE_PARSER ? path.resolve(process.env.SSE_PARSER) : '../nodes/shared/sse';
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { SseParser, MAX_SSE_LINE } = require(file) as { SseParser: new () => Parser; MAX_SSE_LINE: number };
	console.log(`parser: ${process.env.SSE_PARSER ?? 'nodes/shared/sse.ts'} (longest line kept: ${MAX_SSE_LINE} characters)`);
	// the longest line this parser keeps, in small chunks: the worst body it accepts
	const longest = `data: ${'x'.repeat(MAX_SSE_LINE - 16)}\n\n`;
	const cases = [...CASES, { name: 'longest line kept, 16 B chunks', frame: longest, chunk: 16 }, { name: 'longest line kept, 256 B chunks', frame: longest, chunk: 256 }];
	for (const c of cases) {
		const chunks = chunksOf(c);
		const mib = chunks.reduce((n, s) => n + s.length, 0) / MIB;
		const times: number[] = [];
		for (let round = 0; round < 3; round++) {
			const parser = new SseParser();
			const started = process.cpuUsage();
			let events = 0;
			for (const chunk of chunks) events += parser.push(chunk).length;
			const used = process.cpuUsage(started);
			times.push((used.user + used.system) / 1000);
			if (events === 0) throw new Error(`${c.name}: no event parsed`);
		}
		console.log(`${c.name}: ${(Math.min(...times) / mib).toFixed(1)} ms CPU per MiB (best of 3)`);
	}
}
