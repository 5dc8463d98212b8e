/**
 * TSX e-mail templates (react-email style) evaluated without React: the source is transpiled by
 * TypeScript with a classic JSX factory that builds HTML strings, its imports answered by the
 * caller's modules (components written as plain functions of their props). The markup of a library
 * component is the caller's approximation; the text, attributes and structure are the template's.
 */
import ts from 'typescript';

export type Child = string | number | boolean | null | undefined | readonly Child[];
export type Component = (props: Record<string, unknown> & { children?: Child }) => string;

const VOID = new Set(['br', 'hr', 'img', 'meta', 'link', 'input']);
const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const kebab = (k: string): string => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

// Marks a string as markup already, so that children built by `h` are not escaped twice.
const HTML = Symbol('html');
type Markup = string & { [HTML]?: true };
const markup = (s: string): Markup => Object.assign(new String(s), { [HTML]: true }) as unknown as Markup;

/** Children as HTML: markup as is, text escaped, booleans and empty values dropped. */
export const children = (c: Child): string => {
  if (Array.isArray(c)) return c.map((x: Child) => children(x)).join('');
  if (c === null || c === undefined || typeof c === 'boolean') return '';
  if (typeof c === 'object' && (c as unknown as Markup)[HTML] === true) return String(c);
  return escape(String(c));
};

const attrs = (props: Record<string, unknown>): string =>
  Object.entries(props)
    .filter(([k, v]) => k !== 'children' && k !== 'key' && v !== undefined && v !== null && v !== false)
    .map(([k, v]) => {
      const name = k === 'className' ? 'class' : k;
      const value = k === 'style' && typeof v === 'object' ? Object.entries(v as object).map(([sk, sv]) => `${kebab(sk)}:${String(sv)}`).join(';') : String(v);
      return ` ${name}="${escape(value)}"`;
    })
    .join('');

/** An element: `tag` with its attributes, or a component called with its props. */
export const element = (tag: string, props: Record<string, unknown>, inner: string): Markup =>
  markup(VOID.has(tag) ? `<${tag}${attrs(props)}>` : `<${tag}${attrs(props)}>${inner}</${tag}>`);

const FRAGMENT = Symbol('fragment');
const h = (type: string | Component | symbol, props: Record<string, unknown> | null, ...kids: Child[]): Markup => {
  const p = props ?? {};
  if (type === FRAGMENT) return markup(children(kids));
  if (typeof type === 'function') return markup((type as Component)({ ...p, children: kids }));
  return element(String(type), p, children(kids));
};

/** Evaluates a TSX module's source, answering `import … from 'x'` with `modules[x]`, and answers its exports. */
export const evaluateTsx = (src: string, modules: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const js = ts.transpileModule(src, { compilerOptions: { jsx: ts.JsxEmit.React, jsxFactory: 'h', jsxFragmentFactory: 'Fragment', module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exports: Record<string, unknown> = {};
  new Function('exports', 'require', 'h', 'Fragment', js)(exports, (id: string) => {
    if (!(id in modules)) throw new Error(`template imports ${id}`);
    return modules[id];
  }, h, FRAGMENT);
  return exports;
};
