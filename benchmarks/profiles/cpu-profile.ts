/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and answers how much CPU time went through the
 * functions a feature consists of: the time of every sample whose stack holds one of them,
 * counted once per sample even when the feature's functions call each other. Samples of
 * loading modules (start-up) are left out; so is idle time.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/**
 * A feature: its name, and which stack frames belong to it (regular expressions on
 * `function@url`). A sample counts when one of `frames` is anywhere on its stack (the feature and
 * all it calls), or when the sampled function itself matches one of `leaves` (a wrapper whose
 * callees belong to others, such as the store's metrics wrapper).
 */
export interface Feature {
  readonly name: string;
  readonly frames: readonly RegExp[];
  readonly leaves?: readonly RegExp[];
}

export interface Costs {
  /** CPU time the thread spent busy (not idle), in µs. */
  readonly busyUs: number;
  /** Per feature, µs of CPU inside it. */
  readonly features: Readonly<Record<string, number>>;
}

const label = (frame: CallFrame): string => `${frame.functionName || '(anonymous)'}@${frame.url}`;

const escaped = (path: string) => path.replace(/[/.]/g, (c) => `\\${c}`);
/** Frames of functions in the file whose URL ends with `path`. */
export const file = (path: string): RegExp => new RegExp(`@.*${escaped(path)}$`);
/** Frames of functions in any file whose URL contains `path` (a folder). */
export const under = (path: string): RegExp => new RegExp(`@.*${escaped(path)}`);

/** Loading and compiling modules: start-up, not the work measured. */
const STARTUP = [/@node:internal\/modules\//, /^compileForInternalLoader@/];

/** Busy time and each feature's time in one profile. */
export const featureCosts = (file: string, features: readonly Feature[]): Costs => {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let busyUs = 0;
  const totals: Record<string, number> = Object.fromEntries(features.map((f) => [f.name, 0]));
  for (const [id, us] of selfUs) {
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === '(idle)' || leaf.callFrame.functionName === '(program)') continue;
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(label(byId.get(at)!.callFrame));
    if (stack.some((frame) => STARTUP.some((pattern) => pattern.test(frame)))) continue;
    busyUs += us;
    for (const feature of features) {
      const own = (feature.leaves ?? []).some((pattern) => pattern.test(stack[0]!));
      if (own || stack.some((frame) => feature.frames.some((pattern) => pattern.test(frame)))) totals[feature.name]! += us;
    }
  }
  return { busyUs, features: totals };
};

/**
 * CPU time (user + system, all threads) a process has used so far, in µs, from /proc. Unlike
 * a profile's sample times it does not count time the process waited for a core, so it holds
 * on a busy machine.
 */
export const cpuUsedUs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  // Linux reports in clock ticks of 1/100 s on every common configuration.
  return ticks * 10_000;
};

/** The costs of several profiles (the threads of one process) added up. */
export const featureCostsOfAll = (files: readonly string[], features: readonly Feature[]): Costs => {
  const all = files.map((file) => featureCosts(file, features));
  const totals: Record<string, number> = Object.fromEntries(features.map((f) => [f.name, all.reduce((sum, c) => sum + c.features[f.name]!, 0)]));
  return { busyUs: all.reduce((sum, c) => sum + c.busyUs, 0), features: totals };
};
