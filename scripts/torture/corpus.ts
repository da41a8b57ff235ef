/** Generated workspace content: daily notes and curated files with distinctive lines. */
import type { Rng } from '../bench/prng.js';

const WORDS = 'atlas restic hetzner ledgerd postgres invoice glyph deploy staging gateway loopback tax module dentist piranesi timezone cutoff statement release backup'.split(' ');

export function sentence(rng: Rng, words = 8): string {
  return Array.from({ length: words }, () => WORDS[rng.int(WORDS.length)]).join(' ');
}

export function isoDay(offsetDays: number): string {
  return new Date(Date.now() - offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** `count` Markdown notes: a few weeks of daily notes, project notes, MEMORY.md and USER.md. */
export function generatedNotes(rng: Rng, count: number): Record<string, string> {
  const files: Record<string, string> = {
    'MEMORY.md': '# Long-Term Memory\n\n- Keep the gateway on loopback. <!-- importance: 9 -->\n',
    'USER.md': '# User\n\n- Prefers terse answers.\n',
  };
  for (let i = 0; i < count; i++) {
    const lines = Array.from({ length: rng.range(3, 12) }, (_, j) => `- ${sentence(rng)} n${i}l${j}`);
    const rel = i < 30 ? `memory/${isoDay(i + 3)}.md` : `memory/projects/p${i % 40}/note-${i}.md`;
    files[rel] = `# Note ${i}\n\n${lines.join('\n')}\n`;
  }
  return files;
}
