import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { createEphemail, createMemoryDocumentStore } from '@ephemail/core';
import { createPostalMimeMailParser } from '@ephemail/mail-parse';

// Each product template of the shipped catalogue, deployed as its users would (the instance's
// sender domain), reads the labelled secret from every corpus message of its product and kind,
// in every language: real messages through the real parser and the ingress.

const corpus = process.env.EPHEMAIL_CORPUS ?? resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'corpus', 'auth-emails');

const TEMPLATE_KINDS: Record<string, string> = {
  tmpl_mastodon_signup_v1: 'mastodon--confirmation_instructions',
  tmpl_lemmy_password_reset_v1: 'lemmy--password_reset',
  tmpl_nodebb_invite_v1: 'nodebb--invitation',
  tmpl_keycloak_verify_code_v1: 'keycloak--email_verification_code',
  tmpl_kratos_registration_code_v1: 'kratos--registration_code_valid',
  tmpl_authelia_one_time_code_v1: 'authelia--IdentityVerificationOTC',
  tmpl_grafana_invite_v1: 'grafana--new_user_invite',
  tmpl_fireflyiii_password_reset_v1: 'fireflyiii--password_reset',
  tmpl_fireflyiii_invite_v1: 'fireflyiii--invitation',
  tmpl_bitwarden_two_factor_v1: 'bitwarden--TwoFactorEmail',
  tmpl_nextcloud_two_factor_v1: 'nextcloud--twofactor_email_code',
  tmpl_bookstack_invite_v1: 'bookstack--user_invite',
};

interface Label {
  readonly file: string;
  readonly value: string | null;
}

const decode = (s: string) => s.replaceAll('&amp;', '&');

const available = existsSync(join(corpus, 'labels.jsonl'));
(available ? test : test.skip)(`catalogue × corpus: product templates read their product's secrets in every language${available ? '' : ' (skipped: the corpus is not beside the repository; set EPHEMAIL_CORPUS)'}`, async (t) => {
  const labels: Label[] = readFileSync(join(corpus, 'labels.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const app = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: 'corpus.test', parser: createPostalMimeMailParser() });
  await app.init();
  await app.marketplace.sync();
  const key = await app.auth.createApiKey({ orgId: 'org_c', projectIds: ['proj_c'], scopes: ['identities:read', 'secrets:read', 'marketplace:deploy'], plan: 'enterprise' });
  const principal = await app.auth.authenticate({ authorization: `Bearer ${E.isRight(key) ? key.right.key : ''}`, orgId: 'org_c', projectId: 'proj_c' });
  if (E.isLeft(principal)) return t.fail(principal.left._tag);
  const misses: string[] = [];
  let checked = 0;
  for (const [templateId, kind] of Object.entries(TEMPLATE_KINDS)) {
    const samples = labels.filter((l) => l.file.startsWith(`${kind}--`));
    t.true(samples.length > 0, kind);
    for (const sample of samples) {
      const raw = readFileSync(join(corpus, 'messages', sample.file));
      const sender = /^From:.*@([^>\s]+)>?\s*$/im.exec(raw.toString('utf8'))![1]!;
      const dep = await app.marketplace.deploy(principal.right, templateId, { parameters: { sender_domain: sender } });
      if (E.isLeft(dep)) return t.fail(`${templateId}: ${dep.left._tag}`);
      await app.mail.ingress.deliver(raw, { mailFrom: `bounce@${sender}`, rcptTo: [dep.right.identity.email], transport: 'smtp' });
      const got = await app.extractions.latest(principal.right, dep.right.identity.id, { waitSeconds: 0, reveal: true });
      checked += 1;
      if (E.isLeft(got) || decode(got.right.value) !== decode(sample.value!)) misses.push(`${sample.file}: ${E.isLeft(got) ? got.left._tag : got.right.value}`);
    }
  }
  t.log(`${checked} messages, ${misses.length} missed`);
  t.deepEqual(misses, []);
  await app.close();
});
