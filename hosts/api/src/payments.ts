import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PaymentProvider } from '@ephemail/core';
import { createStripePaymentProvider } from '@ephemail/payments-stripe';
import type { Router } from 'express';
import Stripe from 'stripe';
import type { HostConfig } from './config.js';
import { sandboxPages } from './payments-sandbox/pages.js';
import { createSandboxPaymentProvider } from './payments-sandbox/provider.js';

/** The payment provider of this host, and the sandbox's hosted pages when it is the provider. */
export interface HostPayments {
  /** None with `PAYMENTS=off`: billing is not configured, plans are assigned with the CLI. */
  readonly provider: PaymentProvider | undefined;
  /** The sandbox's checkout and portal pages; none with a real provider, whose pages are its own. */
  readonly pages: Router | undefined;
  /** Tells the provider the host's public base once it listens (when `PUBLIC_URL` is not set). */
  readonly bind: (url: string) => void;
  /** The host's public base (for links in mail). */
  readonly publicUrl: () => string;
}

/**
 * The sandbox's key: `SANDBOX_SECRET`, else derived from the data key (so every host of a
 * deployment agrees), else random for this process (development: pages made before a restart
 * stop working after it).
 */
const sandboxKey = (config: HostConfig, dataKey: Buffer | undefined): Buffer => {
  if (config.SANDBOX_SECRET !== undefined) return createHash('sha256').update(config.SANDBOX_SECRET).digest();
  if (dataKey !== undefined) return createHash('sha256').update('ephemail payments sandbox\n').update(dataKey).digest();
  return randomBytes(32);
};

/** Stripe's provider from the host's settings (checked present by the configuration). */
const stripeProvider = (config: HostConfig): PaymentProvider => {
  const api = config.STRIPE_API_BASE === undefined ? undefined : new URL(config.STRIPE_API_BASE);
  const client = new Stripe(config.STRIPE_SECRET_KEY!, {
    ...(api === undefined ? {} : { host: api.hostname, port: Number(api.port || (api.protocol === 'http:' ? 80 : 443)), protocol: api.protocol.slice(0, -1) as 'http' | 'https' }),
  });
  return createStripePaymentProvider(client, {
    prices: { starter: config.STRIPE_PRICE_STARTER!, growth: config.STRIPE_PRICE_GROWTH!, pro: config.STRIPE_PRICE_PRO!, enterprise: config.STRIPE_PRICE_ENTERPRISE! },
    webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
    successUrl: config.STRIPE_SUCCESS_URL!,
    cancelUrl: config.STRIPE_CANCEL_URL!,
    portalReturnUrl: config.STRIPE_PORTAL_RETURN_URL!,
  });
};

export const createHostPayments = (config: HostConfig, dataKey: Buffer | undefined): HostPayments => {
  let publicUrl = config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`;
  const key = sandboxKey(config, dataKey);
  const providers = {
    stripe: () => stripeProvider(config),
    sandbox: () => createSandboxPaymentProvider({ key, publicUrl: () => publicUrl }),
    off: () => undefined,
  } as const;
  const provider = providers[config.PAYMENTS]();
  return {
    provider,
    publicUrl: () => publicUrl,
    bind: (url) => {
      if (config.PUBLIC_URL === undefined) publicUrl = url;
    },
    pages: config.PAYMENTS === 'sandbox' ? sandboxPages({ key, callbackUrl: () => `${publicUrl}/v1/billing/callbacks/sandbox` }) : undefined,
  };
};

/** Reads a PEM file named by a setting. */
export const readPem = (path: string): Buffer => readFileSync(path);
