import { createHash } from 'node:crypto';
import { hashSecret } from '../auth/secrets.js';
import type { CoreDeps } from '../deps.js';
import { iso, isoPlus } from '../domain/time.js';
import { C } from '../store/collections.js';
import { updateWithRetry, write } from '../store/compare-and-set.js';
import { ensureAccount, setOrganizationPlan, type StoredAccount } from './account.js';
import type { BillingDeps } from './billing-deps.js';
import type { BillingAccount, InvoiceRecord } from './billing-record.js';
import type { ProviderEvent, ProviderInvoice } from './ports.js';
import { convertTrial } from './trials.js';

/** How long an invoice's PDF download token stays valid after it was issued. */
export const INVOICE_DOWNLOAD_TTL_MS = 24 * 3_600_000;

/**
 * `deferred`: the event concerns a subscription the service does not know yet (a provider may
 * send a renewal before the checkout that made the subscription); it is not marked handled, and
 * the endpoint answers 503 so the provider sends it again.
 */
export type CallbackOutcome = 'handled' | 'duplicate' | 'ignored' | 'invalid' | 'deferred';

const invoiceId = (reference: string): string => `inv_${createHash('sha256').update(reference).digest('base64url').slice(0, 24)}`;

/** Records an invoice once per provider reference, with a fresh one-time PDF download token. */
const recordInvoice = async (deps: CoreDeps, orgId: string, invoice: ProviderInvoice): Promise<void> => {
  const token = `idt_${deps.ids.secret(32)}`;
  const now = deps.clock.now();
  const record: InvoiceRecord = {
    id: invoiceId(invoice.reference),
    org_id: orgId,
    provider_reference: invoice.reference,
    amount_cents: invoice.amountCents,
    currency: invoice.currency.toLowerCase(),
    status: 'paid',
    period_start: invoice.periodStart,
    period_end: invoice.periodEnd,
    lines: invoice.lines.map((l) => ({ description: l.description, amount_cents: l.amountCents })),
    created_at: iso(now),
    download_hash: hashSecret(token),
    download_preview: `idt_…${token.slice(-4)}`,
    download_expires_at: isoPlus(now, INVOICE_DOWNLOAD_TTL_MS),
    download_used_at: null,
  };
  await deps.store.insert(C.invoices, record);
};

const accountBySubscription = async (deps: CoreDeps, subscriptionReference: string): Promise<StoredAccount | undefined> => {
  const [account] = await deps.store.find(C.billingAccounts, { where: { subscription_reference: subscriptionReference }, limit: 1 });
  return account as StoredAccount | undefined;
};

type Subscription = NonNullable<BillingAccount['subscription']>;

const changeSubscription = async (deps: CoreDeps, orgId: string, change: (current: Subscription | null) => Partial<Subscription> & Pick<Subscription, 'subscription_reference'>) => {
  await updateWithRetry<BillingAccount, undefined>(deps.store, C.billingAccounts, orgId, (current) => {
    const next = { ...current.subscription, ...change(current.subscription) } as Subscription;
    return write({ ...current, subscription: next, subscription_reference: next.subscription_reference, updated_at: iso(deps.clock.now()) }, undefined);
  });
};

/** A consumer's upgrade checkout completed: the account is `human_paid` (10 active identities). */
const upgradeConsumer = async (deps: CoreDeps, consumerId: string): Promise<void> => {
  await updateWithRetry<{ id: string; plan: string }, undefined>(deps.store, C.consumers, consumerId, (current) => write({ ...current, plan: 'human_paid' }, undefined));
};

const apply = async (deps: BillingDeps, event: ProviderEvent): Promise<'handled' | 'deferred'> => {
  switch (event.type) {
    case 'checkout.completed': {
      await ensureAccount(deps, event.orgId);
      await changeSubscription(deps, event.orgId, () => ({
        plan: event.plan,
        status: 'active',
        subscription_reference: event.subscriptionReference,
        current_period_start: event.periodStart,
        current_period_end: event.periodEnd,
        canceled_at: null,
      }));
      await setOrganizationPlan(deps, event.orgId, event.plan);
      if (event.reference.startsWith('trial_')) await convertTrial(deps, event.reference);
      if (event.reference.startsWith('cons_')) await upgradeConsumer(deps, event.reference);
      if (event.invoice !== undefined) await recordInvoice(deps, event.orgId, event.invoice);
      return 'handled';
    }
    case 'subscription.renewed': {
      const account = await accountBySubscription(deps, event.subscriptionReference);
      if (account === undefined) return 'deferred';
      await changeSubscription(deps, account.id, () => ({ subscription_reference: event.subscriptionReference, status: 'active', current_period_start: event.periodStart, current_period_end: event.periodEnd }));
      await recordInvoice(deps, account.id, event.invoice);
      return 'handled';
    }
    case 'payment.failed': {
      const account = await accountBySubscription(deps, event.subscriptionReference);
      if (account === undefined) return 'deferred';
      await changeSubscription(deps, account.id, () => ({ subscription_reference: event.subscriptionReference, status: 'past_due' }));
      return 'handled';
    }
    case 'subscription.canceled': {
      const account = await accountBySubscription(deps, event.subscriptionReference);
      if (account === undefined) return 'deferred';
      await changeSubscription(deps, account.id, () => ({ subscription_reference: event.subscriptionReference, status: 'canceled', canceled_at: event.canceledAt }));
      await setOrganizationPlan(deps, account.id, 'starter');
      return 'handled';
    }
  }
};

/**
 * A provider's callback, as received: verified by the provider's own rule, then handled once per
 * provider event id (callbacks come at least once). A callback whose handling failed is not
 * marked handled, so the provider's retry applies it.
 */
export const handleProviderCallback = async (deps: BillingDeps, rawBody: Buffer, headers: Readonly<Record<string, string | readonly string[] | undefined>>): Promise<{ outcome: CallbackOutcome; reason?: string }> => {
  const verdict = deps.billing.provider.verifyCallback(rawBody, headers);
  if (verdict.kind === 'invalid') return { outcome: 'invalid', reason: verdict.reason };
  if (verdict.kind === 'ignored') return { outcome: 'ignored' };
  const id = `${deps.billing.provider.name}:${verdict.event.eventId}`;
  if ((await deps.store.get(C.providerEvents, id)) !== undefined) return { outcome: 'duplicate' };
  if ((await apply(deps, verdict.event)) === 'deferred') return { outcome: 'deferred' };
  await deps.store.insert(C.providerEvents, { id, type: verdict.event.type, handled_at: iso(deps.clock.now()) });
  return { outcome: 'handled' };
};
