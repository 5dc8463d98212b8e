/**
 * PHP string literals and `$ARRAY['key'] = 'a' . "b" . $CONF['x'];` assignments, as the language
 * files of PHP products (postfixadmin's `languages/*.lang`) write them. Only literals and
 * substitutions given by the caller are understood; anything else ends the value.
 */

/** The value of a PHP string literal, quotes included (`'…'` or `"…"`). */
export const unquote = (lit: string): string => {
  const body = lit.slice(1, -1);
  if (lit.startsWith("'")) return body.replace(/\\([\\'])/g, '$1');
  const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', $: '$' };
  return body.replace(/\\([ntr"\\$])/g, (_m, c: string) => map[c] ?? c);
};

const LITERAL = /^\s*(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\$\w+\[\s*'[^']*'\s*\])\s*/s;

/** The value of every `$name['key'] = …;` in `src`, literals concatenated and `$X['k']` taken from `vars`. */
export const phpAssignments = (src: string, name: string, vars: Readonly<Record<string, string>> = {}): Map<string, string> => {
  const out = new Map<string, string>();
  const head = new RegExp(`\\$${name}\\[\\s*'([^']+)'\\s*\\]\\s*=`, 'g');
  for (const m of src.matchAll(head)) {
    let rest = src.slice((m.index ?? 0) + m[0].length);
    let value = '';
    for (;;) {
      const lit = LITERAL.exec(rest);
      if (lit === null) break;
      const token = lit[0].trim();
      value += token.startsWith('$') ? (vars[/'([^']*)'/.exec(token)?.[1] ?? ''] ?? '') : unquote(token);
      rest = rest.slice(lit[0].length);
      if (!rest.startsWith('.')) break;
      rest = rest.slice(1);
    }
    out.set(m[1] ?? '', value);
  }
  return out;
};

/** sprintf's `%s` (and `%1$s`) filled in order. */
export const sprintf = (format: string, ...args: string[]): string => {
  let i = 0;
  return format.replace(/%(?:(\d+)\$)?s/g, (_m, pos?: string) => (pos !== undefined ? args[Number(pos) - 1] : args[i++]) ?? '');
};

/** The value of the `'a' . "b" . …` chain of literals at the start of `src`, and where it ends. */
export const literalChain = (src: string): { value: string; end: number } => {
  let rest = src;
  let value = '';
  for (;;) {
    const lit = /^\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\s*/s.exec(rest);
    if (lit === null) break;
    value += unquote(lit[1] ?? '');
    rest = rest.slice(lit[0].length);
    if (!rest.startsWith('.')) break;
    rest = rest.slice(1);
  }
  return { value, end: src.length - rest.length };
};
