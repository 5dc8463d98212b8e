import test from 'ava';
import { loadConfig, startHost } from '@ephemail/host-api';

// Who reads /metrics (spec/decisions.md "Metrics access"): in production only a scraper with
// `Authorization: Bearer <METRICS_TOKEN>`; without a token, no one; in development, anyone.

const TOKEN = `mt_${'k'.repeat(20)}${Math.random().toString(36).slice(2).padEnd(12, '0')}`;
const PRODUCTION = { EPHEMAIL_MODE: 'production', INBOX_DOMAIN: 'metrics.test', DATA_KEY: 'd'.repeat(64), PAYMENTS: 'off' };

const hostWith = async (t: { teardown: (f: () => Promise<void>) => void }, env: Record<string, string>) => {
  const host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_ENABLED: 'false', LOG_LEVEL: 'silent', ...env }));
  t.teardown(() => host.close());
  return host;
};

const scrape = async (url: string, authorization?: string) => {
  const res = await fetch(`${url}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
  const text = await res.text();
  return { status: res.status, text, type: res.headers.get('content-type') ?? '', challenge: res.headers.get('www-authenticate') };
};

test('metrics access: in production /metrics answers only the bearer METRICS_TOKEN, in the error envelope otherwise', async (t) => {
  const host = await hostWith(t, { ...PRODUCTION, METRICS_TOKEN: TOKEN });
  const anonymous = await scrape(host.url);
  t.is(anonymous.status, 401);
  t.is(anonymous.challenge, 'Bearer realm="metrics"');
  const body = JSON.parse(anonymous.text);
  t.like(body, { error: { code: 'unauthorized' }, retryable: false, path: '/metrics' });
  t.regex(body.error.message, /METRICS_TOKEN/);
  t.is((await scrape(host.url, `Bearer ${TOKEN}x`)).status, 401);
  t.is((await scrape(host.url, `Bearer ${TOKEN.slice(0, -1)}`)).status, 401);
  t.is((await scrape(host.url, TOKEN)).status, 401, 'the token without the Bearer scheme');
  const scraped = await scrape(host.url, `Bearer ${TOKEN}`);
  t.is(scraped.status, 200);
  t.regex(scraped.type, /^text\/plain/);
  t.regex(scraped.text, /^# HELP ephemail_/m);
});

test('metrics access: a production host without METRICS_TOKEN does not serve /metrics at all', async (t) => {
  const host = await hostWith(t, PRODUCTION);
  const answer = await scrape(host.url);
  t.is(answer.status, 404);
  t.is(JSON.parse(answer.text).error.code, 'route_not_found');
  t.false(answer.text.includes('ephemail_'));
});

test('metrics access: in development /metrics stays open, and takes the token when one is set', async (t) => {
  const open = await hostWith(t, {});
  const scraped = await scrape(open.url);
  t.is(scraped.status, 200);
  t.regex(scraped.text, /^# HELP ephemail_/m);
  const guarded = await hostWith(t, { METRICS_TOKEN: TOKEN });
  t.is((await scrape(guarded.url)).status, 401);
  t.is((await scrape(guarded.url, `Bearer ${TOKEN}`)).status, 200);
});
