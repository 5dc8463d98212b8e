import type { Ephemail } from '@ephemail/core';
import { CheckoutBody, EmptyBody, forbidden, InvoicePdfBody, ListInvoicesQuery, StartTrialBody } from '@ephemail/core';
import * as E from 'fp-ts/lib/Either.js';
import type { Route } from './route.js';
import { route } from './route.js';

const READ = ['billing:read'] as const;
const WRITE = ['billing:write'] as const;
const TRIALS = ['trials:write'] as const;

/** Subscription, checkout and portal, invoices; trials. */
export const billingRoutes = (app: Ephemail): Route[] => [
  route({
    method: 'get', path: '/v1/billing/subscription', tag: 'Billing', scopes: READ, status: 200,
    summary: "The organization's subscription (or its running trial, as `trialing`).",
    handle: ({ principal }) => app.billing.subscription(principal),
  }),
  route<CheckoutBody>({
    method: 'post', path: '/v1/billing/checkout', tag: 'Billing', scopes: WRITE, status: 200, body: CheckoutBody,
    summary: 'A hosted checkout for a plan, behind a one-time redirect token redeemed by your backend.',
    handle: ({ principal, body }) => app.billing.checkout(principal, body),
  }),
  route({
    method: 'post', path: '/v1/billing/portal', tag: 'Billing', scopes: WRITE, status: 200, body: EmptyBody,
    summary: "The provider's billing portal for the subscription, behind a one-time redirect token.",
    handle: ({ principal }) => app.billing.portal(principal),
  }),
  route({
    method: 'get', path: '/v1/billing/usage', tag: 'Billing', scopes: READ, status: 200,
    summary: "This month's identities created and live, API calls and custom domains, each with the plan's limit.",
    handle: ({ principal }) => app.billing.usage(principal),
  }),
  route<undefined, ListInvoicesQuery>({
    method: 'get', path: '/v1/billing/invoices', tag: 'Billing', scopes: READ, status: 200, query: ListInvoicesQuery,
    summary: "The organization's invoices, newest first.",
    handle: ({ principal, query }) => app.billing.invoices(principal, query),
  }),
  route({
    method: 'post', path: '/v1/billing/invoices/:invoice_id/download-token', tag: 'Billing', scopes: READ, status: 200, body: EmptyBody,
    summary: "A fresh one-time token (24 h) for the invoice's PDF; the one before stops working.",
    handle: ({ principal, params }) => app.billing.issueInvoiceDownload(principal, params.invoice_id!),
  }),
  route<InvoicePdfBody>({
    method: 'post', path: '/v1/billing/invoices/:invoice_id/pdf', tag: 'Billing', scopes: READ, status: 200, body: InvoicePdfBody,
    contentType: 'application/pdf',
    summary: "Exchange the invoice's download token for its PDF, once.",
    handle: ({ principal, params, body }) => app.billing.exchangeInvoiceDownload(principal, params.invoice_id!, body.download_token),
  }),
  route<StartTrialBody>({
    method: 'post', path: '/v1/trials/start', tag: 'Trials', scopes: TRIALS, status: 201, body: StartTrialBody,
    summary: "Start the organization's one 7-day trial of a plan.",
    handle: ({ principal, body }) => app.trials.start(principal, body),
  }),
  route({
    method: 'get', path: '/v1/trials/:trial_id', tag: 'Trials', scopes: [], status: 200,
    summary: 'A trial, with `days_remaining`. Needs trials:write or billing:read.',
    handle: async ({ principal, params }) =>
      principal.scopes.includes('trials:write') || principal.scopes.includes('billing:read')
        ? app.trials.get(principal, params.trial_id!)
        : E.left(forbidden(['trials:write', 'billing:read'], 'Reading a trial needs trials:write or billing:read.')),
  }),
  route({
    method: 'post', path: '/v1/trials/:trial_id/convert', tag: 'Trials', scopes: TRIALS, status: 200, body: EmptyBody,
    summary: "A checkout for the trial's plan; completing it converts the trial.",
    handle: ({ principal, params }) => app.trials.convert(principal, params.trial_id!),
  }),
  route({
    method: 'post', path: '/v1/trials/:trial_id/cancel', tag: 'Trials', scopes: TRIALS, status: 200, body: EmptyBody,
    summary: 'Cancel the trial: the organization goes back to its own plan.',
    handle: ({ principal, params }) => app.trials.cancel(principal, params.trial_id!),
  }),
];
