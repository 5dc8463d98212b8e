/**
 * Nagios Core 4 (Debian nagios4-common): the host and service notifications of
 * `etc/nagios4/objects/commands.cfg` (`notify-host-by-email`, `notify-service-by-email`): the
 * `printf "%b"` body and the `mail -s` subject of each command line, with Nagios's `$MACRO$`s
 * filled from generated checks (ping, disk, load, HTTP, SSH) whose plugin output is full of
 * numbers. Label none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { date, email, ipv4, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const CFG = 'etc/nagios4/objects/commands.cfg';

const command = (cfg: string, name: string): { body: string; subject: string } => {
  const line = new RegExp(`command_name\\s+${name}\\s*\\n\\s*command_line\\s+(.*)`).exec(cfg)?.[1] ?? '';
  const body = /printf "%b" "((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? '';
  const subject = /mail -s "((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? '';
  if (body === '' || subject === '') throw new Error(`${name} not found in ${CFG}`);
  return { body, subject };
};

/** printf's %b: backslash escapes in the argument. */
const percentB = (s: string): string => s.replace(/\\n/g, '\n').replace(/\\t/g, '\t');

const SERVICES = [
  (r: Rng) => ({ desc: 'PING', state: r.pick(['CRITICAL', 'WARNING']), out: `PING ${r.pick(['CRITICAL', 'WARNING'])} - Packet loss = ${r.int(20, 100)}%, RTA = ${r.int(80, 900)}.${r.int(10, 99)} ms` }),
  (r: Rng) => ({ desc: 'Root Partition', state: 'WARNING', out: `DISK WARNING - free space: / ${r.int(900, 9000)} MiB (${r.int(3, 19)}% inode=${r.int(60, 99)}%);| /=${r.int(20000, 90000)}MiB;${r.int(30000, 40000)};${r.int(40000, 50000)};0;${r.int(50000, 99000)}` }),
  (r: Rng) => ({ desc: 'Current Load', state: 'CRITICAL', out: `CRITICAL - load average: ${r.int(10, 40)}.${r.int(10, 99)}, ${r.int(8, 30)}.${r.int(10, 99)}, ${r.int(5, 20)}.${r.int(10, 99)}` }),
  (r: Rng) => ({ desc: 'HTTP', state: r.pick(['CRITICAL', 'OK']), out: `HTTP ${r.pick(['CRITICAL: HTTP/1.1 503 Service Unavailable', 'OK: HTTP/1.1 200 OK'])} - ${r.int(300, 90000)} bytes in ${r.int(0, 9)}.${r.int(100, 999)} second response time` }),
  (r: Rng) => ({ desc: 'SSH', state: 'CRITICAL', out: `connect to address ${ipv4(r)} and port 22: Connection refused` }),
  (r: Rng) => ({ desc: 'Swap Usage', state: 'WARNING', out: `SWAP WARNING - ${r.int(5, 19)}% free (${r.int(100, 900)} MB out of ${r.int(1000, 4096)} MB)` }),
];

const macros = (r: Rng): Record<string, string> => {
  const hostName = `${r.pick(['web', 'db', 'mail', 'backup', 'gw'])}${r.int(1, 40)}`;
  const s = r.pick(SERVICES)(r);
  const d = date(r);
  return {
    NOTIFICATIONTYPE: r.pick(['PROBLEM', 'PROBLEM', 'RECOVERY', 'ACKNOWLEDGEMENT']),
    HOSTNAME: hostName, HOSTALIAS: `${hostName}.${r.pick(['dc1', 'office', 'prod'])}.example.net`, HOSTADDRESS: ipv4(r),
    HOSTSTATE: r.pick(['DOWN', 'UNREACHABLE', 'UP']), HOSTOUTPUT: `PING CRITICAL - Packet loss = 100%`,
    SERVICEDESC: s.desc, SERVICESTATE: s.state, SERVICEOUTPUT: s.out, CONTACTEMAIL: email(r),
    LONGDATETIME: d.toUTCString().replace('GMT', 'UTC'),
  };
};

const fill = (tpl: string, m: Record<string, string>): string => tpl.replace(/\$(\w+)\$/g, (x, k: string) => m[k] ?? x);

export const nagios: Adapter = {
  product: 'nagios',
  packages: [{ deb: 'nagios4-common' }],
  render: ({ roots, rng, reps }) => {
    const cfg = readFileSync(join(roots[0] ?? '', CFG), 'utf8');
    return ['notify-host-by-email', 'notify-service-by-email'].flatMap((name) => {
      const c = command(cfg, name);
      return repsOf(reps * 15).map((n): Rendered => {
        const m = macros(rng(`${name}:${n}`));
        return { template: name, lang: 'en', subject: fill(c.subject, m), text: percentB(fill(c.body, m)), fromName: 'Nagios', source: CFG };
      });
    });
  },
};
