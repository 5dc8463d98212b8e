import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import { hashSecret, secretMatches } from '../auth/secrets.js';
import type { DomainError } from '../domain/errors.js';
import { invoiceNotFound, tokenExpired, tokenInvalid, tokenReplayed } from '../domain/errors.js';
import { iso, isoPlus } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import type { BillingDeps } from './billing-deps.js';
import type { InvoiceRecord } from './billing-record.js';
import { INVOICE_DOWNLOAD_TTL_MS } from './callbacks.js';

type Stored = InvoiceRecord & StoredDocument;

const loadInvoice = async (deps: BillingDeps, principal: Principal, id: string): Promise<E.Either<DomainError, Stored>> => {
  const record = (await deps.store.get(C.invoices, id)) as Stored | undefined;
  return record === undefined || record.org_id !== principal.orgId ? E.left(invoiceNotFound(id)) : E.right(record);
};

/**
 * Issues a fresh one-time download token for the invoice's PDF (24 hours); the one issued before
 * stops working. Only its hash is kept; the invoice shows its last four characters.
 */
export const issueInvoiceDownload =
  (deps: BillingDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, { invoice_id: string; download_token: string; expires_at: string }> =>
  async () => {
    const found = await loadInvoice(deps, principal, id);
    if (E.isLeft(found)) return found;
    const token = `idt_${deps.ids.secret(32)}`;
    const { version, ...rest } = found.right;
    const expires = isoPlus(deps.clock.now(), INVOICE_DOWNLOAD_TTL_MS);
    const next: InvoiceRecord = { ...rest, download_hash: hashSecret(token), download_preview: `idt_…${token.slice(-4)}`, download_expires_at: expires, download_used_at: null };
    if (!(await deps.store.replace(C.invoices, next, version))) return E.left(tokenReplayed());
    return E.right({ invoice_id: id, download_token: token, expires_at: expires });
  };

/**
 * Exchanges the invoice's download token for its PDF, once: the token is checked in constant
 * time, the PDF rendered, then the token marked used by compare-and-set (of two concurrent
 * exchanges one gets the PDF).
 */
export const exchangeInvoiceDownload =
  (deps: BillingDeps) =>
  (principal: Principal, id: string, token: string): TE.TaskEither<DomainError, Buffer> =>
  async () => {
    const found = await loadInvoice(deps, principal, id);
    if (E.isLeft(found)) return found;
    const invoice = found.right;
    if (!secretMatches(token, invoice.download_hash)) return E.left(tokenInvalid());
    if (invoice.download_used_at !== null) return E.left(tokenReplayed());
    const now = iso(deps.clock.now());
    if (invoice.download_expires_at <= now) return E.left(tokenExpired());
    // Rendered before the token is spent: a rendering that fails leaves the token usable.
    const pdf = await deps.billing.renderer.render({
      id: invoice.id,
      orgId: invoice.org_id,
      amountCents: invoice.amount_cents,
      currency: invoice.currency,
      periodStart: invoice.period_start,
      periodEnd: invoice.period_end,
      createdAt: invoice.created_at,
      lines: invoice.lines.map((l) => ({ description: l.description, amountCents: l.amount_cents })),
      provider: deps.billing.provider.name,
      providerReference: invoice.provider_reference,
    });
    const { version, ...rest } = invoice;
    if (!(await deps.store.replace(C.invoices, { ...rest, download_used_at: now }, version))) return E.left(tokenReplayed());
    return E.right(Buffer.from(pdf));
  };
