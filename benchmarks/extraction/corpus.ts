import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One labelled message of the corpus. */
export interface Label {
  readonly file: string;
  readonly source: string;
  readonly lang: string;
  readonly kind: 'otp' | 'magic_link' | 'none';
  readonly value: string | null;
  readonly link_purpose: string | null;
  readonly also?: readonly { kind: string; value: string; link_purpose?: string }[];
}

/** A corpus message with its raw bytes and where it falls in the split. */
export interface Sample {
  readonly label: Label;
  readonly raw: Buffer;
  readonly product: string;
  readonly template: string;
  readonly split: 'dev' | 'heldout';
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The corpus directory: `EPHEMAIL_CORPUS`, else `../shared/corpus/auth-emails` beside the repository. */
export const corpusDir = (): string => process.env.EPHEMAIL_CORPUS ?? resolve(repoRoot, '..', 'shared', 'corpus', 'auth-emails');

// FNV-1a: a fixed, dependency-free hash so the split never changes between runs or machines.
const fnv1a = (s: string): number => {
  let h = 0x811c9dc5;
  for (const ch of Buffer.from(s, 'utf8')) h = Math.imul(h ^ ch, 0x01000193) >>> 0;
  return h;
};

/**
 * Held-out templates: about 30% of product+template groups, chosen by hash, so every language
 * and rendering of a held-out template is unseen while the engine is tuned on the rest.
 */
export const splitOf = (product: string, template: string): 'dev' | 'heldout' =>
  fnv1a(`${product}--${template}`) % 10 < 3 ? 'heldout' : 'dev';

/** Loads every labelled message; throws with a clear message when the corpus is missing. */
export const loadCorpus = (dir = corpusDir()): Sample[] => {
  const labelsPath = join(dir, 'labels.jsonl');
  if (!existsSync(labelsPath)) throw new Error(`corpus not found at ${dir} (set EPHEMAIL_CORPUS)`);
  return readFileSync(labelsPath, 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as Label)
    .map((label) => {
      const [product = '', template = ''] = label.file.split('--');
      return { label, raw: readFileSync(join(dir, 'messages', label.file)), product, template, split: splitOf(product, template) };
    });
};
