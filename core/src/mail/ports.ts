/**
 * The contracts between core and the mail transports. Transports (the SMTP MX, the IMAP poller)
 * only translate their protocol to these calls; every rule lives behind them in core.
 */

/** What core says about one recipient address, asked at SMTP `RCPT` time. */
export type RecipientVerdict =
  | { readonly kind: 'accept'; readonly identityId: string }
  /** No identity has this address (or it is not on a domain we serve): SMTP 550. */
  | { readonly kind: 'unknown' }
  /** The identity's TTL has elapsed: SMTP 550. */
  | { readonly kind: 'expired' }
  /** The identity was squashed: SMTP 550. */
  | { readonly kind: 'squashed' }
  /** The identity's mailbox is full: SMTP 452 (temporary; the sender may retry later). */
  | { readonly kind: 'over_quota' };

/** How a message reached us. */
export interface InboundEnvelope {
  /** MAIL FROM, `null` for the null reverse-path `<>`. */
  readonly mailFrom: string | null;
  /** Recipients to deliver to; for IMAP, the addresses found in To/Delivered-To/X-Original-To. */
  readonly rcptTo: readonly string[];
  readonly transport: 'smtp' | 'imap';
  /** Client IP (SMTP) for SPF. */
  readonly remoteAddress?: string;
  /** HELO/EHLO name (SMTP) for SPF. */
  readonly heloName?: string;
  /** Where an IMAP message came from, e.g. `imap://user@host/INBOX#uid` (no secrets). */
  readonly source?: string;
}

/** The outcome for one recipient of a delivery. */
export type DeliveryOutcome =
  | { readonly recipient: string; readonly kind: 'stored'; readonly messageId: string; readonly identityId: string; readonly duplicate: boolean }
  | { readonly recipient: string; readonly kind: 'rejected'; readonly reason: Exclude<RecipientVerdict['kind'], 'accept'> | 'unparseable' };

/**
 * What a mail transport needs from core. Contract: `deliver` resolves only once every stored
 * copy is durable (so an SMTP server may answer 250 then); it rejects (throws) when the store
 * failed, and the transport must then answer a temporary failure (SMTP 451) so the sender
 * retries. Delivering the same bytes with the same envelope again is harmless: the copy is
 * recognised (Message-ID + envelope + content hash) and reported with `duplicate: true`.
 */
export interface MailIngress {
  checkRecipient(address: string): Promise<RecipientVerdict>;
  /**
   * Delivers one message to each recipient of the envelope. `raw` is handed over: an ingress may
   * take its memory instead of copying it (the host's delivery threads take a buffer that holds
   * the message alone), so a caller must not read or change `raw` once it called `deliver`.
   */
  deliver(raw: Uint8Array, envelope: InboundEnvelope): Promise<readonly DeliveryOutcome[]>;
}

/** Where an IMAP poller resumes: the mailbox's UIDVALIDITY and the last UID fed to the pipeline. */
export interface MailboxCursor {
  readonly uidValidity: string;
  readonly lastUid: number;
}

/**
 * Durable cursors of polled mailboxes, keyed by a stable mailbox key (host, user, folder).
 * `save` is compare-and-set on the previous cursor (`undefined` for none): it answers `false`
 * when another poller moved the cursor meanwhile.
 */
export interface MailboxCursorStore {
  load(mailboxKey: string): Promise<MailboxCursor | undefined>;
  save(mailboxKey: string, next: MailboxCursor, previous: MailboxCursor | undefined): Promise<boolean>;
}

/** An outgoing message (magic links, notifications). */
export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  /** Extra headers, e.g. `Auto-Submitted`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Sends mail. Resolves with the relay's message id once the relay accepted it; rejects otherwise. */
export interface MailSender {
  send(mail: OutgoingMail): Promise<{ readonly messageId: string }>;
}

export type AuthVerdict = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'temperror' | 'permerror' | 'policy';

/** SPF, DKIM and DMARC results of one message, as stored with it. */
export interface AuthenticationResults {
  readonly spf: { readonly result: AuthVerdict; readonly domain: string | null };
  readonly dkim: readonly { readonly result: AuthVerdict; readonly domain: string | null; readonly selector: string | null; readonly aligned: boolean }[];
  readonly dmarc: { readonly result: AuthVerdict; readonly domain: string | null; readonly policy: string | null };
  /** True when a passing DKIM signature's domain aligns with the From domain. */
  readonly dkimAligned: boolean;
}

/**
 * Checks SPF, DKIM and DMARC of a received message. Never throws for bad input or DNS trouble:
 * those become `temperror`/`permerror`/`none` results.
 */
export interface MessageAuthenticator {
  authenticate(
    raw: Uint8Array,
    context: { readonly mailFrom: string | null; readonly remoteAddress?: string; readonly heloName?: string },
  ): Promise<AuthenticationResults>;
}
