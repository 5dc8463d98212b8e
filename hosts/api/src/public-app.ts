import type { Ephemail } from '@ephemail/core';
import { createCallbackHandler } from '@ephemail/http-express';
import express, { type Express } from 'express';
import { consumerPages } from './consumer-pages.js';
import { securityBaseline } from './page-security.js';
import type { HostPayments } from './payments.js';
import { webApp } from './web-app.js';

/**
 * What the public port serves: the payment provider's callback endpoint, the sign-in link's page,
 * the sandbox's checkout and portal pages (with the sandbox), the web app at `/`, and the API.
 * Every answer carries the no-framing, no-sniffing baseline; each page adds its own policy.
 */
export const publicApp = (api: Express, ephemail: Ephemail, payments: HostPayments): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.use(securityBaseline());
  app.use(createCallbackHandler(ephemail));
  app.use(consumerPages());
  if (payments.pages !== undefined) app.use(payments.pages);
  app.use(webApp());
  app.use(api);
  return app;
};
