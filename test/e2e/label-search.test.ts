import test from 'ava';
import { tenantHost } from './tenant-host.js';

// `GET /v1/identities?label=` over HTTP against the real host, with fetch and the typed client.
const ORG = 'org_labels';
const PROJECT = 'proj_labels';

const { host, keyWith, clientOf } = tenantHost(test, { org: ORG, project: PROJECT, inboxDomain: 'labels.test' });

const newClient = async (project = PROJECT) => {
  const key = await keyWith(['identities:read', 'identities:write'], project);
  return { key, client: clientOf(key, project) };
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
    const res = await fetch(`${host().url}/v1/identities?label=${label}`, { headers: { authorization: `Bearer ${key}`, 'x-org-id': ORG, 'x-project-id': 'proj_labels_bad' } });
    t.is(res.status, 400);
    const body = (await res.json()) as { error: { code: string; details: { issues: { path: string }[] } } };
    t.is(body.error.code, 'invalid_request');
    t.true(body.error.details.issues.some((issue) => issue.path === 'query.label'));
  }
});
