import { createHash } from 'node:crypto';
import { hashSecret } from '../auth/secrets.js';
import type { CoreDeps } from '../deps.js';
import { iso, isoPlus } from '../domain/time.js';
import { C } from '../store/collections.js';
import { keep, updateWithRetry, write } from '../store/compare-and-set.js';
import { ensureAccount, type StoredAccount } from './account.js';
import { claimProviderEvent } from './callback-claims.js';
import { forgetPlan } from './plan-in-force.js';
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
export type CallbackOutcome = 'handled' | 'duplicate' | 'ignored' | 'invalid' | 'deferred' | 'in_progress';

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

/**
 * Changes the organization's subscription record; the limits in force follow from it (never a
 * copied plan). A canceled subscription stays canceled: a late renewal or failure of the same
 * subscription (the provider delivers out of order) does not bring it back.
 */
const changeSubscription = async (deps: CoreDeps, orgId: string, change: (current: Subscription | null) => Partial<Subscription> & Pick<Subscription, 'subscription_reference'>) => {
  await updateWithRetry<BillingAccount, undefined>(deps.store, C.billingAccounts, orgId, (current) => {
    const next = { ...current.subscription, ...change(current.subscription) } as Subscription;
    const ended = current.subscription?.status === 'canceled' && current.subscription.subscription_reference === next.subscription_reference;
    if (ended) return keep(undefined);
    return write({ ...current, subscription: next, subscription_reference: next.subscription_reference, updated_at: iso(deps.clock.now()) }, undefined);
  });
  forgetPlan(deps, orgId);
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
      return 'handled';
    }
  }
};

/**
 * A provider's callback, as received: verified by the provider's own rule, then applied once per
 * provider event id (callbacks come at least once, sometimes twice at the same moment). The
 * event's record is claimed before anything is applied (callback-claims.ts), so the check for a
 * duplicate and the claim are one insert-if-absent. A callback whose handling failed or was
 * deferred gives its claim back, so the provider's retry applies it.
 */
export const handleProviderCallback = async (deps: BillingDeps, rawBody: Buffer, headers: Readonly<Record<string, string | readonly string[] | undefined>>): Promise<{ outcome: CallbackOutcome; reason?: string }> => {
  const verdict = deps.billing.provider.verifyCallback(rawBody, headers);
  if (verdict.kind === 'invalid') return { outcome: 'invalid', reason: verdict.reason };
  if (verdict.kind === 'ignored') return { outcome: 'ignored' };
  const claim = await claimProviderEvent(deps, `${deps.billing.provider.name}:${verdict.event.eventId}`, verdict.event.type);
  if (claim.kind !== 'claimed') return { outcome: claim.kind };
  let applied: 'handled' | 'deferred';
  try {
    applied = await apply(deps, verdict.event);
  } catch (error) {
    await claim.release().catch(() => undefined);
    throw error;
  }
  if (applied === 'deferred') {
    await claim.release();
    return { outcome: 'deferred' };
  }
  await claim.done();
  return { outcome: 'handled' };
};
