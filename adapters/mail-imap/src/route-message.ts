import { parseAddressList } from './address-list.js';
import { readHeaderFields } from './header-fields.js';

/**
 * The headers whose addresses become recipients, most trustworthy first. `X-Original-To` and
 * `Delivered-To` are written by the upstream's delivery agent from the SMTP envelope, so they
 * name Bcc recipients and aliases too; `To` and `Cc` name everyone the sender addressed. Core
 * rejects every address that is not one of its identities, so a generous union costs a lookup,
 * while a narrow one would lose mail sent to an identity in Cc.
 */
export const ROUTING_HEADERS = ['x-original-to', 'delivered-to', 'to', 'cc'] as const;

/** The envelope the poller reconstructs from a message's headers. */
export interface MessageRouting {
  /** The address of the first `Return-Path`, `null` when absent or `<>`. */
  readonly mailFrom: string | null;
  /** Distinct (case-insensitively) addresses of the routing headers, in header order. */
  readonly rcptTo: readonly string[];
}

/**
 * Reads the routing of one raw message. At most `maxRecipients` addresses are kept, so a message
 * listing thousands of addresses costs a bounded number of identity lookups downstream.
 */
export const routeMessage = (raw: Uint8Array, maxRecipients: number): MessageRouting => {
  const fields = readHeaderFields(raw);
  const returnPath = fields.find((field) => field.name === 'return-path');
  const mailFrom = returnPath === undefined ? null : (parseAddressList(returnPath.value)[0] ?? null);
  const seen = new Set<string>();
  const rcptTo: string[] = [];
  for (const header of ROUTING_HEADERS) {
    for (const field of fields) {
      if (field.name !== header) continue;
      for (const address of parseAddressList(field.value)) {
        const folded = address.toLowerCase();
        if (seen.has(folded) || rcptTo.length >= maxRecipients) continue;
        seen.add(folded);
        rcptTo.push(address);
      }
    }
  }
  return { mailFrom, rcptTo };
};
