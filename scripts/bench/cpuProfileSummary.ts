/**
 * Reads a V8 `.cpuprofile` (node --cpu-prof) and sums self time per function and per source
 * file within phase windows. Phase times come from the profiled process's
 * `process.hrtime` (microseconds), the clock V8 stamps samples with.
 */
import fs from 'node:fs';
import path from 'node:path';
import { round } from './stats.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A named span of the profiled run, in microseconds of process.hrtime. */
export interface PhaseWindow {
  phase: string;
  startUs: number;
  endUs: number;
}

export interface SelfTime {
  name: string;
  ms: number;
  /** Share of the phase's sampled time, in percent. */
  pct: number;
}

export interface PhaseProfile {
  phase: string;
  sampled_ms: number;
  top_functions: SelfTime[];
  top_files: SelfTime[];
  /**
   * Time charged to the innermost function of Reverie's own code on the stack (`core/`): SQLite,
   * zod and built-ins count towards the product function that called them.
   */
  top_core_callers: SelfTime[];
}

/** The repository-relative or package path of a script URL, short enough for a table. */
function shortFile(url: string): string {
  if (!url) return '(native)';
  const file = url.startsWith('file://') ? new URL(url).pathname : url;
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) return file.slice(modules + '/node_modules/'.length);
  const repo = file.search(/\/(core|scripts)\/src\/|\/(core|scripts)\//);
  return repo >= 0 ? file.slice(repo + 1) : path.basename(file);
}

/** `name file` (tsx's transpiled line numbers do not match the source, so only anonymous functions get one). */
function functionKey(frame: CallFrame): string {
  if (!frame.url) return frame.functionName || '(anonymous)'; // (garbage collector), (program), (idle), native built-ins
  return frame.functionName ? `${frame.functionName} ${shortFile(frame.url)}` : `(anonymous) ${shortFile(frame.url)}:${frame.lineNumber + 1}`;
}

const CORE_SOURCE = /\/core\/src\//;

function topOf(totals: Map<string, number>, sampledUs: number, n: number): SelfTime[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, ms: round(us / 1000, 1), pct: round((100 * us) / Math.max(1, sampledUs), 1) }));
}

/** Self time per phase window (samples outside every window go to `other`), the top `n` of each. */
export function summarizeCpuProfile(file: string, windows: readonly PhaseWindow[], n = 12): PhaseProfile[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const coreCaller = (node: ProfileNode): string => {
    for (let at: ProfileNode | undefined = node; at; at = byId.get(parentOf.get(at.id) ?? -1)) {
      if (CORE_SOURCE.test(at.callFrame.url)) return functionKey(at.callFrame);
    }
    return '(outside core)';
  };
  const phases = [...windows.map((w) => w.phase), 'other'];
  const perPhase = new Map(phases.map((p) => [p, { us: 0, functions: new Map<string, number>(), files: new Map<string, number>(), callers: new Map<string, number>() }]));
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    // A sample stands for the time until the next one.
    const span = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i]!);
    if (!node || span <= 0) continue;
    const phase = windows.find((w) => at >= w.startUs && at < w.endUs)?.phase ?? 'other';
    const bucket = perPhase.get(phase)!;
    bucket.us += span;
    const fn = functionKey(node.callFrame);
    bucket.functions.set(fn, (bucket.functions.get(fn) ?? 0) + span);
    const source = node.callFrame.url ? shortFile(node.callFrame.url) : fn;
    bucket.files.set(source, (bucket.files.get(source) ?? 0) + span);
    const caller = coreCaller(node);
    bucket.callers.set(caller, (bucket.callers.get(caller) ?? 0) + span);
  }
  return phases
    .map((phase) => {
      const b = perPhase.get(phase)!;
      return { phase, sampled_ms: round(b.us / 1000, 1), top_functions: topOf(b.functions, b.us, n), top_files: topOf(b.files, b.us, n), top_core_callers: topOf(b.callers, b.us, n) };
    })
    .filter((p) => p.sampled_ms > 0);
}
