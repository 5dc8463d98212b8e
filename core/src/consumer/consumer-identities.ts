import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { DomainError } from '../domain/errors.js';
import { alreadyUpgraded, billingNotConfigured, identityLimitReached, providerFailed } from '../domain/errors.js';
import type { Identity } from '../domain/identity.js';
import { ensureAccount } from '../billing/account.js';
import type { BillingDeps } from '../billing/billing-deps.js';
import { ProviderError } from '../billing/ports.js';
import { createIdentity, listIdentities, type Page } from '../use-cases/identities.js';
import type { ConsumerRecord } from './consumer-record.js';
import { CONSUMER_IDENTITY_LIMITS } from './consumer-record.js';

/** A consumer's identity as listed: the spec's fields. */
const toConsumerIdentity = (i: Identity) => ({ id: i.id, email: i.email, label: i.label, status: i.status, created_at: i.created_at, expires_at: i.expires_at });
export type ConsumerIdentity = ReturnType<typeof toConsumerIdentity>;

export const listConsumerIdentities =
  (deps: BillingDeps) =>
  (principal: Principal, page: { readonly limit: number; readonly offset: number }): TE.TaskEither<DomainError, Page<ConsumerIdentity>> =>
  async () =>
    E.map((p: Page<Identity>) => ({ ...p, items: p.items.map(toConsumerIdentity) }))(await listIdentities(deps)(principal, page)());

/**
 * Creates an identity in the consumer's personal project, within the plan's active identities
 * (3 on trial, 10 paid). The place is claimed on the organization's live-identity counter (one
 * atomic increment bounded by the limit) before the identity is made, and given back when the
 * create fails or the identity is squashed or expires, so parallel creates never pass the limit.
 */
export const createConsumerIdentity =
  (deps: BillingDeps) =>
  (principal: Principal, consumer: ConsumerRecord, input: { readonly label: string }): TE.TaskEither<DomainError, ConsumerIdentity> =>
  async () => {
    const limit = CONSUMER_IDENTITY_LIMITS[consumer.plan];
    const created = await createIdentity(deps)(principal, { label: input.label }, { maxLive: limit })();
    // The personal organization's plan allows more than any consumer plan, so a full counter is the consumer's limit.
    if (E.isLeft(created) && created.left._tag === 'QuotaExceeded') return E.left(identityLimitReached(limit));
    return E.map(toConsumerIdentity)(created);
  };

/**
 * A checkout for `human_paid` through the payment provider; its completion (a `checkout.completed`
 * callback whose reference is the consumer's id) makes the account `human_paid`.
 */
export const startConsumerUpgrade =
  (deps: BillingDeps) =>
  (consumer: ConsumerRecord): TE.TaskEither<DomainError, { checkout_url: string }> =>
  async () => {
    if (consumer.plan === 'human_paid') return E.left(alreadyUpgraded());
    if (!deps.billing.configured) return E.left(billingNotConfigured());
    try {
      const account = await ensureAccount(deps, consumer.org_id);
      const { url } = await deps.billing.provider.createCheckoutSession({ customerReference: account.customer_reference, orgId: consumer.org_id, plan: 'starter', reference: consumer.id });
      return E.right({ checkout_url: url });
    } catch (error) {
      if (error instanceof ProviderError) return E.left(providerFailed('checkout', `The payment provider could not open the checkout: ${error.message}`, error.retryable));
      throw error;
    }
  };
