import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import * as E from 'fp-ts/lib/Either.js';
import type { CsvEncoder, DocumentStore, EventRecord, ExportOptions, ExportStorage, ExportView, ExtractionRecord } from '../../src/index.js';
import { createEphemail, createMemoryDocumentStore, createMemoryExportStorage, FakeClock } from '../../src/index.js';
import { newPrincipal } from '../support.js';

export const EXPORT_SCOPES = ['identities:read', 'identities:write', 'exports:read', 'exports:write'];

/**
 * A minimal RFC 4180 encoder for core's own tests (the real one, csv-stringify's, lives in
 * adapters/export-csv and has tests of its own): quote when needed, double quotes, CRLF.
 */
export const testCsvEncoder: CsvEncoder = {
  encode: (rows) => rows.map((row) => `${row.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',')}\r\n`).join(''),
};

export type App = ReturnType<typeof createEphemail>;

/** A service instance ("host") over a given store, storage and clock: two of them share one world. */
export const hostOver = (world: { store: DocumentStore; storage: ExportStorage; clock: FakeClock; key: Buffer }, options: ExportOptions = {}): App =>
  createEphemail({
    store: world.store,
    inboxDomain: 'inbox.test',
    clock: world.clock,
    exports: { storage: world.storage, csv: testCsvEncoder, signingKey: world.key, downloadBase: 'https://files.example.com', ...options },
  });

/** A fresh world (memory store, memory storage, fake clock), one host on it, and a tenant allowed to export. */
export const setupExports = async (options: ExportOptions = {}) => {
  const world = { store: createMemoryDocumentStore(), storage: createMemoryExportStorage(), clock: new FakeClock('2026-03-01T12:00:00.000Z'), key: randomBytes(32) };
  const app = hostOver(world, options);
  await app.init();
  const principal = await newPrincipal(app, { scopes: EXPORT_SCOPES, plan: 'enterprise' });
  return { ...world, app, principal };
};

export const rightOf = <A>(either: E.Either<{ _tag: string }, A>): A => {
  if (E.isLeft(either)) throw new Error(`expected Right, got ${either.left._tag}`);
  return either.right;
};

export const readText = async (stream: Readable): Promise<string> => {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part as string));
  return Buffer.concat(parts).toString('utf8');
};

/** The `expires` and `signature` of a download URL, with the export id of its path. */
export const linkParts = (url: string) => {
  const parsed = new URL(url);
  return { exportId: decodeURIComponent(parsed.pathname.split('/')[3]!), expires: parsed.searchParams.get('expires') ?? undefined, signature: parsed.searchParams.get('signature') ?? undefined };
};

/** The bytes a ready export's link serves. */
export const downloaded = async (app: App, view: ExportView): Promise<string> => {
  const file = rightOf(await app.exports.download(linkParts(view.download_url!)));
  return readText(file.stream);
};

let seq = 0;

/** Logs an event of the tenant directly (as the outbox writes them), at `occurred_at`. */
export const logEvent = async (store: DocumentStore, tenant: { orgId: string; projectId: string }, occurredAt: string, data: Record<string, unknown> = {}): Promise<EventRecord> => {
  seq += 1;
  const event: EventRecord = {
    id: `evt_${occurredAt.replace(/\D/g, '')}${randomBytes(6).toString('hex')}`,
    type: 'email.received',
    identity_id: 'ident_export_test',
    seq,
    position: seq,
    org_id: tenant.orgId,
    project_id: tenant.projectId,
    occurred_at: occurredAt,
    data: { identity_id: 'ident_export_test', ...data },
  };
  await store.insert('events', event);
  return event;
};

/** Stores an extraction of the tenant holding a raw code, as receiving a message does. */
export const storeExtraction = async (store: DocumentStore, tenant: { orgId: string; projectId: string }, extractedAt: string, value: string): Promise<ExtractionRecord> => {
  const record: ExtractionRecord = {
    id: `ext_${randomBytes(8).toString('hex')}`,
    identity_id: 'ident_export_test',
    org_id: tenant.orgId,
    project_id: tenant.projectId,
    message_id: `msg_${randomBytes(6).toString('hex')}`,
    source_event_id: `evt_${randomBytes(6).toString('hex')}`,
    extracted_at: extractedAt,
    type: 'otp',
    value,
    link_kind: null,
    confidence: 0.93,
    candidates: [{ type: 'otp', value, link_kind: null, confidence: 0.93 }],
  };
  await store.insert('extractions', record);
  return record;
};
