import type { Variant } from '../variant.js';
import { ANCHORS } from './anchors.js';
import { CHARSETS } from './charsets.js';
import { CODE_LAYOUT } from './code-layout.js';
import { CONTROL } from './control.js';
import { DECOY_LINKS } from './decoy-links.js';
import { FOOTERS } from './footers.js';
import { NEGATIVES } from './negatives.js';
import { PARTS } from './parts.js';
import { SOFT_BREAKS } from './soft-breaks.js';
import { SUBJECT_VARIANTS } from './subjects.js';
import { TOKEN } from './token.js';
import { TRACKING } from './tracking.js';

/** Every variant, family by family; `control` first, as the others are read against it. */
export const VARIANTS: readonly Variant[] = [
  ...CONTROL,
  ...PARTS,
  ...ANCHORS,
  ...DECOY_LINKS,
  ...TOKEN,
  ...TRACKING,
  ...FOOTERS,
  ...SOFT_BREAKS,
  ...CHARSETS,
  ...CODE_LAYOUT,
  ...SUBJECT_VARIANTS,
  ...NEGATIVES,
];

export const FAMILIES: readonly string[] = [...new Set(VARIANTS.map((v) => v.family))];
