import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { notFoundPage, signupPage, verifyPage, welcomePage } from './pages.js';

/** Where the demo site sends its mail, and where it listens. */
export interface DemoSiteOptions {
  /** The SMTP server to hand codes to: here the ephemail host's MX. */
  readonly smtpHost: string;
  readonly smtpPort: number;
  /** The sender of the code mail. */
  readonly from?: string;
  /** Port to listen on; default any free one. */
  readonly port?: number;
}

/** A running demo site. */
export interface DemoSite {
  /** e.g. `http://127.0.0.1:41234` */
  readonly url: string;
  close(): Promise<void>;
}

interface Pending {
  readonly email: string;
  readonly code: string;
  attempts: number;
}

const MAX_ATTEMPTS = 5;
const MAX_FORM_BYTES = 10_000;

const readForm = (req: IncomingMessage): Promise<URLSearchParams> =>
  new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_FORM_BYTES) req.destroy(new Error('form too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });

const html = (res: ServerResponse, status: number, page: string) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(page);
};

const redirect = (res: ServerResponse, location: string) => {
  res.writeHead(303, { location });
  res.end();
};

const sameCode = (expected: string, given: string): boolean =>
  given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));

/** The site's state and its handlers of the two forms. */
const createHandlers = (options: DemoSiteOptions) => {
  const pending = new Map<string, Pending>();
  const accounts = new Map<string, string>();
  const mailer = nodemailer.createTransport({ host: options.smtpHost, port: options.smtpPort, secure: false, ignoreTLS: true });
  const signup = async (res: ServerResponse, form: URLSearchParams) => {
    const email = (form.get('email') ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) return html(res, 422, signupPage('Enter an email address such as name@example.com.'));
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    try {
      await mailer.sendMail({
        from: options.from ?? 'Demo Shop <no-reply@demo-shop.test>',
        to: email,
        subject: 'Your Demo Shop verification code',
        text: `Your Demo Shop verification code is ${code}.\n\nEnter it on the sign-up page to finish creating your account. It works once.`,
      });
    } catch {
      return html(res, 422, signupPage('We could not send a code to that address. Check it and try again.'));
    }
    const id = randomBytes(12).toString('base64url');
    pending.set(id, { email, code, attempts: 0 });
    redirect(res, `/verify?signup=${id}`);
  };
  const verify = (res: ServerResponse, form: URLSearchParams) => {
    const id = form.get('signup') ?? '';
    const signupState = pending.get(id);
    if (signupState === undefined) return html(res, 404, notFoundPage());
    if (!sameCode(signupState.code, (form.get('code') ?? '').trim())) {
      signupState.attempts += 1;
      if (signupState.attempts >= MAX_ATTEMPTS) pending.delete(id);
      return html(res, 422, verifyPage(id, signupState.email, 'That code is not right. Check the email and try again.'));
    }
    pending.delete(id);
    const account = randomBytes(12).toString('base64url');
    accounts.set(account, signupState.email);
    redirect(res, `/welcome?account=${account}`);
  };
  return { pending, accounts, signup, verify, close: () => mailer.close() };
};

/**
 * A small sign-up site: an email address, a 6-digit code mailed to it over SMTP, a page that asks
 * for the code, and a welcome page. It stands in for the product an end-to-end test drives.
 */
export const startDemoSite = async (options: DemoSiteOptions): Promise<DemoSite> => {
  const site = createHandlers(options);
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const at = `${req.method} ${url.pathname}`;
    if (at === 'GET /') return html(res, 200, signupPage());
    if (at === 'POST /signup') return site.signup(res, await readForm(req));
    if (at === 'POST /verify') return site.verify(res, await readForm(req));
    const signupId = url.searchParams.get('signup') ?? '';
    const pending = site.pending.get(signupId);
    if (at === 'GET /verify' && pending !== undefined) return html(res, 200, verifyPage(signupId, pending.email));
    const email = site.accounts.get(url.searchParams.get('account') ?? '');
    if (at === 'GET /welcome' && email !== undefined) return html(res, 200, welcomePage(email));
    html(res, 404, notFoundPage());
  };
  const server = createServer((req, res) => {
    route(req, res).catch(() => {
      if (!res.headersSent) html(res, 500, notFoundPage());
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      site.close();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, close };
};
