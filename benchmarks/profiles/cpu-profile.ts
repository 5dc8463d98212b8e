/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and answers how much CPU time went through the
 * functions a feature consists of: the time of every sample whose stack holds one of them,
 * counted once per sample even when the feature's functions call each other.
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

/** A feature: its name, and which stack frames belong to it (`function@file-suffix`, regular expressions). */
export interface Feature {
  readonly name: string;
  readonly frames: readonly RegExp[];
}

export interface Costs {
  /** CPU time the thread spent busy (not idle), in µs. */
  readonly busyUs: number;
  /** Per feature, µs of CPU inside it. */
  readonly features: Readonly<Record<string, number>>;
}

const label = (frame: CallFrame): string => `${frame.functionName || '(anonymous)'}@${frame.url}`;

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
    busyUs += us;
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(label(byId.get(at)!.callFrame));
    for (const feature of features) {
      if (stack.some((frame) => feature.frames.some((pattern) => pattern.test(frame)))) totals[feature.name]! += us;
    }
  }
  return { busyUs, features: totals };
};
