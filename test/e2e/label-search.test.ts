import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { createEphemailClient } from '@ephemail/client';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';

// `GET /v1/identities?label=` over HTTP against the real host, with fetch and the typed client.
const ORG = 'org_labels';
const PROJECT = 'proj_labels';

let host: RunningHost;
test.before(async () => {
  host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'labels.test' }));
});
test.after.always(() => host?.close());

const newClient = async (project = PROJECT) => {
  const created = await host.ephemail.auth.createApiKey({ orgId: ORG, projectIds: [project], scopes: ['identities:read', 'identities:write'] });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  return { key: created.right.key, client: createEphemailClient({ baseUrl: host.url, apiKey: created.right.key, orgId: ORG, projectId: project }) };
};

test('label: the typed client lists the identities whose label starts with the text, ignoring case, in label order, by pages', async (t) => {
  const { client } = await newClient();
  for (const label of ['Beta signup', 'beta Login', 'alpha beta', 'BETA checkout']) await client.createIdentity({ label });
  const first = await client.listIdentities({ label: 'beta', limit: 2 });
  const second = await client.listIdentities({ label: 'beta', limit: 2, offset: 2 });
  t.is(first.total, 3);
  t.deepEqual([...first.data, ...second.data].map((i) => i.label), ['BETA checkout', 'beta Login', 'Beta signup']);
});

test('label: empty, blank or longer than 200 characters is 400 invalid_request naming query.label', async (t) => {
  const { key } = await newClient('proj_labels_bad');
  for (const label of ['', '%20%20', 'x'.repeat(201)]) {
    const res = await fetch(`${host.url}/v1/identities?label=${label}`, { headers: { authorization: `Bearer ${key}`, 'x-org-id': ORG, 'x-project-id': 'proj_labels_bad' } });
    t.is(res.status, 400);
    const body = (await res.json()) as { error: { code: string; details: { issues: { path: string }[] } } };
    t.is(body.error.code, 'invalid_request');
    t.true(body.error.details.issues.some((issue) => issue.path === 'query.label'));
  }
});
