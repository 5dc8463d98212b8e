/**
 * smartmontools (Debian smartmontools): the warning mail smartd sends through
 * `usr/share/smartmontools/smartd_warning.sh`: its subject line and the backquoted `fullmessage=`
 * block that writes the body, run under bash with the `SMARTD_*` variables smartd would set
 * (generated: device, failure type, attribute values, dates). Label none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { date, type Rng } from '../random.js';
import { runFragment } from '../shell.js';
import type { Adapter, Rendered } from '../types.js';

const SCRIPT = 'usr/share/smartmontools/smartd_warning.sh';

const event = (r: Rng): Record<string, string> => {
  const dev = r.pick(['/dev/sda', '/dev/sdb', '/dev/nvme0', '/dev/sdc [SAT]']);
  const model = r.pick(['WDC WD40EFRX-68N32N0', 'Samsung SSD 870 EVO 1TB', 'ST8000VN004-2M2101', 'KINGSTON SA400S37480G']);
  const serial = `${r.pick(['WD-WCC', 'S6PUNX0', 'ZA1'])}${r.int(1e6, 9e6)}`;
  const type = r.pick(['CurrentPendingSector', 'OfflineUncorrectableSector', 'Usage', 'ErrorCount', 'SelfTest', 'FailedHealthCheck']);
  const n = r.int(1, 4000);
  const messages: Record<string, string> = {
    CurrentPendingSector: `Device: ${dev}, ${n} Currently unreadable (pending) sectors`,
    OfflineUncorrectableSector: `Device: ${dev}, ${n} Offline uncorrectable sectors`,
    Usage: `Device: ${dev}, SMART Usage Attribute: 194 Temperature_Celsius changed from ${r.int(30, 40)} to ${r.int(55, 70)}`,
    ErrorCount: `Device: ${dev}, ATA error count increased from ${n} to ${n + r.int(1, 9)}`,
    SelfTest: `Device: ${dev}, Self-Test Log error count increased from ${r.int(0, 3)} to ${r.int(4, 9)}`,
    FailedHealthCheck: `Device: ${dev}, FAILED SMART self-check. BACK UP DATA NOW!`,
  };
  const first = date(r);
  return {
    SMARTD_FAILTYPE: type,
    SMARTD_MESSAGE: messages[type] ?? '',
    SMARTD_DEVICEINFO: `${model}, S/N:${serial}, WWN:5-0014ee-${r.int(1e8, 9e8).toString(16)}, FW:${r.pick(['82.00A82', 'SVT02B6Q', 'SC60'])}, ${r.pick(['4.00 TB', '1.00 TB', '8.00 TB', '480 GB'])}`,
    SMARTD_PREVCNT: String(r.pick([0, 0, 1, 3])),
    SMARTD_TFIRST: first.toUTCString().replace('GMT', 'UTC'),
    SMARTD_NEXTDAYS: r.pick(['', '1', '7']),
  };
};

export const smartmontools: Adapter = {
  product: 'smartmontools',
  packages: [{ deb: 'smartmontools' }],
  render: ({ roots, rng, reps }) => {
    const script = readFileSync(join(roots[0] ?? '', SCRIPT), 'utf8');
    const block = /\nfullmessage=`\n([\s\S]*?)\n`\n/.exec(script)?.[1];
    const subject = /export SMARTD_SUBJECT="([^"]*)"/.exec(script)?.[1];
    if (block === undefined || subject === undefined) throw new Error(`message block not found in ${SCRIPT}`);
    return repsOf(reps * 20).map((n): Rendered => {
      const r = rng(`warning:${n}`);
      const hostname = `${r.pick(['nas', 'fileserver', 'backup', 'hv'])}${r.int(1, 20)}`;
      const env = { ...event(r), hostname, dnsdomain: r.pick(['', 'example.net', 'lan.example.org']), nisdomain: '' };
      const sub = runFragment(`echo "${subject}"`, env).trim();
      return { template: 'smartd_warning', lang: 'en', subject: sub, text: runFragment(block, env), fromName: 'root', source: SCRIPT };
    });
  },
};
