/**
 * mailparser vs postal-mime on the corpus (speed, memory) and on hostile input, the numbers
 * behind docs/adr/0003-mime-parser.md. Run:
 *   node --expose-gc --import=tsx --conditions=@ephemail/source benchmarks/extraction/parsers.ts
 * Writes benchmarks/results/extraction-parsers.json.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import { simpleParser } from 'mailparser';
import PostalMime from 'postal-mime';
import { loadCorpus } from './corpus.js';
import { hostileMessages } from './hostile.js';
import { measure } from './throughput.js';

type Parse = (raw: Buffer) => Promise<unknown>;

const parsers: Record<string, Parse> = {
  'postal-mime': (raw) => PostalMime.parse(raw),
  mailparser: (raw) => simpleParser(raw, { skipImageLinks: true }),
  'mail-parse adapter (postal-mime + caps)': (raw) => createPostalMimeMailParser().parse(raw),
};

const HOSTILE_TIMEOUT_MS = 30_000;

// Run with --expose-gc for stable heap figures; without it they are noisy.
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

const heapPerMessage = async (parse: Parse, raws: readonly Buffer[]): Promise<number> => {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = [];
  for (const raw of raws) kept.push(await parse(raw));
  gc();
  const after = process.memoryUsage().heapUsed;
  return Math.round((after - before) / kept.length / 1024);
};

const hostileRun = async (parse: Parse, raw: Buffer): Promise<{ ms: number; outcome: string; heap_mb: number }> => {
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`gave up after ${HOSTILE_TIMEOUT_MS} ms`), HOSTILE_TIMEOUT_MS);
  });
  const outcome = await Promise.race([
    parse(raw).then(
      (r) => ((r as { ok?: boolean; error?: { _tag: string } }).ok === false ? `refused: ${(r as { error: { _tag: string } }).error._tag}` : 'parsed'),
      (e: unknown) => `threw: ${String(e instanceof Error ? e.message : e).slice(0, 60)}`,
    ),
    timeout,
  ]);
  clearTimeout(timer);
  return { ms: Math.round(performance.now() - started), outcome, heap_mb: Math.round((process.memoryUsage().heapUsed - before) / 1e6) };
};

const samples = loadCorpus();
const raws = samples.map((s) => s.raw);
const result: Record<string, unknown> = { node: process.version, corpus_messages: raws.length };
for (const [name, parse] of Object.entries(parsers)) {
  const speed = await measure(raws, (r) => r.byteLength, parse);
  const heap_kb_per_message = await heapPerMessage(parse, raws);
  const hostile: Record<string, unknown> = {};
  for (const h of hostileMessages()) hostile[h.name] = await hostileRun(parse, h.raw);
  result[name] = { speed, heap_kb_per_message, hostile };
  console.log(`\n${name}: ${speed.messages_per_s} msg/s, ${speed.mb_per_s} MB/s, max ${speed.max_ms} ms, ~${heap_kb_per_message} KB heap per parsed message`);
  for (const [k, v] of Object.entries(hostile)) console.log(`  ${k.padEnd(28)} ${JSON.stringify(v)}`);
}
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'extraction-parsers.json');
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log('\nwritten to benchmarks/results/extraction-parsers.json');
