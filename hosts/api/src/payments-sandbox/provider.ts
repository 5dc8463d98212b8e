import { randomBytes } from 'node:crypto';
import type { CallbackVerdict, PaymentProvider, PlanName, ProviderEvent } from '@ephemail/core';
import { openSession, sameHex, sealSession, sign, SIGNATURE_HEADER } from './signing.js';

/** The sandbox's monthly prices, in cents: plausible numbers for pages and invoices. */
export const SANDBOX_PRICES: Readonly<Record<PlanName, number>> = { starter: 2_900, growth: 9_900, pro: 29_900, enterprise: 99_900 };

/** A checkout or portal page's session, sealed into its URL. */
export interface SandboxSession {
  readonly kind: 'checkout' | 'portal';
  readonly orgId?: string;
  readonly plan?: PlanName;
  readonly reference?: string;
  readonly customer: string;
  readonly subscription?: string;
  /** Unix milliseconds after which the page refuses the session. */
  readonly exp: number;
}

export interface SandboxOptions {
  /** Signs page sessions and callbacks; every host of a deployment must share it. */
  readonly key: Buffer;
  /** The public base of the host (`http://127.0.0.1:3000`), read when a session is made. */
  readonly publicUrl: () => string;
  /** Seconds a callback's timestamp may differ from now. Default 300. */
  readonly toleranceSeconds?: number;
  readonly now?: () => number;
}

/** How long a page session lasts: as long as a hosted checkout would (Stripe's are 24 h). */
const SESSION_MS = 24 * 3_600_000;

const header = (headers: Readonly<Record<string, string | readonly string[] | undefined>>, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' ? value : value?.[0];
};

/**
 * The built-in payment provider: customers and subscriptions are just references, its checkout
 * and portal are pages the host serves (see pages.ts), and what a buyer does there comes back as
 * a signed callback to the service's callback endpoint, as a real provider's would.
 */
export const createSandboxPaymentProvider = (options: SandboxOptions): PaymentProvider => {
  const now = options.now ?? Date.now;
  const session = (s: Omit<SandboxSession, 'exp'>) => sealSession(options.key, { ...s, exp: now() + SESSION_MS });
  return {
    name: 'sandbox',
    createCustomer: async () => ({ customerReference: `cus_sbx_${randomBytes(12).toString('hex')}` }),
    createCheckoutSession: async ({ customerReference, orgId, plan, reference }) => ({
      url: `${options.publicUrl()}/sandbox/checkout/${session({ kind: 'checkout', orgId, plan, reference, customer: customerReference })}`,
    }),
    createPortalSession: async ({ customerReference, subscriptionReference, plan }) => ({
      url: `${options.publicUrl()}/sandbox/portal/${session({ kind: 'portal', customer: customerReference, subscription: subscriptionReference, ...(plan === undefined ? {} : { plan }) })}`,
    }),
    verifyCallback: (rawBody, headers): CallbackVerdict => {
      const signature = header(headers, SIGNATURE_HEADER);
      const match = signature === undefined ? null : /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
      if (match === null) return { kind: 'invalid', reason: `missing or malformed ${SIGNATURE_HEADER} header` };
      const [, t, mac] = match as unknown as [string, string, string];
      if (Math.abs(now() / 1000 - Number(t)) > (options.toleranceSeconds ?? 300)) return { kind: 'invalid', reason: 'the timestamp is too old or too new' };
      if (!sameHex(sign(options.key, `${t}.${rawBody.toString('utf8')}`), mac)) return { kind: 'invalid', reason: 'the signature does not match' };
      try {
        return { kind: 'event', event: JSON.parse(rawBody.toString('utf8')) as ProviderEvent };
      } catch {
        return { kind: 'invalid', reason: 'the body is not JSON' };
      }
    },
  };
};

export const openSandboxSession = (key: Buffer, token: string, now = Date.now()): SandboxSession | undefined => {
  const session = openSession<SandboxSession>(key, token);
  return session !== undefined && session.exp > now ? session : undefined;
};
