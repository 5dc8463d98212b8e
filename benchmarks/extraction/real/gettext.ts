import { readFileSync } from 'node:fs';
import { mo, po } from 'gettext-parser';

/** A message catalogue: msgid (with `ctx\u0004` before it when it has a context) to its first translation. */
export type Catalog = ReadonlyMap<string, string>;

const flatten = (translations: Record<string, Record<string, { msgid: string; msgstr: string[]; comments?: { flag?: string } }>>): Catalog => {
  const out = new Map<string, string>();
  for (const [ctx, entries] of Object.entries(translations)) {
    for (const e of Object.values(entries)) {
      const str = e.msgstr[0] ?? '';
      // Untranslated and fuzzy entries fall back to the msgid, as gettext does at run time.
      if (e.msgid === '' || str === '' || (e.comments?.flag ?? '').includes('fuzzy')) continue;
      out.set(ctx === '' ? e.msgid : `${ctx}\u0004${e.msgid}`, str);
    }
  }
  return out;
};

/** Parses the text of a .po file. */
export const parsePo = (text: string | Buffer): Catalog => flatten(po.parse(text).translations as never);
/** Reads a .po or .mo file. */
export const readCatalog = (file: string): Catalog => {
  const buf = readFileSync(file);
  return flatten((file.endsWith('.mo') ? mo.parse(buf) : po.parse(buf)).translations as never);
};
/** gettext: the translation, or the msgid itself. */
export const gettext = (cat: Catalog, msgid: string, ctx?: string): string => cat.get(ctx === undefined ? msgid : `${ctx}\u0004${msgid}`) ?? msgid;
