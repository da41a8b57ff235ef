import { SAMPLE_NOTES } from './workspace.js';

/** A generated English workspace for search golden tests: 120 daily notes of people doing things to things. */
export const PEOPLE = ['Sam', 'Priya', 'Marco', 'Dana', 'Jolene', 'Dave', 'John', 'Ines'];
export const THINGS = ['the staging box', 'the ledgerd release', 'the restic backups', 'the Postgres upgrade', 'the nightly reconciliation job', 'the TLS certificate', 'the Acme go-live checklist', 'the Kestrel dashboard', 'the VPN', 'the deploy workflow'];
export const VERBS = ['fixed', 'reviewed', 'broke', 'moved', 'scheduled', 'discussed', 'tested', 'documented', 'upgraded', 'postponed'];
export const TAILS = ['after lunch', 'because restarts were unreliable', 'before the demo', 'with the new runner', 'on port 8443', 'for the audit', 'while the build was red', 'again, sadly', 'in the morning standup', 'over coffee'];

/** Hybrid scores decay with a note's age: a fixed clock keeps them the same from run to run. */
export const GOLDEN_NOW = Date.UTC(2026, 11, 6, 12);

/** A deterministic pseudo-random sequence (mulberry32), so the workspace is the same on every run. */
export function sequence(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function englishWorkspace(): Record<string, string> {
  const next = sequence(18);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const notes: Record<string, string> = { ...SAMPLE_NOTES };
  for (let day = 0; day < 120; day++) {
    const date = new Date(Date.UTC(2026, 4, 1) + day * 86_400_000).toISOString().slice(0, 10);
    const lines = Array.from({ length: 3 + Math.floor(next() * 6) }, () => `- ${pick(PEOPLE)} ${pick(VERBS)} ${pick(THINGS)} ${pick(TAILS)}.`);
    notes[`memory/${date}.md`] = `# ${date}\n\n${lines.join('\n')}\n`;
  }
  return notes;
}
