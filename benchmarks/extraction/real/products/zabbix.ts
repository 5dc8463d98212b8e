/**
 * Zabbix (Debian zabbix-frontend-php): the default e-mail message templates an action's operation
 * gets, from `messageTemplates()` of `include/classes/helpers/CMediatypeHelper.php` (problem,
 * recovery, update, service problem/recovery/update, discovery, autoregistration), in the plain
 * text or HTML format the media type is set to, with the server's macros (`{EVENT.NAME}`,
 * `{HOST.IP}`, `{EVENT.ID}`, …) expanded to generated values. The templates are English only (the
 * frontend's catalogue translates their names, not their text). Decoys: event ids, IPs, ports,
 * dates, durations, operational data. Label none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { literalChain } from '../php.js';
import { date, host, ipv4, person, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const HELPER = 'usr/share/zabbix/include/classes/helpers/CMediatypeHelper.php';

interface Template { readonly type: string; readonly subject: string; readonly html: string; readonly text: string }

/** Each `self::MSG_TYPE_X => [… 'template' => ['subject' => …, 'html' => …, 'text' => …]]` with a subject. */
const templates = (src: string): Template[] =>
  [...src.matchAll(/self::MSG_TYPE_(\w+) => \[/g)].flatMap((m) => {
    const block = src.slice(m.index ?? 0, src.indexOf("'text' =>", m.index ?? 0) + 2000);
    const field = (name: string): string => {
      const at = block.indexOf(`'${name}' =>`);
      return at < 0 ? '' : literalChain(block.slice(at + name.length + 5)).value;
    };
    const t = { type: (m[1] ?? '').toLowerCase(), subject: field('subject'), html: field('html'), text: field('text') };
    return t.subject === '' ? [] : [t];
  });

const dur = (r: Rng, big: boolean): string => (big ? `${r.int(1, 40)}d ${r.int(0, 23)}h ${r.int(0, 59)}m` : r.chance(0.5) ? `${r.int(1, 59)}m ${r.int(0, 59)}s` : `${r.int(1, 23)}h ${r.int(0, 59)}m ${r.int(0, 59)}s`);

const macros = (r: Rng): Record<string, string> => {
  const d = date(r);
  const later = new Date(d.getTime() + r.int(60, 86400) * 1000);
  const zdate = (x: Date): string => x.toISOString().slice(0, 10).replace(/-/g, '.');
  const ztime = (x: Date): string => x.toISOString().slice(11, 19);
  const hostName = `${r.pick(['web', 'db', 'mail', 'fw', 'k8s-node'])}-${r.int(1, 40)}.${host(r).replace(/^[a-z]+\./, '')}`;
  const problem = r.pick([`High CPU utilization (over 90% for 5m)`, `/var: Disk space is low (used > 80%)`, `Zabbix agent is not available (for 3m)`, `Interface eth0: Link down`, `MySQL: Service is down`, `Certificate expires in less than 7 days`]);
  const severity = r.pick(['Information', 'Warning', 'Average', 'High', 'Disaster']);
  const ip = ipv4(r);
  const status = r.pick(['Up', 'Down', 'Discovered', 'Lost']);
  return {
    'EVENT.NAME': problem,
    'EVENT.DATE': zdate(d),
    'EVENT.TIME': ztime(d),
    'EVENT.RECOVERY.DATE': zdate(later),
    'EVENT.RECOVERY.TIME': ztime(later),
    'EVENT.UPDATE.DATE': zdate(later),
    'EVENT.UPDATE.TIME': ztime(later),
    'EVENT.DURATION': dur(r, false),
    'EVENT.AGE': dur(r, r.chance(0.4)),
    'EVENT.ID': String(r.int(10000, 99999999)),
    'EVENT.SEVERITY': severity,
    'EVENT.UPDATE.SEVERITY': r.pick(['Warning', 'High', 'OK']),
    'EVENT.OPDATA': r.pick([`Current value: ${r.int(80, 100)}.${r.int(0, 99)} %`, `Free: ${r.int(1, 20)}.${r.int(0, 9)} GB`, `${r.int(1, 50)} ms`, '']),
    'EVENT.STATUS': r.pick(['PROBLEM', 'RESOLVED']),
    'EVENT.ACK.STATUS': r.pick(['Yes', 'No']),
    'EVENT.UPDATE.ACTION': r.pick(['acknowledged', 'commented', 'changed severity of', 'closed']),
    'EVENT.UPDATE.MESSAGE': r.pick(['', 'Working on it, ticket INC-20931.', `Restarted the service at ${ztime(later)}.`, 'Known issue, see change 4471.']),
    'USER.FULLNAME': person(r).full,
    'HOST.NAME': hostName,
    'HOST.HOST': hostName,
    'HOST.IP': ip,
    'HOST.PORT': String(r.pick([10050, 10050, 10051, 20050])),
    'TRIGGER.URL': r.chance(0.3) ? `https://wiki.${host(r).replace(/^[a-z]+\./, '')}/runbooks/${r.int(100, 999)}` : '',
    'SERVICE.NAME': r.pick(['Online shop', 'Payments API', 'Customer portal', 'VPN']),
    'SERVICE.DESCRIPTION': r.pick(['', 'Tier 1 service, on-call: ops-team', `SLA ${r.int(95, 99)}.9 %`]),
    'SERVICE.ROOTCAUSE': r.chance(0.5) ? `Host: "${hostName}" Problem name: "${problem}" Severity: "${severity}"` : '',
    'DISCOVERY.RULE.NAME': r.pick(['Local network', 'DMZ scan', 'Office printers']),
    'DISCOVERY.DEVICE.IPADDRESS': ip,
    'DISCOVERY.DEVICE.DNS': r.chance(0.7) ? hostName : '',
    'DISCOVERY.DEVICE.STATUS': status,
    'DISCOVERY.DEVICE.UPTIME': dur(r, true),
    'DISCOVERY.SERVICE.NAME': r.pick(['SSH', 'HTTP', 'HTTPS', 'Zabbix agent', 'SNMPv2 agent']),
    'DISCOVERY.SERVICE.PORT': String(r.pick([22, 80, 443, 10050, 161])),
    'DISCOVERY.SERVICE.STATUS': status,
    'DISCOVERY.SERVICE.UPTIME': dur(r, true),
  };
};

// The server leaves a macro it cannot resolve as *UNKNOWN*.
const expand = (s: string, m: Record<string, string>): string => s.replace(/\{([A-Z.]+)\}/g, (_x, name: string) => m[name] ?? '*UNKNOWN*');

export const zabbix: Adapter = {
  product: 'zabbix',
  packages: [{ deb: 'zabbix-frontend-php' }],
  render: ({ roots, rng, reps }) => {
    const all = templates(readFileSync(join(roots[0] ?? '', HELPER), 'utf8'));
    if (all.length < 6) throw new Error(`only ${all.length} message templates found in ${HELPER}`);
    return all.flatMap((t) => repsOf(reps * 4).map((n): Rendered => {
      const r = rng(`${t.type}:${n}`);
      const m = macros(r);
      const html = r.chance(0.4);
      return {
        template: t.type,
        lang: 'en',
        subject: expand(t.subject, m),
        ...(html ? { html: expand(t.html, m) } : { text: expand(t.text, m) }),
        fromName: 'Zabbix',
        source: `${HELPER} (messageTemplates, ${html ? 'html' : 'text'})`,
      };
    }));
  },
};
