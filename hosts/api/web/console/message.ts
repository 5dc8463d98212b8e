// One message: sender, time, text, the sender's HTML in a sandboxed frame, SPF/DKIM/DMARC, the
// headers, the attachments (names only: the service keeps no contents) and the raw source as a
// download. The frame is `sandbox=""` (no script, no same origin) with a `srcdoc` under its own
// policy that loads nothing; the page's policy, which srcdoc documents inherit, forbids the rest.
import { el } from '../dom.js';
import { sender, when } from './format.js';
import { download, scopes } from './session.js';
import type { Message, Verdict } from './types.js';

const WITHHELD = "This mail's formatting holds a code or link that could not be masked in place, so it is not shown; a key with secrets:read can show it.";

const FRAME_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const frame = (html: string): HTMLIFrameElement => {
  const node = el('iframe', { class: 'mail-frame', sandbox: '', referrerpolicy: 'no-referrer', title: 'The mail as its sender formatted it' });
  node.srcdoc = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${FRAME_POLICY}"></head><body>${html}</body></html>`;
  return node;
};

const verdict = (name: string, v: Verdict | null): HTMLTableRowElement =>
  el('tr', {}, el('th', { scope: 'row' }, name), el('td', { class: `verdict verdict-${v?.result ?? 'none'}` }, v?.result ?? 'not checked'), el('td', {}, v?.domain ?? ''));

const authentication = (m: Message): HTMLElement =>
  el(
    'section',
    { 'aria-labelledby': 'auth-title' },
    el('h4', { id: 'auth-title' }, 'Sender authentication'),
    ...(m.authentication.checked ? [] : [el('p', { class: 'muted' }, 'The host did not check this mail as it came in (MAIL_AUTH=off).')]),
    el('table', { class: 'grid' }, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Check'), el('th', { scope: 'col' }, 'Result'), el('th', { scope: 'col' }, 'Domain'))),
      el('tbody', {}, verdict('SPF', m.authentication.spf), verdict('DKIM', m.authentication.dkim), verdict('DMARC', m.authentication.dmarc))),
  );

const headers = (m: Message): HTMLElement => {
  const list = el('dl', { class: 'headers' });
  for (const [name, values] of Object.entries(m.headers)) for (const value of values) list.append(el('dt', {}, name), el('dd', {}, value));
  return el('details', {}, el('summary', {}, `Headers (${list.childElementCount / 2})`), list);
};

const attachments = (m: Message): HTMLElement =>
  el(
    'section',
    { 'aria-labelledby': 'attachments-title' },
    el('h4', { id: 'attachments-title' }, `Attachments (${m.attachments.length})`),
    m.attachments.length === 0
      ? el('p', { class: 'muted' }, 'None.')
      : el('ul', {}, ...m.attachments.map((a) => el('li', {}, `${a.filename ?? '(unnamed)'} · ${a.contentType} · ${a.size} bytes`))),
  );

/** The raw source, fetched with the token and saved from a blob (no token in any URL). */
const rawButton = (identityId: string, m: Message): HTMLElement => {
  if (!scopes().includes('secrets:read')) return el('p', { class: 'muted' }, 'The raw source needs a key with secrets:read.');
  const status = el('span', { class: 'status', role: 'status' });
  const button = el('button', { type: 'button', class: 'secondary' }, 'Download raw source');
  button.addEventListener('click', () => {
    void download(`/v1/identities/${identityId}/messages/${m.id}/raw`).then((got) => {
      if (!(got instanceof Blob)) return void (status.textContent = `Not downloaded: ${got.message ?? got.status}`);
      const link = el('a', { href: URL.createObjectURL(got), download: `${m.id}.eml` });
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      status.textContent = 'Downloaded.';
    });
  });
  return el('p', { class: 'buttons' }, button, status);
};

/** Show or mask the codes and links of the mail, for a key with secrets:read. */
const revealToggle = (reveal: { revealed: boolean; toggle: () => void }): HTMLElement => {
  if (!scopes().includes('secrets:read')) return el('p', { class: 'muted' }, 'Codes and links in this mail are masked; a key with secrets:read can show them.');
  const button = el('button', { type: 'button', class: 'secondary', 'aria-pressed': String(reveal.revealed) }, reveal.revealed ? 'Mask codes and links' : 'Show codes and links');
  button.addEventListener('click', reveal.toggle);
  return el('p', { class: 'buttons' }, button);
};

/** The message's parts, to put after the Back button. */
export const renderMessage = (identityId: string, m: Message, reveal: { revealed: boolean; toggle: () => void }): Node[] => [
  el('h3', { id: 'message-subject', tabindex: '-1' }, m.subject || '(no subject)'),
  el('dl', { class: 'meta' }, el('dt', {}, 'From'), el('dd', {}, sender(m.from)), el('dt', {}, 'To'), el('dd', {}, m.to.map(sender).join(', ')),
    el('dt', {}, 'Received'), el('dd', {}, el('time', { datetime: m.received_at }, when(m.received_at)))),
  revealToggle(reveal),
  ...(m.truncated ? [el('p', { class: 'muted' }, 'This mail was larger than the service keeps; its end is cut off.')] : []),
  el('h4', {}, 'Text'),
  el('pre', { class: 'mail-text' }, m.text.trim() === '' ? '(This mail has no plain-text part.)' : m.text),
  ...(m.html_withheld === true ? [el('h4', {}, 'As the sender formatted it'), el('p', { class: 'muted', id: 'message-html-withheld' }, WITHHELD)] : []),
  ...(m.html.trim() === '' ? [] : [el('h4', {}, 'As the sender formatted it'), el('p', { class: 'muted' }, 'Without scripts or remote images.'), frame(m.html)]),
  authentication(m),
  attachments(m),
  headers(m),
  rawButton(identityId, m),
];
