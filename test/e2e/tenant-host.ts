/**
 * One real host for a test file, with its MX on loopback and an in-memory store, and one tenant
 * on it: keys of the tenant's project, requests as that key, and mail sent to the host over SMTP.
 */
import { randomUUID } from 'node:crypto';
import type test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import nodemailer from 'nodemailer';
import { createEphemailClient, type EphemailClient } from '@ephemail/client';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';

export interface MailContent {
  readonly subject: string;
  readonly text?: string;
  readonly html?: string;
  readonly from?: string;
}

export const tenantHost = (ava: typeof test, tenant: { readonly org: string; readonly project: string; readonly inboxDomain: string }) => {
  let host: RunningHost | undefined;
  ava.before(async () => {
    host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: tenant.inboxDomain }));
  });
  ava.after.always(() => host?.close());
  const running = (): RunningHost => {
    if (host === undefined) throw new Error('the host is not started: call from a test');
    return host;
  };
  /** A new API key of the tenant's project (or of `project`) with these scopes. */
  const keyWith = async (scopes: readonly string[], project = tenant.project): Promise<string> => {
    const created = await running().ephemail.auth.createApiKey({ orgId: tenant.org, projectIds: [project], scopes: [...scopes] });
    if (E.isLeft(created)) throw new Error(created.left._tag);
    return created.right.key;
  };
  const clientOf = (key: string, project = tenant.project): EphemailClient =>
    createEphemailClient({ baseUrl: running().url, apiKey: key, orgId: tenant.org, projectId: project });
  /** The headers of a request made with `key` in the tenant's project. */
  const headersOf = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}`, 'x-org-id': tenant.org, 'x-project-id': tenant.project });
  /** Sends one mail to `to` through the host's MX, with a fresh Message-ID. */
  const send = async (to: string, content: MailContent): Promise<void> => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: running().smtpPort!, secure: false, ignoreTLS: true });
    try {
      const { from = 'no-reply@app.example.com', ...rest } = content;
      await transport.sendMail({ from, to, messageId: `<${randomUUID()}@sender.test>`, ...rest });
    } finally {
      transport.close();
    }
  };
  return { host: running, keyWith, clientOf, headersOf, send };
};
