/**
 * Logwatch (Debian logwatch): the daily report, produced by running the package's own
 * `usr/share/logwatch/scripts/logwatch.pl` (with its base, configuration and temporary folders
 * pointed into the cache) over generated `auth.log` and `mail.log` files: failed and accepted SSH
 * logins, invalid users, sudo runs, Postfix deliveries, with varied counts and addresses. The
 * "Processing Initiated" time is set to the render's seeded date; the subject is the script's
 * `Logwatch for <host> (<OS>)`. Label none.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../packages.js';
import { repsOf } from '../locales.js';
import { date, email, ipv4, person, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const BASE = 'usr/share/logwatch';
const SCRIPT = `${BASE}/scripts/logwatch.pl`;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const stamp = (r: Rng): string => `${r.pick(MONTHS)} ${String(r.int(1, 28)).padStart(2)} ${String(r.int(0, 23)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}`;

const authLog = (r: Rng, host: string): string => {
  const lines: string[] = [];
  for (let i = r.int(3, 40); i > 0; i -= 1) lines.push(`${stamp(r)} ${host} sshd[${r.int(300, 65000)}]: Failed password for ${r.pick(['root', 'invalid user admin', 'invalid user test', 'invalid user oracle', person(r).username])} from ${ipv4(r)} port ${r.int(1024, 65535)} ssh2`);
  for (let i = r.int(1, 6); i > 0; i -= 1) lines.push(`${stamp(r)} ${host} sshd[${r.int(300, 65000)}]: Accepted ${r.pick(['publickey', 'password'])} for ${person(r).username} from ${ipv4(r)} port ${r.int(1024, 65535)} ssh2`);
  for (let i = r.int(0, 5); i > 0; i -= 1) lines.push(`${stamp(r)} ${host} sudo: ${person(r).username} : TTY=pts/${r.int(0, 5)} ; PWD=/home ; USER=root ; COMMAND=/usr/bin/${r.pick(['apt upgrade', 'systemctl restart nginx', 'journalctl -u ssh'])}`);
  return `${lines.join('\n')}\n`;
};

const mailLog = (r: Rng, host: string): string => {
  const lines: string[] = [];
  for (let i = r.int(2, 20); i > 0; i -= 1) {
    const id = r.chars('0123456789ABCDEF', 10);
    lines.push(`${stamp(r)} ${host} postfix/qmgr[${r.int(300, 9000)}]: ${id}: from=<${email(r)}>, size=${r.int(800, 90000)}, nrcpt=1 (queue active)`);
    lines.push(`${stamp(r)} ${host} postfix/smtp[${r.int(300, 9000)}]: ${id}: to=<${email(r)}>, relay=mx.example.net[${ipv4(r)}]:25, delay=${r.int(0, 9)}.${r.int(1, 9)}, delays=0.01/0/0.2/0.3, dsn=2.0.0, status=sent (250 2.0.0 Ok: queued as ${r.chars('0123456789ABCDEF', 10)})`);
  }
  return `${lines.join('\n')}\n`;
};

export const logwatch: Adapter = {
  product: 'logwatch',
  packages: [{ deb: 'logwatch' }],
  render: ({ roots, rng, reps }) => {
    const base = join(roots[0] ?? '', BASE);
    const work = join(cacheDir(), 'work', 'logwatch');
    rmSync(work, { recursive: true, force: true });
    mkdirSync(join(work, 'conf', 'conf'), { recursive: true });
    const script = readFileSync(join(roots[0] ?? '', SCRIPT), 'utf8')
      .replace(/^my \$BaseDir = "[^"]*";/m, `my $BaseDir = "${base}";`)
      .replace(/^my \$ConfigDir = "[^"]*";/m, `my $ConfigDir = "${join(work, 'conf')}";`)
      .replace(/^\$Config\{'tmpdir'\} = "[^"]*";/m, `$Config{'tmpdir'} = "${join(work, 'tmp')}";`);
    writeFileSync(join(work, 'logwatch.pl'), script);
    return repsOf(reps * 10).map((n): Rendered => {
      const r = rng(`report:${n}`);
      const host = `${r.pick(['web', 'mail', 'db', 'bastion'])}${r.int(1, 30)}`;
      const logs = join(work, `log-${n}`);
      mkdirSync(logs, { recursive: true });
      mkdirSync(join(work, 'tmp'), { recursive: true });
      writeFileSync(join(logs, 'auth.log'), authLog(r, host));
      writeFileSync(join(logs, 'mail.log'), mailLog(r, host));
      writeFileSync(join(work, 'conf', 'conf', 'logwatch.conf'), `LogDir = ${logs}\nTmpDir = ${join(work, 'tmp')}\n`);
      const args = ['logwatch.pl', '--range', 'All', '--output', 'stdout', '--format', 'text', '--hostname', host, '--detail', r.pick(['Low', 'Med', 'High'])];
      for (const s of ['sshd', 'sudo', 'postfix']) args.push('--service', s);
      const started = date(r).toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1 $3 $2 $5 $4');
      const text = execFileSync('perl', args, { cwd: work, encoding: 'utf8', env: { PATH: '/usr/bin:/bin', TZ: 'UTC', LANG: 'C' } }).replace(/(Processing Initiated: ).*/, `$1${started}`);
      return { template: 'daily_report', lang: 'en', subject: `Logwatch for ${host} (Linux)`, text, fromName: 'logwatch', source: `${SCRIPT} run on generated auth.log and mail.log` };
    });
  },
};
