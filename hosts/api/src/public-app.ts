import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ephemail } from '@ephemail/core';
import { createCallbackHandler } from '@ephemail/http-express';
import express, { type Express } from 'express';
import { consumerPages } from './consumer-pages.js';
import { securityBaseline, setBaseline } from './page-security.js';
import type { HostPayments } from './payments.js';
import { webApp } from './web-app.js';

/** The public port's request listener (what `http.createServer` takes). */
export type PublicListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Paths only the API answers: no page, static file or callback lives under them. */
const API_ONLY = /^\/(?:v1\/|livez|readyz|metrics)/i;

/**
 * What the public port serves: the payment provider's callback endpoint, the sign-in link's page,
 * the sandbox's checkout and portal pages (with the sandbox), the web app at `/`, and the API.
 * Every answer carries the no-framing, no-sniffing baseline; each page adds its own policy.
 *
 * An API request goes straight to the API, past the pages' routers: the web app's static files
 * would otherwise look for every `/v1/...` path on disk (a `stat` call per GET), and each router
 * matches its layers against the path. Only the callback endpoint, the one route under `/v1`
 * outside the API app, takes the pages' way.
 */
export const publicApp = (api: Express, ephemail: Ephemail, payments: HostPayments): PublicListener => {
  const pages = express();
  pages.disable('x-powered-by');
  pages.use(securityBaseline());
  pages.use(createCallbackHandler(ephemail));
  pages.use(consumerPages());
  if (payments.pages !== undefined) pages.use(payments.pages);
  pages.use(webApp());
  pages.use(api);
  const callbackPath = ephemail.billing.configured ? `/v1/billing/callbacks/${ephemail.billing.providerName}` : undefined;
  return (req, res) => {
    const url = req.url ?? '/';
    if (API_ONLY.test(url) && (callbackPath === undefined || !url.toLowerCase().startsWith(callbackPath))) {
      setBaseline(res);
      api(req as express.Request, res as express.Response);
      return;
    }
    pages(req as express.Request, res as express.Response);
  };
};
