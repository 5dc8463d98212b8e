import { readFile } from 'node:fs/promises';
import { describeParseFailure, extract, redact, type Candidate } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import { collectFiles } from './extract/collect-files.js';

/** Where the command writes: one JSON line per file on stdout, usage problems on stderr. */
export interface ExtractIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** One extraction as printed: the raw value only with `--reveal`. */
interface PrintedExtraction {
  readonly type: Candidate['type'];
  readonly value: string;
  readonly link_kind: Candidate['link_kind'] | null;
  readonly confidence: number;
}

const USAGE = 'usage: ephemail extract [--reveal] <file-or-dir>...\n';

const write = (stream: NodeJS.WritableStream, line: string): Promise<void> =>
  new Promise((resolve, reject) => {
    stream.write(line, (error) => (error ? reject(error) : resolve()));
  });

const printed = (c: Candidate, reveal: boolean): PrintedExtraction => ({
  type: c.type,
  value: reveal ? c.value : redact(c),
  link_kind: c.link_kind ?? null,
  confidence: c.confidence,
});

const parseArgs = (args: readonly string[]): { reveal: boolean; paths: string[] } | string => {
  const paths: string[] = [];
  let reveal = false;
  let flagsDone = false;
  for (const arg of args) {
    if (!flagsDone && arg === '--') flagsDone = true;
    else if (!flagsDone && arg === '--reveal') reveal = true;
    else if (!flagsDone && arg.startsWith('-') && arg !== '-') return `unknown option: ${arg}\n`;
    else paths.push(arg);
  }
  return paths.length === 0 ? 'no input files\n' : { reveal, paths };
};

const processFile = async (path: string, parser: ReturnType<typeof createPostalMimeMailParser>, reveal: boolean): Promise<object> => {
  let raw: Buffer;
  try {
    raw = await readFile(path);
  } catch (e) {
    return { file: path, error: e instanceof Error ? e.message : String(e), extractions: [] };
  }
  const outcome = await parser.parse(raw);
  if (!outcome.ok) return { file: path, error: describeParseFailure(outcome.error), extractions: [] };
  const { candidates } = extract(outcome.message);
  const extractions = [...candidates].sort((a, b) => b.confidence - a.confidence).map((c) => printed(c, reveal));
  return { file: path, extractions };
};

/**
 * `ephemail extract [--reveal] <file-or-dir>...`: prints `{"file", "extractions"}` for every
 * `.eml` file, in input order, extractions sorted by confidence (values redacted unless
 * `--reveal`). A file that cannot be read or parsed prints `{"file", "error", "extractions": []}`.
 * Returns the exit code: 0 when inputs were processed, 2 for a usage error.
 */
export const runExtractCommand = async (args: string[], io: ExtractIo): Promise<number> => {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    await write(io.stderr, parsed + USAGE);
    return 2;
  }
  const parser = createPostalMimeMailParser();
  for (const file of await collectFiles(parsed.paths)) {
    const line = 'error' in file ? { file: file.path, error: file.error, extractions: [] } : await processFile(file.path, parser, parsed.reveal);
    await write(io.stdout, `${JSON.stringify(line)}\n`);
  }
  return 0;
};
