// Small DOM helpers: the page builds its few dynamic parts by hand, always through textContent.

/** The element with this id; a missing one is a bug in index.html, so it throws. */
export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`#${id} is missing from the page`);
  return found as T;
};

/** A new element with text and attributes. */
export const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
};

/** Says something to screen-reader users (and shows it) in a polite live region. */
export const say = (region: HTMLElement, text: string): void => {
  region.textContent = text;
};

/**
 * Copies text, falling back to asking the person to select it when the clipboard is not
 * available. `what` names it in the confirmation (a secret is not read out again).
 */
export const copy = async (text: string, status: HTMLElement, what = text): Promise<void> => {
  try {
    await navigator.clipboard.writeText(text);
    say(status, `Copied ${what}`);
  } catch {
    say(status, `Select and copy: ${text}`);
  }
};

/** A copy button, reporting to `status`; `what` names the thing copied (default: the text). */
export const copyButton = (text: string, status: HTMLElement, what = text): HTMLButtonElement => {
  const button = el('button', { type: 'button', class: 'secondary', 'aria-label': `Copy ${what}` }, 'Copy');
  button.addEventListener('click', () => void copy(text, status, what));
  return button;
};

/** "3 h 12 min left" style, or "expired". */
export const timeLeft = (expiresAt: string, now = Date.now()): string => {
  const ms = Date.parse(expiresAt) - now;
  if (!(ms > 0)) return 'expired';
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'less than a minute left';
  const hours = Math.floor(minutes / 60);
  if (hours >= 48) return `${Math.floor(hours / 24)} days left`;
  return hours > 0 ? `${hours} h ${minutes % 60} min left` : `${minutes} min left`;
};

export const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
