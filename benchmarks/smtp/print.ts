/** The printed summary of a run: throughput table, ratios, latency, memory, goals and checks. */
import type { ResultsDocument } from './report.js';

type Row = readonly string[];

/** Fixed-width columns; the first `left` columns are left-aligned, the rest right-aligned. */
const table = (rows: readonly Row[], left: number): string => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')).join('\n');
};

const num = (value: number | null | undefined, digits = 0): string => (value === null || value === undefined ? '-' : value.toFixed(digits));

const runRows = (doc: ResultsDocument): Row[] =>
  doc.runs.map((r) => [
    `${r.sizeKiB} KiB`, r.soak ? 'reused (soak)' : r.pattern, r.name, String(r.round), `${r.completed}/${r.messages}`, num(r.messagesPerSec), num(r.wallS, 1),
    num(r.rss?.atTenPercentMiB), num(r.rss?.peakMiB), num(r.rss?.afterMiB), r.rss === null ? '-' : `${r.rss.changePct > 0 ? '+' : ''}${r.rss.changePct}`,
    r.stored === null ? '' : `${r.stored.stored}/${r.stored.sent}`,
  ]);

const ratioRows = (doc: ResultsDocument): Row[] =>
  doc.ratios.map((r) => [
    `${r.sizeKiB} KiB`, r.reuse ? 'reused' : 'per-connection', num(r.hostPerParse, 2), r.hostPerParseRounds.map((x) => x.toFixed(2)).join(' / ') || '-',
    num(r.hostPerMaildev, 2), num(r.hostPerDiscard, 2),
  ]);

export const printReport = (doc: ResultsDocument): void => {
  const m = doc.machine;
  const s = doc.settings;
  console.log(`\nsmtp benchmark: ${s.sessions} smtp-source sessions, ${s.messages} messages per run (+${s.warmup} warm-up), each target fresh per run, ${s.rounds} host / parse-only rounds`);
  console.log(`machine: ${m.cpus} cpus (${m.cpuModel}), ${m.memoryGiB} GiB, node ${m.node}, ${m.platform}, load ${m.loadAverage1mAtStart} at start`);
  console.log(`greeting delay: ${s.greetingDelay}`);
  console.log(`host delivery threads: ${s.deliveryThreads}`);
  console.log(`soak: ${s.soak}\n`);
  const header = ['size', 'pattern', 'target', 'round', 'answered', 'msg/s', 'wall s', 'RSS@10% MiB', 'peak', 'after', 'change %', 'stored/sent'];
  console.log(table([header, ...runRows(doc)], 4));
  console.log('\nhost msg/s relative to each baseline (host/parse: the median of the rounds\' ratios; the others: the host\'s median rate):');
  console.log(table([['size', 'pattern', 'host/parse', 'by round', 'host/MailDev', 'host/discard'], ...ratioRows(doc)], 2));
  for (const r of doc.runs.filter((run) => run.target === 'host' && run.rss !== null)) {
    const label = r.soak ? `${r.messages} messages (soak)` : `${r.sizeKiB} KiB, ${r.pattern}, round ${r.round}`;
    console.log(`host pace, ${label}: first tenth ${num(r.rss?.pace.firstTenthPerSec)} msg/s, last tenth ${num(r.rss?.pace.lastTenthPerSec)} msg/s`);
  }
  if (doc.latency !== null) {
    const { apiMs, replyMs, messages } = doc.latency;
    console.log(`\nlatency over ${messages} messages, one at a time (ms): end of DATA -> long-poll answer p50 ${apiMs.p50}, p90 ${apiMs.p90}, p99 ${apiMs.p99}, max ${apiMs.max}`);
    console.log(`                                          end of DATA -> 250 reply       p50 ${replyMs.p50}, p90 ${replyMs.p90}, p99 ${replyMs.p99}, max ${replyMs.max}`);
  }
  console.log('\ngoals (reported, not asserted):');
  const status = (met: boolean | null) => (met === null ? 'n/a    ' : met ? 'met    ' : 'not met');
  for (const goal of doc.goals) console.log(`  ${status(goal.met)}  ${goal.name} ${goal.target} (measured ${goal.measured ?? '-'})`);
  console.log('\nchecks:');
  for (const check of doc.checks) console.log(`  ${check.ok ? 'ok  ' : 'FAIL'}  ${check.name}: ${check.detail}`);
};
