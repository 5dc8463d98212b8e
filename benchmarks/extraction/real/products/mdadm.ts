/**
 * mdadm (Debian mdadm): the alert mail of `mdadm --monitor`. Its lines are format strings inside
 * the `sbin/mdadm` binary ("This is an automatically generated mail message from %s", "A %s
 * event had been detected on md device %s.", …), read from the binary and laid out as Monitor.c
 * writes them, with a generated `/proc/mdstat` (block counts, recovery progress, speeds). Label none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { sprintf } from '../php.js';
import type { Rng } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const BINARY = 'sbin/mdadm';

/** The NUL-terminated string in the binary that starts with `prefix`. */
const cString = (bin: Buffer, prefix: string): string => {
  const at = bin.indexOf(Buffer.from(prefix));
  if (at < 0) throw new Error(`"${prefix}" not found in ${BINARY}`);
  return bin.subarray(at, bin.indexOf(0, at)).toString('latin1').trimEnd();
};

const mdstat = (r: Rng, md: string, failed: string): string => {
  const blocks = r.int(1e8, 8e9);
  const pct = r.int(1, 99);
  const lines = [
    'Personalities : [raid1] [raid6] [raid5] [raid4] [linear] [multipath] [raid0] [raid10] ',
    `${md.replace('/dev/', '')} : active raid${r.pick([1, 5, 6])} ${failed.replace('/dev/', '')}[1](F) sdb1[0] sdc1[2]`,
    `      ${blocks} blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/2] [U_U]`,
    `      bitmap: ${r.int(0, 30)}/${r.int(30, 60)} pages [${r.int(0, 200)}KB], 65536KB chunk`,
  ];
  if (r.chance(0.5)) lines.push(`      [${'='.repeat(Math.floor(pct / 5))}>${'.'.repeat(20 - Math.floor(pct / 5))}]  recovery = ${pct}.${r.int(0, 9)}% (${Math.floor((blocks * pct) / 100)}/${blocks}) finish=${r.int(10, 900)}.${r.int(0, 9)}min speed=${r.int(10000, 200000)}K/sec`);
  return `${lines.join('\n')}\n\nunused devices: <none>\n`;
};

export const mdadm: Adapter = {
  product: 'mdadm',
  packages: [{ deb: 'mdadm' }],
  render: ({ roots, rng, reps }) => {
    const bin = readFileSync(join(roots[0] ?? '', BINARY));
    const f = {
      subject: cString(bin, 'Subject: %s event on %s:%s').replace('Subject: ', ''),
      from: cString(bin, 'This is an automatically generated mail message from %s'),
      running: cString(bin, 'running on %s'),
      event: cString(bin, 'A %s event had been detected on md device %s.'),
      related: cString(bin, 'It could be related to component device %s.'),
      yours: cString(bin, 'Faithfully yours, etc.'),
      ps: cString(bin, 'P.S. The /proc/mdstat file currently contains the following:'),
    };
    return repsOf(reps * 20).map((n): Rendered => {
      const r = rng(`alert:${n}`);
      const host = `${r.pick(['storage', 'nas', 'srv', 'vmhost'])}${r.int(1, 30)}`;
      const md = `/dev/md${r.int(0, 3)}`;
      const dev = `/dev/sd${r.pick(['a', 'b', 'c', 'd'])}${r.int(1, 3)}`;
      const ev = r.pick(['Fail', 'DegradedArray', 'SparesMissing', 'RebuildFinished', 'TestMessage']);
      const related = ev === 'Fail' || ev === 'RebuildFinished' ? `${sprintf(f.related, dev)}\n\n` : '';
      const text = `${sprintf(f.from, 'mdadm')}\n${sprintf(f.running, host)}\n\n${sprintf(f.event, ev, md)}\n\n${related}${f.yours}\n\n${f.ps}\n\n${mdstat(r, md, dev)}`;
      return { template: 'monitor_alert', lang: 'en', subject: sprintf(f.subject, ev, md, host), text, fromName: 'mdadm monitoring', source: `${BINARY} (Monitor.c strings)` };
    });
  },
};
