/**
 * A pragmatic RFC 5322 address-list reader: it finds the addr-specs in a header value and ignores
 * display names, comments, groups and source routes. It never throws; what does not look like
 * `local@domain` is dropped, because an address we cannot read cannot be routed anyway.
 */

// A dot-atom or quoted local part, then a domain name or a domain literal.
const ADDR_SPEC = /^(?:"(?:[^"\\\r\n]|\\.)*"|[^\s"@<>()[\],;:\\]+)@(?:[^\s"@<>()[\],;:\\]+|\[[^\s[\]\\]*\])$/u;

interface Scan {
  /** Text of the current mailbox outside angle brackets and comments. */
  outside: string;
  /** Text inside `<...>` once an angle bracket opened; it wins over `outside`. */
  angle: string | undefined;
  inAngle: boolean;
  quoted: boolean;
  literal: boolean;
  comment: number;
  escaped: boolean;
}

const fresh = (): Scan => ({ outside: '', angle: undefined, inAngle: false, quoted: false, literal: false, comment: 0, escaped: false });

const append = (scan: Scan, text: string): void => {
  if (scan.inAngle) scan.angle = (scan.angle ?? '') + text;
  else scan.outside += text;
};

/** Drops an obsolete source route (`<@relay1,@relay2:user@host>`). */
const withoutRoute = (angle: string): string => {
  const trimmed = angle.trim();
  return trimmed.startsWith('@') ? trimmed.slice(trimmed.indexOf(':') + 1) : trimmed;
};

const flush = (scan: Scan, found: string[]): void => {
  const candidate = (scan.angle !== undefined ? withoutRoute(scan.angle) : scan.outside).trim();
  if (ADDR_SPEC.test(candidate)) found.push(candidate);
  Object.assign(scan, fresh());
};

/** Handles a character inside a quoted string, a comment or a domain literal; false otherwise. */
const inNested = (scan: Scan, ch: string): boolean => {
  if (scan.escaped) {
    // Escaped characters belong to the quoted string; in comments they are dropped with the comment.
    if (scan.comment === 0) append(scan, ch);
    scan.escaped = false;
    return true;
  }
  if (scan.comment > 0) {
    if (ch === '\\') scan.escaped = true;
    else if (ch === '(') scan.comment += 1;
    else if (ch === ')') scan.comment -= 1;
    return true;
  }
  if (scan.quoted || scan.literal) {
    append(scan, ch);
    if (scan.quoted && ch === '\\') scan.escaped = true;
    else if (scan.quoted && ch === '"') scan.quoted = false;
    else if (scan.literal && ch === ']') scan.literal = false;
    return true;
  }
  return false;
};

const step = (scan: Scan, ch: string, found: string[]): void => {
  if (inNested(scan, ch)) return;
  if (ch === '"') scan.quoted = true;
  else if (ch === '[') scan.literal = true;
  else if (ch === '(') {
    scan.comment = 1;
    append(scan, ' ');
    return;
  } else if (ch === '<') {
    scan.inAngle = true;
    scan.angle = '';
    return;
  } else if (ch === '>' && scan.inAngle) {
    scan.inAngle = false;
    return;
  } else if (ch === ':' && !scan.inAngle) {
    // The display name of a group (`Team: a@x, b@y;`) ends here; its members follow.
    scan.outside = '';
    return;
  } else if ((ch === ',' || ch === ';') && !scan.inAngle) {
    flush(scan, found);
    return;
  }
  append(scan, ch);
};

/** The addr-specs of an address-list header value (`To`, `Cc`, `Delivered-To`, ...), in order. */
export const parseAddressList = (value: string): string[] => {
  const found: string[] = [];
  const scan = fresh();
  for (const ch of value) step(scan, ch, found);
  flush(scan, found);
  return found;
};
