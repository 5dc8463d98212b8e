import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A locale folder name (`pt_BR`, `zh_Hans`, `sr@latin`) as a BCP-47-ish tag (`pt-BR`, `zh-Hans`, `sr-Latn`). */
export const langTag = (dir: string): string => dir.replace('@latin', '_Latn').replace(/_/g, '-');

/** The locale folders under `dir` that hold `file` (for example `LC_MESSAGES/django.po`). */
export const localesWith = (dir: string, file: string): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((l) => existsSync(join(dir, l, file))).sort() : [];

/** `count` renders for each template and language: the seed key of each. */
export const repsOf = (reps: number): number[] => Array.from({ length: reps }, (_v, i) => i + 1);
