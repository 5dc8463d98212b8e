import { randomBytes } from 'node:crypto';
import type { ProviderEvent } from '@ephemail/core';
import express, { type Response } from 'express';
import { pageSecurityHeaders } from '../page-security.js';
import { openSandboxSession, SANDBOX_PRICES, type SandboxSession } from './provider.js';
import { SIGNATURE_HEADER, signCallback } from './signing.js';

export interface SandboxPagesOptions {
  readonly key: Buffer;
  /** Where the service takes callbacks (`<host>/v1/billing/callbacks/sandbox`), read per callback. */
  readonly callbackUrl: () => string;
  readonly now?: () => number;
}

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (res: Response, status: number, title: string, body: string): void => {
  res.status(status).type('html').set({ 'Cache-Control': 'no-store', ...pageSecurityHeaders({ inlineStyle: true }) }).send(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · ephemail sandbox</title>` +
      '<meta name="viewport" content="width=device-width,initial-scale=1">' +
      '<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1.2rem;margin:.25rem 0}' +
      '.note{color:#666;font-size:.9rem}</style></head>' +
      `<body><p class="note">Sandbox payment provider: no real payment is taken.</p><h1>${escape(title)}</h1>${body}</body></html>`,
  );
};

const money = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
const DAY_MS = 86_400_000;

/**
 * The sandbox provider's hosted pages: a checkout with a "Pay" button, and a billing portal with
 * "Renew now", "Fail next payment" and "Cancel plan". Each button sends the signed callback a
 * real provider would send, to the service's callback endpoint, and shows what it answered.
 */
export const sandboxPages = (options: SandboxPagesOptions) => {
  const now = options.now ?? Date.now;
  const router = express.Router();
  router.use(express.urlencoded({ extended: false, limit: '4kb' }));
  const sessionOf = (token: string, kind: SandboxSession['kind']) => {
    const session = openSandboxSession(options.key, token, now());
    return session?.kind === kind ? session : undefined;
  };
  const callback = async (event: ProviderEvent): Promise<number> => {
    const body = JSON.stringify(event);
    const res = await fetch(options.callbackUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signCallback(options.key, body, Math.floor(now() / 1000)) },
      body,
    });
    await res.arrayBuffer();
    return res.status;
  };
  const eventId = () => `evt_sbx_${randomBytes(12).toString('hex')}`;
  const invoice = (plan: keyof typeof SANDBOX_PRICES, start: number) => ({
    reference: `in_sbx_${randomBytes(12).toString('hex')}`,
    amountCents: SANDBOX_PRICES[plan],
    currency: 'usd',
    periodStart: new Date(start).toISOString(),
    periodEnd: new Date(start + 30 * DAY_MS).toISOString(),
    lines: [{ description: `ephemail ${plan} plan, 30 days`, amountCents: SANDBOX_PRICES[plan] }],
  });

  router.get('/sandbox/checkout/:token', (req, res) => {
    const s = sessionOf(req.params.token, 'checkout');
    if (s?.plan === undefined) return page(res, 404, 'Checkout not found', '<p>This checkout link is not valid or has expired.</p>');
    page(res, 200, `Subscribe to ${s.plan}`, `<p>Organization <code>${escape(s.orgId ?? '')}</code></p><p>${money(SANDBOX_PRICES[s.plan])} per month</p>` +
      `<form method="post" action="/sandbox/checkout/${escape(req.params.token)}/pay"><button type="submit">Pay</button></form>`);
  });
  router.post('/sandbox/checkout/:token/pay', async (req, res, next) => {
    try {
      const s = sessionOf(req.params.token, 'checkout');
      if (s?.plan === undefined || s.orgId === undefined || s.reference === undefined) return page(res, 404, 'Checkout not found', '<p>This checkout link is not valid or has expired.</p>');
      const start = now();
      const status = await callback({
        type: 'checkout.completed', eventId: eventId(), orgId: s.orgId, plan: s.plan, reference: s.reference, customerReference: s.customer,
        // One subscription per checkout session: paying twice on one page is one subscription.
        subscriptionReference: `sub_sbx_${s.reference}`,
        periodStart: new Date(start).toISOString(), periodEnd: new Date(start + 30 * DAY_MS).toISOString(), invoice: invoice(s.plan, start),
      });
      page(res, status === 200 ? 200 : 502, status === 200 ? 'Payment complete' : 'Payment not recorded', `<p id="outcome" data-status="${status}">The service answered ${status}.</p>`);
    } catch (error) {
      next(error);
    }
  });
  router.get('/sandbox/portal/:token', (req, res) => {
    const s = sessionOf(req.params.token, 'portal');
    if (s?.subscription === undefined) return page(res, 404, 'Portal not found', '<p>This portal link is not valid or has expired.</p>');
    const action = (name: string, label: string) => `<form method="post" action="/sandbox/portal/${escape(req.params.token)}/${name}"><button type="submit">${label}</button></form>`;
    page(res, 200, 'Your subscription', `<p>Subscription <code>${escape(s.subscription)}</code></p>${action('renew', 'Renew now')}${action('fail', 'Fail next payment')}${action('cancel', 'Cancel plan')}`);
  });
  router.post('/sandbox/portal/:token/:action', async (req, res, next) => {
    try {
      const s = sessionOf(req.params.token, 'portal');
      const subscription = s?.subscription;
      if (subscription === undefined) return page(res, 404, 'Portal not found', '<p>This portal link is not valid or has expired.</p>');
      const start = now();
      const plan = s?.plan ?? 'starter';
      const events: Record<string, () => ProviderEvent> = {
        renew: () => ({ type: 'subscription.renewed', eventId: eventId(), subscriptionReference: subscription, periodStart: new Date(start).toISOString(), periodEnd: new Date(start + 30 * DAY_MS).toISOString(), invoice: invoice(plan, start) }),
        fail: () => ({ type: 'payment.failed', eventId: eventId(), subscriptionReference: subscription, reason: 'the sandbox card was declined' }),
        cancel: () => ({ type: 'subscription.canceled', eventId: eventId(), subscriptionReference: subscription, canceledAt: new Date(start).toISOString() }),
      };
      const make = events[req.params.action];
      if (make === undefined) return page(res, 404, 'Unknown action', '<p>No such portal action.</p>');
      const status = await callback(make());
      page(res, status === 200 ? 200 : 502, 'Done', `<p id="outcome" data-status="${status}">The service answered ${status}.</p>`);
    } catch (error) {
      next(error);
    }
  });
  return router;
};
