import { createHash } from 'node:crypto';
import type { CoreDeps } from '../deps.js';
import type { SecretValue } from '../extraction/secret-masker.js';
import type { AttachmentMeta, MailAddress, ParsedMessage } from '../extraction/types.js';
import type { NewEntry } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { bodyAt, findBodySpan, type BodySpan, type StorageDigest } from './body-span.js';
import type { AuthenticationResults, InboundEnvelope } from './ports.js';
import type { ExtractionRecord } from './extraction-record.js';
import { overlay } from '../store/overlay.js';

/** What the parsed form of a stored message may hold at most; the raw bytes are always whole. */
export const MESSAGE_BOUNDS = { text: 256 * 1024, html: 512 * 1024, headerValues: 200, headerValue: 4096 } as const;

/**
 * What the extraction engine reads of a message: the first 32 KiB of each body's text (the plain
 * part and the HTML part's visible text), the first 128 KiB of the HTML, the first 500 links. A
 * secret sits near the top of an auth email (the longest text of the labelled corpus is 1.5 KB);
 * past that, the engine's cost grows with the body and its finds do not (a 50 KiB plain body
 * took 0.76 ms to extract against 0.32 ms for its first 32 KiB). The stored message keeps
 * MESSAGE_BOUNDS.
 */
export const EXTRACTION_BOUNDS = { text: 32 * 1024, html: 128 * 1024, links: 500 } as const;

/** Raw bytes are stored in slices of this size, so no document nears a backend's size limit. */
export const RAW_CHUNK_BYTES = 512 * 1024;

/** A received message as stored: the bounded parsed form and where its raw bytes are. */
export interface MessageRecord {
  readonly id: string;
  readonly identity_id: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly received_at: string;
  readonly transport: InboundEnvelope['transport'];
  readonly envelope: { readonly mail_from: string | null; readonly rcpt_to: string };
  readonly message_id: string | null;
  readonly from: MailAddress;
  readonly to: readonly MailAddress[];
  readonly subject: string;
  readonly date: string | null;
  readonly headers: Readonly<Record<string, readonly string[]>>;
  /** Empty when `text_span` is set: the text is then read from the raw bytes ({@link withBodies}). */
  readonly text: string;
  /** Empty when `html_span` is set. */
  readonly html: string;
  /** Where the text lies in the raw bytes, when it is there verbatim (ADR 0023). */
  readonly text_span?: BodySpan;
  readonly html_span?: BodySpan;
  readonly truncated: boolean;
  readonly attachments: readonly AttachmentMeta[];
  readonly authentication: AuthenticationResults | null;
  readonly size: number;
  readonly sha256: string;
  readonly chunks: number;
  readonly extraction_id: string | null;
  /**
   * What its raw slices are named after (`<raw_key>:<n>`): a time-ordered id, given when the
   * message is stored in the step that records it (ADR 0029). Absent when they are named after the
   * message id: a message stored on its own before it was recorded, or by an earlier version.
   */
  readonly raw_key?: string;
  /**
   * The secrets the engine saw in it (every candidate at or above MASK_THRESHOLD), raw: what its
   * subject, bodies and headers hide from a caller who does not reveal. Absent on records stored
   * before it was kept; see {@link secretsOfMessage}.
   */
  readonly secrets?: readonly SecretValue[];
}

/**
 * What a message's texts hide, known without a read: its own list, or for a record stored before
 * the list was kept, the candidates of its extraction (`undefined` when it has neither).
 */
export const knownSecrets = (message: MessageRecord, extraction?: Pick<ExtractionRecord, 'candidates'>): readonly SecretValue[] | undefined =>
  message.secrets ?? extraction?.candidates.map((c) => ({ type: c.type, value: c.value }));

const sha256 = (data: string | Uint8Array): Buffer => createHash('sha256').update(data).digest();

/** A deterministic id: the same inputs always name the same record, so redelivery finds it. */
export const derivedId = (prefix: string, ...parts: readonly string[]): string =>
  `${prefix}_${sha256(parts.join('\n')).toString('base64url').slice(0, 24)}`;

export const contentHash = (raw: Uint8Array): string => sha256(raw).toString('hex');

const boundHeaders = (headers: ParsedMessage['headers']): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  let count = 0;
  for (const [name, values] of Object.entries(headers)) {
    for (const value of values) {
      if (count >= MESSAGE_BOUNDS.headerValues) return out;
      (out[name] ??= []).push(value.slice(0, MESSAGE_BOUNDS.headerValue));
      count += 1;
    }
  }
  return out;
};

/**
 * What storing `parsed` derives from `raw`: its content hash, and where its bounded text and HTML
 * lie in it verbatim (ADR 0023). A parser on another thread may run this and hand the answer
 * back with the parse (`ParseOutcome.digest`), which takes the work off the delivering thread.
 */
export const digestForStorage = (raw: Uint8Array, parsed: ParsedMessage): StorageDigest => {
  const textSpan = findBodySpan(raw, parsed.text.slice(0, MESSAGE_BOUNDS.text));
  const htmlSpan = findBodySpan(raw, parsed.html.slice(0, MESSAGE_BOUNDS.html));
  return {
    sha256: contentHash(raw),
    ...(textSpan === undefined ? {} : { textSpan }),
    ...(htmlSpan === undefined ? {} : { htmlSpan }),
  };
};

/**
 * `parsed` with each body that `digest` places in the raw bytes emptied, for a parser on another
 * thread to hand back (`ParseOutcome.digest`): the delivering thread neither copies nor keeps it.
 * A body over its bound stays whole, so that the record still says it was cut.
 */
export const withoutSpannedBodies = (parsed: ParsedMessage, digest: StorageDigest): ParsedMessage =>
  overlay(parsed, {
    text: digest.textSpan !== undefined && parsed.text.length <= MESSAGE_BOUNDS.text ? '' : parsed.text,
    html: digest.htmlSpan !== undefined && parsed.html.length <= MESSAGE_BOUNDS.html ? '' : parsed.html,
  });

/**
 * The stored form of a parsed message for one identity, bounded in size. A body with a span in
 * `digest` is stored as that span (it may be empty in `parsed`: {@link withoutSpannedBodies}).
 */
export const toMessageRecord = (input: {
  readonly id: string;
  readonly identity: { readonly id: string; readonly org_id: string; readonly project_id: string };
  readonly parsed: ParsedMessage;
  readonly raw: Uint8Array;
  /** {@link digestForStorage} of `raw` and `parsed`. */
  readonly digest: StorageDigest;
  readonly envelope: InboundEnvelope;
  readonly recipient: string;
  readonly receivedAt: string;
  readonly authentication: AuthenticationResults | null;
  readonly extractionId: string | null;
  /** What the raw slices are named after, when not after `id` (`raw_key`). */
  readonly rawKey?: string;
  /** What the message's texts hide ({@link MessageRecord.secrets}). */
  readonly secrets: readonly SecretValue[];
}): MessageRecord => {
  const { parsed, raw, digest } = input;
  const textSpan = digest.textSpan;
  const htmlSpan = digest.htmlSpan;
  // A body emptied by withoutSpannedBodies was within its bound.
  const truncated = parsed.text.length > MESSAGE_BOUNDS.text || parsed.html.length > MESSAGE_BOUNDS.html;
  return {
    id: input.id,
    identity_id: input.identity.id,
    org_id: input.identity.org_id,
    project_id: input.identity.project_id,
    received_at: input.receivedAt,
    transport: input.envelope.transport,
    envelope: { mail_from: input.envelope.mailFrom, rcpt_to: input.recipient },
    message_id: parsed.messageId,
    from: parsed.from,
    to: parsed.to,
    subject: parsed.subject,
    date: parsed.date,
    headers: boundHeaders(parsed.headers),
    // A body that is in the raw bytes verbatim is stored there only.
    text: textSpan === undefined ? parsed.text.slice(0, MESSAGE_BOUNDS.text) : '',
    html: htmlSpan === undefined ? parsed.html.slice(0, MESSAGE_BOUNDS.html) : '',
    ...(textSpan === undefined ? {} : { text_span: textSpan }),
    ...(htmlSpan === undefined ? {} : { html_span: htmlSpan }),
    truncated,
    attachments: parsed.attachments.slice(0, 100),
    authentication: input.authentication,
    size: raw.byteLength,
    sha256: digest.sha256,
    chunks: Math.max(1, Math.ceil(raw.byteLength / RAW_CHUNK_BYTES)),
    extraction_id: input.extractionId,
    ...(input.rawKey === undefined ? {} : { raw_key: input.rawKey }),
    secrets: input.secrets,
  };
};

/**
 * A slice as stored: its bytes, in `bytes` (a store keeps a field of bytes as it is). A slice of a
 * larger buffer is copied first, so that a store that clones documents copies the slice alone.
 */
const chunkOf = (id: string, slice: Buffer) => ({
  id,
  bytes: slice.byteOffset === 0 && slice.byteLength === slice.buffer.byteLength ? slice : Buffer.from(slice),
});

/** The id of the `n`th raw slice of the slices named after `key`. */
const sliceId = (key: string, n: number): string => `${key}:${n}`;

/** What names a stored message's raw slices and says how many there are. */
type RawOwner = Pick<MessageRecord, 'id' | 'chunks' | 'raw_key'>;

/** What a stored message's raw slices are named after. */
const rawKeyOf = (record: RawOwner): string => record.raw_key ?? record.id;

/** The raw bytes as the documents of their slices, in order, named after `key`. */
export const rawSlices = (key: string, raw: Uint8Array): NewEntry[] => {
  const chunks = Math.max(1, Math.ceil(raw.byteLength / RAW_CHUNK_BYTES));
  const slices: NewEntry[] = [];
  for (let n = 0; n < chunks; n += 1) {
    const slice = Buffer.from(raw.buffer, raw.byteOffset + n * RAW_CHUNK_BYTES, Math.min(RAW_CHUNK_BYTES, raw.byteLength - n * RAW_CHUNK_BYTES));
    slices.push({ collection: C.messageChunks, doc: chunkOf(sliceId(key, n), slice) });
  }
  return slices;
};

/**
 * Writes the raw bytes in slices named after `key`, all at once (insert-if-absent, so a
 * redelivery rewrites nothing).
 */
export const storeRaw = async (deps: CoreDeps, key: string, raw: Uint8Array): Promise<void> => {
  await Promise.all(rawSlices(key, raw).map(({ collection, doc }) => deps.store.insert(collection, doc)));
};

/** Removes a message's raw slices, all at once. */
export const removeRaw = async (deps: CoreDeps, record: RawOwner): Promise<void> => {
  const key = rawKeyOf(record);
  await Promise.all(Array.from({ length: record.chunks }, (_, n) => deps.store.remove(C.messageChunks, sliceId(key, n))));
};

/**
 * The raw bytes of a stored message, reassembled, or those of its slices that hold
 * `[from, to)` (the returned buffer then starts at the first of them: see {@link withBodies});
 * `undefined` when a slice is missing. Slices stored by earlier versions hold ASCII text
 * (`ascii`) or base64 (`data`) instead of bytes.
 */
export const loadRaw = async (deps: CoreDeps, record: RawOwner, from = 0, to = Number.POSITIVE_INFINITY): Promise<Buffer | undefined> => {
  const key = rawKeyOf(record);
  const parts: Buffer[] = [];
  const last = Math.min(record.chunks, Math.ceil(to / RAW_CHUNK_BYTES));
  for (let n = Math.floor(from / RAW_CHUNK_BYTES); n < last; n += 1) {
    const chunk = await deps.store.get(C.messageChunks, sliceId(key, n));
    if (chunk?.bytes instanceof Uint8Array) parts.push(Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength));
    else if (typeof chunk?.ascii === 'string') parts.push(Buffer.from(chunk.ascii, 'latin1'));
    else if (typeof chunk?.data === 'string') parts.push(Buffer.from(chunk.data, 'base64'));
    else return undefined;
  }
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
};

/**
 * The record with its text and HTML in place: a body stored as a span of the raw bytes is read
 * from the slices that hold it. Throws when one of them is missing.
 */
export const withBodies = async (deps: CoreDeps, record: MessageRecord): Promise<MessageRecord> => {
  const spans = [record.text_span, record.html_span].filter((span): span is BodySpan => span !== undefined);
  if (spans.length === 0) return record;
  const from = Math.min(...spans.map((span) => span.start));
  const to = Math.max(...spans.map((span) => span.end));
  const first = Math.floor(from / RAW_CHUNK_BYTES) * RAW_CHUNK_BYTES;
  const raw = await loadRaw(deps, record, from, to);
  if (raw === undefined || first + raw.byteLength < to) throw new Error(`raw bytes of ${record.id} are incomplete`);
  const read = (span: BodySpan | undefined, stored: string): string => (span === undefined ? stored : bodyAt(raw, { start: span.start - first, end: span.end - first }));
  const { text_span: _text, html_span: _html, ...rest } = record;
  return overlay(rest, { text: read(record.text_span, record.text), html: read(record.html_span, record.html) });
};
