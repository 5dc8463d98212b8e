/**
 * apticron (Debian apticron): the pending-upgrades report `usr/sbin/apticron` mails: its
 * here-documents in order (header, package details, how to upgrade, holds, signature) with the
 * variables the script fills (`$SYSTEM`, `$ADDRESSES`, the date), the package lines it prints
 * (`\t<package> <version>`) and apt-listchanges-style changelog entries between them; the
 * subject is the script's default. Label none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { date, ipv4, type Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const SCRIPT = 'usr/sbin/apticron';
const PKGS = ['openssl', 'libssl3', 'linux-image-amd64', 'tzdata', 'curl', 'libcurl4', 'openssh-server', 'systemd', 'libc6', 'nginx', 'postgresql-15', 'sudo', 'bind9-host', 'libxml2'];

const version = (r: Rng): string => `${r.int(1, 9)}.${r.int(0, 30)}.${r.int(0, 20)}-${r.int(1, 9)}+deb12u${r.int(1, 9)}`;

const changelog = (r: Rng, pkg: string, ver: string): string =>
  `${pkg} (${ver}) bookworm-security; urgency=${r.pick(['medium', 'high'])}\n\n  * Non-maintainer upload by the Security Team.\n  * CVE-${r.int(2023, 2025)}-${r.int(1000, 52000)}: fix a buffer overflow (Closes: #${r.int(900000, 1090000)})\n\n -- Debian Security Team <team@security.example.org>  ${date(r).toUTCString().replace('GMT', '+0000')}\n`;

export const apticron: Adapter = {
  product: 'apticron',
  packages: [{ deb: 'apticron' }],
  render: ({ roots, rng, reps }) => {
    const script = readFileSync(join(roots[0] ?? '', SCRIPT), 'utf8');
    const docs = [...script.matchAll(/\/bin\/cat <<EOF\n([\s\S]*?)\nEOF/g)].map((m) => m[1] ?? '');
    const subjectFmt = /MAILX_SUBJECT="(\$NUM_PACKAGES[^"]*)"/.exec(script)?.[1];
    if (docs.length < 6 || subjectFmt === undefined) throw new Error(`report here-documents not found in ${SCRIPT}`);
    const [head = '', details = '', upgrade = '', holds = '', , sig = ''] = docs;
    return repsOf(reps * 15).map((n): Rendered => {
      const r = rng(`report:${n}`);
      const system = `${r.pick(['web', 'db', 'mx', 'vpn'])}${r.int(1, 20)}.example.${r.pick(['net', 'org'])}`;
      const pkgs = [...new Set(Array.from({ length: r.int(1, 6) }, () => r.pick(PKGS)))].map((p) => ({ p, v: version(r) }));
      const held = r.chance(0.3) ? r.pick(PKGS) : '';
      const vars: Record<string, string> = { SYSTEM: system, ADDRESSES: `\n${ipv4(r)} ${ipv4(r)} fe80::${r.int(1000, 9999).toString(16)}:${r.int(1000, 9999).toString(16)}`, EXTRA_REPORT: '', NUM_PACKAGES: String(pkgs.length), DISTRIB_ID: 'Debian', DSELECT_HOLDS: held };
      const fill = (s: string): string =>
        s.replace('`/bin/date -R`', date(r).toUTCString().replace('GMT', '+0000')).replace(/`echo -e "\\t" \$(\w+)`/g, (_m, k: string) => `\t ${vars[k] ?? ''}`).replace(/\$(\w+)/g, (m, k: string) => vars[k] ?? m);
      const text = [
        `${fill(head)}\n`,
        pkgs.map(({ p, v }) => `\t${p} ${v}\n`).join(''),
        `${fill(details)}\n`,
        pkgs.map(({ p, v }) => changelog(r, p, v)).join('\n'),
        `${fill(upgrade)}\n`,
        held !== '' ? `${fill(holds)}\n` : '',
        `${fill(sig)}\n`,
      ].join('');
      return { template: 'report', lang: 'en', subject: fill(subjectFmt), text, fromName: 'root', source: SCRIPT };
    });
  },
};
