import { htmlToView, type MailAddress, type ParsedMessage } from '@ephemail/core';
import type { Address, Email } from 'postal-mime';

const mailbox = (a: Address | undefined): MailAddress[] => {
  if (!a) return [];
  if (a.group) return a.group.map((m) => ({ address: m.address, name: m.name }));
  return [{ address: a.address ?? '', name: a.name }];
};

const headerMap = (email: Email): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  for (const h of email.headers) (out[h.key] ??= []).push(h.value);
  return out;
};

const sizeOf = (content: ArrayBuffer | Uint8Array | string): number =>
  typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;

const isoDate = (value: string | undefined): string | null => {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
};

/** Which bodies a message really carries; postal-mime fills a missing one from the other. */
export interface CarriedBodies {
  readonly plain: boolean;
  readonly html: boolean;
}

const BOTH: CarriedBodies = { plain: true, html: true };

/**
 * Maps postal-mime's result to the core's ParsedMessage, deriving the HTML view once. A body the
 * message does not carry (`carried`, both by default) is left out; passing this, rather than a
 * copy of the result without that body, saves a copy of every field.
 */
export const toParsedMessage = (email: Email, envelopeFrom = '', carried: CarriedBodies = BOTH): ParsedMessage => {
  const html = (carried.html ? email.html : undefined) ?? '';
  const view = html.length > 0 ? htmlToView(html) : { text: '', links: [] };
  return {
    envelopeFrom,
    from: mailbox(email.from)[0] ?? { address: '', name: '' },
    to: (email.to ?? []).flatMap(mailbox),
    subject: email.subject ?? '',
    date: isoDate(email.date),
    messageId: email.messageId ?? null,
    headers: headerMap(email),
    text: (carried.plain ? email.text : undefined) ?? '',
    html,
    htmlText: view.text,
    links: view.links,
    attachments: email.attachments.map((a) => ({ filename: a.filename, contentType: a.mimeType, size: sizeOf(a.content) })),
  };
};
