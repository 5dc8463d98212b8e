/**
 * Fingerprint of the engine's answers on the corpus: every candidate with its raw score, signals
 * and evidence, the HTML view the adapter derives, and the answers for the text part alone and
 * the HTML part alone. A change meant only to speed the engine up must leave the hash unchanged.
 * Run:
 *   node --import=tsx --conditions=@ephemail/source benchmarks/extraction/fingerprint.ts [out-file]
 * Prints the SHA-256 of the answers; with `out-file`, also writes them there (one line per message
 * and variant) so two versions can be compared line by line.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { extract, scoreCandidates } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import { loadCorpus } from './corpus.js';

const parser = createPostalMimeMailParser();
const lines: string[] = [];
for (const s of loadCorpus()) {
  const parsed = await parser.parse(s.raw);
  if (!parsed.ok) {
    lines.push(`${s.label.file} refused ${parsed.error._tag}`);
    continue;
  }
  const m = parsed.message;
  lines.push(`${s.label.file} ${JSON.stringify({ htmlText: m.htmlText, links: m.links, scored: scoreCandidates(m), extraction: extract(m) })}`);
  // Each part on its own, with the view derived by the engine, so both paths are covered.
  lines.push(`${s.label.file} text ${JSON.stringify(scoreCandidates({ ...m, html: '', htmlText: undefined, links: undefined }))}`);
  lines.push(`${s.label.file} html ${JSON.stringify(scoreCandidates({ ...m, text: '', htmlText: undefined, links: undefined }))}`);
}
const text = lines.join('\n');
const out = process.argv[2];
if (out !== undefined) writeFileSync(out, text);
console.log(`${createHash('sha256').update(text).digest('hex')}  (${lines.length} answers)`);
