/**
 * Django templates rendered through nunjucks (the two languages share blocks, `extends`,
 * `include`, `if`, `for` and variables). What nunjucks lacks is Django's i18n: `blocktrans` and
 * `trans` are translated here, before nunjucks sees the template, by looking their msgid up in the
 * language's catalogue exactly as Django builds it (`{{ x }}` becomes `%(x)s`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nunjucks from 'nunjucks';
import { gettext, type Catalog } from './gettext.js';

const BLOCKTRANS = /{%-?\s*blocktrans(?:late)?\b([^%]*?)-?%}([\s\S]*?){%-?\s*endblocktrans(?:late)?\s*-?%}/g;
const TRANS = /{%\s*trans(?:late)?\s+(["'])((?:(?!\1).)*)\1(?:\s+context\s+(["'])((?:(?!\3).)*)\3)?\s*(?:noop\s*)?%}/g;

/** Django's `trimmed`: each line stripped, the lines joined by one space. */
export const trimLines = (s: string): string => s.split('\n').map((l) => l.trim()).filter((l) => l !== '').join(' ');

/** The msgid Django looks up for a `blocktrans` body. */
export const blocktransMsgid = (body: string, trimmed: boolean): string => {
  const singular = body.split(/{%\s*plural\s*%}/)[0] ?? '';
  const id = singular.replace(/{{\s*([\w]+)\s*}}/g, '%($1)s');
  return trimmed ? trimLines(id) : id;
};

const blocktrans = (cat: Catalog) => (_m: string, options: string, body: string): string => {
  const trimmed = /\btrimmed\b/.test(options);
  const context = /\bcontext\s+(["'])(.*?)\1/.exec(options)?.[2];
  const withPart = /\bwith\s+(.*?)(?:\s+trimmed|\s+context\s|\s+count\s|$)/.exec(options.trim())?.[1] ?? '';
  const sets = [...withPart.matchAll(/(\w+)=([\w.]+(?:\|[\w:"']+)*)/g)].map(([, name, expr]) => `{% set ${name} = ${filters(expr ?? '')} %}`);
  const translated = gettext(cat, blocktransMsgid(body, trimmed), context);
  return sets.join('') + translated.replace(/%\((\w+)\)s/g, '{{ $1 }}');
};

// Django writes `x|default:"y"`; nunjucks `x|default("y")`.
const filters = (expr: string): string => expr.replace(/\|(\w+):("[^"]*"|'[^']*'|[\w.]+)/g, '|$1($2)');

/** A Django template's source turned into nunjucks source, its strings translated by `cat`. */
export const djangoToNunjucks = (src: string, cat: Catalog): string =>
  src
    .replace(/{%\s*load\s[^%]*%}/g, '')
    .replace(/{%\s*(?:end)?autoescape(?:\s+\w+)?\s*%}/g, '')
    .replace(/{%\s*user_display\s+\w+\s+as\s+\w+\s*%}/g, '')
    .replace(BLOCKTRANS, blocktrans(cat))
    .replace(TRANS, (_m, _q, msgid: string, _q2, ctx?: string) => gettext(cat, msgid, ctx))
    .replace(/{%\s*endblock\s+\w+\s*%}/g, '{% endblock %}')
    .replace(/{{([^}]*)}}/g, (_m, inner: string) => `{{${filters(inner)}}}`);

/** Renders Django templates from `dirs` (searched in order) in one language. */
export const djangoRenderer = (dirs: readonly string[], cat: Catalog, autoescape: boolean) => {
  const loader = {
    getSource: (name: string) => {
      for (const dir of dirs) {
        try {
          return { src: djangoToNunjucks(readFileSync(join(dir, name), 'utf8'), cat), path: join(dir, name), noCache: true };
        } catch {
          // not in this directory: try the next one
        }
      }
      throw new Error(`template not found: ${name}`);
    },
  };
  const env = new nunjucks.Environment(loader as unknown as nunjucks.ILoader, { autoescape });
  return {
    file: (name: string, vars: object): string => env.render(name, vars),
    string: (src: string, vars: object): string => env.renderString(djangoToNunjucks(src, cat), vars),
  };
};
