import { readFile } from 'node:fs/promises';
import { describeParseFailure, explainCandidate, extract, redact, type Candidate } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import { collectFiles } from './extract/collect-files.js';

/** Where the command writes: one JSON line per file on stdout, usage problems on stderr. */
export interface ExtractIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** One extraction as printed, named as the API names it: the raw `value` only with `--reveal`. */
interface PrintedExtraction {
  readonly type: Candidate['type'];
  readonly redacted_value: string;
  readonly value?: string;
  readonly link_kind: Candidate['link_kind'] | null;
  readonly confidence: number;
  /** With `--explain`: each signal's share of the score, largest first (no secret in it). */
  readonly explain?: ReturnType<typeof explainCandidate>;
}

/** One output line: a file's extractions, or why it has none. */
type PrintedFile = { readonly file: string; readonly extractions: PrintedExtraction[] } | { readonly file: string; readonly error: string; readonly extractions: [] };

const USAGE = 'usage: ephemail extract [--reveal] [--explain] <file-or-dir>...\n';

const HELP = `${USAGE}
Runs the extraction engine on .eml files, without any store or server. A file is read whatever
its extension; a directory contributes its .eml files, recursively. Prints one JSON line per file:
{"file", "extractions": [{"type", "redacted_value", "link_kind", "confidence"}]}, or
{"file", "error", "extractions": []} for a file that could not be read or parsed.

options:
  --reveal    also print each raw value, as "value"
  --explain   also print which signals decided each score, as "explain": [{signal, contribution}]
  -h, --help  print this help

exit codes: 0 every file was processed; 1 some could not be read or parsed (the others were
still processed); 2 a usage error.
`;

const write = (stream: NodeJS.WritableStream, line: string): Promise<void> =>
  new Promise((resolve, reject) => {
    stream.write(line, (error) => (error ? reject(error) : resolve()));
  });

const printed = (c: Candidate, reveal: boolean, why = false): PrintedExtraction => ({
  type: c.type,
  redacted_value: redact(c),
  ...(reveal ? { value: c.value } : {}),
  link_kind: c.link_kind ?? null,
  // Two decimals, as the API: a longer number could repeat digits of the code it describes.
  confidence: Math.round(c.confidence * 100) / 100,
  ...(why ? { explain: explainCandidate(c) } : {}),
});

type ParsedArgs = { readonly reveal: boolean; readonly explain: boolean; readonly paths: string[] } | 'help' | string;

const parseArgs = (args: readonly string[]): ParsedArgs => {
  const paths: string[] = [];
  let reveal = false;
  let explain = false;
  let flagsDone = false;
  for (const arg of args) {
    if (!flagsDone && arg === '--') flagsDone = true;
    else if (!flagsDone && (arg === '--help' || arg === '-h')) return 'help';
    else if (!flagsDone && arg === '--reveal') reveal = true;
    else if (!flagsDone && arg === '--explain') explain = true;
    else if (!flagsDone && arg.startsWith('-') && arg !== '-') return `unknown option: ${arg}\n`;
    else paths.push(arg);
  }
  return paths.length === 0 ? 'no input files\n' : { reveal, explain, paths };
};

const processFile = async (path: string, parser: ReturnType<typeof createPostalMimeMailParser>, reveal: boolean, why: boolean): Promise<PrintedFile> => {
  let raw: Buffer;
  try {
    raw = await readFile(path);
  } catch (e) {
    return { file: path, error: e instanceof Error ? e.message : String(e), extractions: [] };
  }
  const outcome = await parser.parse(raw);
  if (!outcome.ok) return { file: path, error: describeParseFailure(outcome.error), extractions: [] };
  const { candidates } = extract(outcome.message);
  const extractions = [...candidates].sort((a, b) => b.confidence - a.confidence).map((c) => printed(c, reveal, why));
  return { file: path, extractions };
};

/**
 * `ephemail extract [--reveal] <file-or-dir>...`: prints `{"file", "extractions"}` for every
 * `.eml` file, in input order, extractions sorted by confidence (`redacted_value`, and `value`
 * only with `--reveal`). A file that cannot be read or parsed prints `{"file", "error",
 * "extractions": []}` and the others are still processed. Returns the exit code: 0 when every
 * input was processed, 1 when some could not be, 2 for a usage error (0 for `--help`).
 */
export const runExtractCommand = async (args: string[], io: ExtractIo): Promise<number> => {
  const parsed = parseArgs(args);
  if (parsed === 'help') {
    await write(io.stdout, HELP);
    return 0;
  }
  if (typeof parsed === 'string') {
    await write(io.stderr, parsed + USAGE);
    return 2;
  }
  const parser = createPostalMimeMailParser();
  let failed = false;
  for (const file of await collectFiles(parsed.paths)) {
    const line: PrintedFile = 'error' in file ? { file: file.path, error: file.error, extractions: [] } : await processFile(file.path, parser, parsed.reveal, parsed.explain);
    // A script must learn that some input was skipped, not only a reader of the output.
    if ('error' in line) failed = true;
    await write(io.stdout, `${JSON.stringify(line)}\n`);
  }
  return failed ? 1 : 0;
};
