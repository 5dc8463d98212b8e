/**
 * Uptime Kuma (npm `uptime-kuma`): the SMTP notification, run as shipped
 * (`server/notification-providers/smtp.js`, with the transport replaced by one that keeps the
 * message): the monitor up/down message built as `Monitor.sendNotification` of
 * `server/model/monitor.js` builds it (`[name] [status] <heartbeat message>`, the status texts read
 * from that file), the heartbeat time in the server's time zone, and the "<name> Testing" mail of the
 * notification form's test button. Heartbeat messages are the HTTP statuses and network errors a
 * monitor records (ports, addresses, timings as decoys). Label none; English only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { date, host, ipv4, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const SMTP = 'server/notification-providers/smtp.js';
const MONITOR = 'server/model/monitor.js';

interface Sent { subject: string; text: string }
type Send = (notification: object, msg: string, monitor: object | null, heartbeat: object | null) => Promise<string>;

const load = (root: string, outbox: Sent[]): Send => {
  const down = Number(/exports\.DOWN = (\d+);/.exec(readFileSync(join(root, 'src/util.js'), 'utf8'))?.[1] ?? '0');
  const modules: Record<string, unknown> = {
    nodemailer: { createTransport: () => ({ sendMail: async (m: Sent) => { outbox.push(m); } }) },
    './notification-provider': class {},
    '../../src/util': { DOWN: down },
  };
  const module = { exports: undefined as unknown as new () => { send: Send } };
  new Function('module', 'exports', 'require', readFileSync(join(root, SMTP), 'utf8'))(module, {}, (id: string) => {
    if (!(id in modules)) throw new Error(`${SMTP} requires ${id}`);
    return modules[id];
  });
  const provider = new module.exports();
  return provider.send.bind(provider);
};

const heartbeatMessage = (r: Rng, up: boolean): string =>
  up
    ? r.pick(['200 - OK', '204 - No Content', '301 - Moved Permanently', `200 - OK, keyword is found`, ''])
    : r.pick([`timeout of ${r.pick([48000, 30000, 16000])}ms exceeded`, `connect ECONNREFUSED ${ipv4(r)}:${r.pick([443, 80, 8080, 5432])}`, `getaddrinfo ENOTFOUND ${host(r)}`, `Request failed with status code ${r.pick([500, 502, 503, 504])}`, 'certificate has expired', `No heartbeat in the time window`]);

export const uptimeKuma: Adapter = {
  product: 'uptime-kuma',
  packages: [{ npm: 'uptime-kuma@2.0.0-dev.0' }],
  render: async ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const monitorSrc = readFileSync(join(root, MONITOR), 'utf8');
    const status = /text = "([^"]+)";\s*\} else \{\s*text = "([^"]+)";/.exec(monitorSrc);
    const template = /let msg = `(\[\$\{monitor\.name\}\] \[\$\{text\}\] \$\{bean\.msg\})`;/.exec(monitorSrc);
    if (status === null || template === null) throw new Error(`the notification message of ${MONITOR} not found`);
    const outbox: Sent[] = [];
    const send = load(root, outbox);
    const out: Rendered[] = [];
    for (const kind of ['up', 'down', 'test'] as const) {
      for (const n of repsOf(kind === 'test' ? reps : reps * 4)) {
        const r = rng(`${kind}:${n}`);
        const name = r.pick(['Website', 'API', 'Postgres', 'Mail server', `Shop (${host(r)})`, 'VPN gateway', 'status page']);
        const notification = { name: r.pick(['Ops mail', 'My SMTP Alert (1)', 'On-call']), smtpFrom: 'kuma@example.org', smtpTo: 'ops@example.org' };
        const up = kind === 'up';
        if (kind === 'test') await send(notification, `${notification.name} Testing`, null, null);
        else {
          const text = up ? status[1] : status[2];
          const msg = heartbeatMessage(r, up);
          const isHttp = r.chance(0.6);
          const monitor = { name, type: isHttp ? 'http' : 'port', url: `https://${host(r)}/${r.pick(['', 'health', 'api/v1/ping'])}`, hostname: ipv4(r) };
          const heartbeat = { status: up ? 1 : 0, msg, timezone: r.pick(['Europe/Berlin', 'UTC', 'America/New_York', 'Asia/Tokyo']), localDateTime: date(r).toISOString().replace('T', ' ').slice(0, 19) };
          await send(notification, `[${name}] [${text ?? ''}] ${msg}`, monitor, heartbeat);
        }
        const m = outbox[outbox.length - 1];
        if (m === undefined) throw new Error(`${SMTP} sent nothing`);
        out.push({ template: kind === 'test' ? 'test' : `monitor_${kind}`, lang: 'en', subject: m.subject, text: m.text, fromName: 'Uptime Kuma', source: `${SMTP} + ${MONITOR} (sendNotification)` });
      }
    }
    return out;
  },
};
