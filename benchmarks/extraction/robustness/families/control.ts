/**
 * Control: the mail re-encoded and nothing else. What this instrument's own MIME writing does to
 * the answers, so that every other family can be read against it.
 */
import { withMail } from '../mail.js';
import type { Variant } from '../variant.js';

const reencoded = (name: string, transfer: 'quoted-printable' | 'base64' | '8bit'): Variant => ({
  family: 'control',
  name,
  does: `parsed and written again as UTF-8 ${transfer}, nothing changed`,
  apply: (c) => withMail(c, { encoding: { charset: 'utf-8', transfer } }),
});

export const CONTROL: readonly Variant[] = [reencoded('utf-8 qp', 'quoted-printable'), reencoded('utf-8 base64', 'base64'), reencoded('utf-8 8bit', '8bit')];
