/**
 * Horde_View templates (`*.plain.php`, `*.html.php`): text with `<?php … ?>` blocks, where a
 * newline right after `?>` is not output (PHP's rule). Understood: `echo _("…")` and
 * `printf(_("…"), …)` through the catalogue, `if (…):` / `else:` / `endif`, `foreach (… as $x):` /
 * `endforeach`, and `echo <expression>` with `.`-joined literals. Every other expression and
 * condition is the caller's: `scope` maps the exact PHP source of it to its value.
 */
import { gettext, type Catalog } from './gettext.js';
import { sprintf, unquote } from './php.js';

/** A value the template reads: text, a condition, a fresh value per use, or the items of a loop. */
export type PhpValue = string | boolean | (() => string) | readonly PhpScope[];
export type PhpScope = Readonly<Record<string, PhpValue>>;

type Node = { readonly text: string } | { readonly code: string } | { readonly cond: string; readonly then: Node[]; readonly other: Node[] } | { readonly list: string; readonly item: string; readonly body: Node[] };

const BLOCK = /<\?php\s+([\s\S]*?)\s*;?\s*\?>\n?/g;
const LIT = String.raw`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"`;

const parse = (src: string): Node[] => {
  const root: Node[] = [];
  const stack: { nodes: Node[]; node?: { then: Node[]; other: Node[] } }[] = [{ nodes: root }];
  const top = () => stack[stack.length - 1] as (typeof stack)[number];
  let last = 0;
  for (const m of src.matchAll(BLOCK)) {
    if ((m.index ?? 0) > last) top().nodes.push({ text: src.slice(last, m.index) });
    last = (m.index ?? 0) + m[0].length;
    const code = (m[1] ?? '').replace(/\/\*[\s\S]*?\*\//g, '').trim();
    const ifm = /^if\s*\((.*)\)\s*:$/s.exec(code);
    const form = /^foreach\s*\((.*)\s+as\s+(\$\w+)\)\s*:$/s.exec(code);
    if (code === '') continue;
    if (ifm !== null) {
      const node = { cond: (ifm[1] ?? '').trim(), then: [] as Node[], other: [] as Node[] };
      top().nodes.push(node);
      stack.push({ nodes: node.then, node });
    } else if (/^else\s*:$/.test(code)) {
      const t = top();
      if (t.node === undefined) throw new Error('else without if');
      t.nodes = t.node.other;
    } else if (form !== null) {
      const node = { list: (form[1] ?? '').trim(), item: form[2] ?? '', body: [] as Node[] };
      top().nodes.push(node);
      stack.push({ nodes: node.body });
    } else if (/^end(if|foreach)$/.test(code)) stack.pop();
    else top().nodes.push({ code });
  }
  top().nodes.push({ text: src.slice(last) });
  return root;
};

const lookup = (scope: PhpScope, expr: string): PhpValue => {
  if (!(expr in scope)) throw new Error(`unhandled PHP: ${expr}`);
  return scope[expr] as PhpValue;
};
const str = (v: PhpValue): string => (typeof v === 'function' ? v() : typeof v === 'string' ? v : '');

/** Splits `src` at each `sep` outside quotes and parentheses. */
const splitTop = (src: string, sep: string): string[] => {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i] ?? '';
    if (quote !== '') {
      if (c === '\\') cur += c + (src[++i] ?? '');
      else {
        if (c === quote) quote = '';
        cur += c;
      }
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === sep && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur.trim());
  return out;
};

const isLiteral = (p: string): boolean => new RegExp(`^(?:${LIT})$`, 's').test(p);

/** A `.`-joined expression of literals, `_("…")` and scope values. */
const expression = (expr: string, cat: Catalog, scope: PhpScope): string => {
  if (expr in scope) return str(scope[expr] as PhpValue);
  return splitTop(expr, '.').map((p) => {
    if (/^_\(/.test(p) && isLiteral(p.slice(2, -1))) return gettext(cat, unquote(p.slice(2, -1)));
    if (isLiteral(p)) return unquote(p);
    return str(lookup(scope, p));
  }).join('');
};

const statement = (code: string, cat: Catalog, scope: PhpScope): string => {
  if (code in scope) return str(scope[code] as PhpValue);
  const pf = new RegExp(String.raw`^printf\(_\((${LIT})\)((?:\s*,[\s\S]*)?)\)$`).exec(code);
  if (pf !== null) {
    const args = splitTop(pf[2] ?? '', ',').slice(1).map((a) => expression(a, cat, scope));
    return sprintf(gettext(cat, unquote(pf[1] ?? '')), ...args);
  }
  const echo = /^echo\s+([\s\S]+)$/.exec(code);
  if (echo !== null) return expression(echo[1] ?? '', cat, scope);
  return str(lookup(scope, code));
};

const truthy = (v: PhpValue): boolean => (Array.isArray(v) ? v.length > 0 : typeof v === 'function' ? v() !== '' : v !== false && v !== '');

const run = (nodes: readonly Node[], cat: Catalog, scope: PhpScope): string =>
  nodes.map((n) => {
    if ('text' in n) return n.text;
    if ('code' in n) return statement(n.code, cat, scope);
    if ('cond' in n) return run(truthy(lookup(scope, n.cond)) ? n.then : n.other, cat, scope);
    const items = lookup(scope, n.list);
    if (!Array.isArray(items)) throw new Error(`not a list: ${n.list}`);
    return (items as readonly PhpScope[]).map((item) => run(n.body, cat, { ...scope, ...item })).join('');
  }).join('');

/** Renders a Horde_View template's source in one language. */
export const renderPhpView = (src: string, cat: Catalog, scope: PhpScope): string => run(parse(src), cat, scope);
