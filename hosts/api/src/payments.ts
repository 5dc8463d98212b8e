import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Ephemail, PaymentProvider } from '@ephemail/core';
import { createCallbackHandler } from '@ephemail/http-express';
import { createStripePaymentProvider } from '@ephemail/payments-stripe';
import express, { type Express } from 'express';
import Stripe from 'stripe';
import type { HostConfig } from './config.js';
import { sandboxPages } from './payments-sandbox/pages.js';
import { consumerPages } from './consumer-pages.js';
import { createSandboxPaymentProvider } from './payments-sandbox/provider.js';
import { webApp } from './web-app.js';

/** The payment provider of this host and the public routes it needs beside the API. */
export interface HostPayments {
  readonly provider: PaymentProvider;
  /** The host's own app: the provider's callback endpoint, the sign-in page (and the sandbox's pages) in front of `api`. */
  readonly withRoutes: (api: Express, ephemail: Ephemail) => Express;
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
  const provider = config.PAYMENTS === 'stripe' ? stripeProvider(config) : createSandboxPaymentProvider({ key, publicUrl: () => publicUrl });
  return {
    provider,
    publicUrl: () => publicUrl,
    bind: (url) => {
      if (config.PUBLIC_URL === undefined) publicUrl = url;
    },
    withRoutes: (api, ephemail) => {
      const outer = express();
      outer.disable('x-powered-by');
      outer.use(createCallbackHandler(ephemail));
      outer.use(consumerPages());
      // The sandbox's hosted pages exist only while the sandbox is the provider.
      if (config.PAYMENTS === 'sandbox') outer.use(sandboxPages({ key, callbackUrl: () => `${publicUrl}/v1/billing/callbacks/sandbox` }));
      outer.use(webApp());
      outer.use(api);
      return outer;
    },
  };
};

/** Reads a PEM file named by a setting. */
export const readPem = (path: string): Buffer => readFileSync(path);
