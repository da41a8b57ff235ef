/** Seeded hostile inputs: Markdown, transcripts and import trees, each a set of files to lay down. */
import type { Rng } from '../bench/prng.js';
import { sentence } from './corpus.js';

export interface FuzzInput {
  kind: string;
  /** Workspace- or home-relative path → bytes; `fifo:`/`symlink:` entries are made by the runner. */
  files: Record<string, Buffer>;
  symlinks?: Record<string, string>;
  fifos?: string[];
  /** Heavy inputs run alone so a hang is pinned to them. */
  heavy?: boolean;
}

const b = (s: string) => Buffer.from(s, 'utf8');
const MB = 1_048_576;

function randomBytes(rng: Rng, n: number): Buffer {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = rng.int(256);
  return out;
}

/** One Markdown input for slot `i` (the kinds rotate; sizes and contents come from the PRNG). */
export function markdownInput(rng: Rng, i: number, quick: boolean): FuzzInput {
  const name = `memory/fuzz/f${i}.md`;
  const kinds: (() => FuzzInput)[] = [
    () => ({ kind: 'invalid UTF-8', files: { [name]: Buffer.concat([b(`# ${sentence(rng)}\n`), randomBytes(rng, rng.range(10, 4000)), b('\n')]) } }),
    () => ({ kind: 'NUL bytes', files: { [name]: b(`# n\n- ${sentence(rng)}\0${sentence(rng)}\0\n`.repeat(rng.range(1, 50))) } }),
    () => ({ kind: 'deep nesting', files: { [name]: b(Array.from({ length: rng.range(500, 5000) }, (_, d) => `${'  '.repeat(d % 2000)}- ${'>'.repeat(d % 300)} [${'['.repeat(d % 50)}x`).join('\n') + '\n') } }),
    () => ({ kind: 'huge front matter', files: { [name]: b(`---\n${Array.from({ length: rng.range(1000, 20000) }, (_, k) => `k${k}: ${sentence(rng, 4)}`).join('\n')}\n---\n# after\n- ${sentence(rng)}\n`) } }),
    () => ({ kind: 'unclosed front matter', files: { [name]: b(`---\ntitle: ${sentence(rng)}\n${'- x\n'.repeat(rng.range(1, 3000))}`) } }),
    () => ({ kind: 'long line', files: { [name]: b(`# l\n- ${'word '.repeat(rng.range(2000, 40000))}\n`) } }),
    () => ({ kind: 'random bytes', files: { [name]: randomBytes(rng, rng.range(1, 20000)) } }),
    () => ({ kind: 'empty', files: { [name]: Buffer.alloc(0) } }),
    () => ({ kind: 'BOM and CRLF', files: { [name]: b(`\ufeff# t\r\n- ${sentence(rng)}\r\n`.repeat(rng.range(1, 200))) } }),
    () => ({ kind: 'unicode soup', files: { [name]: b(`# ✨\n- ${'👩‍👩‍👧‍👦\u202e\u200dΩ≈ç√∫ '.repeat(rng.range(1, 2000))}\n`) } }),
    () => ({ kind: 'code fences unclosed', files: { [name]: b('```\n'.repeat(rng.range(1, 999)) + `- ${sentence(rng)}\n`) } }),
  ];
  const heavyKinds: (() => FuzzInput)[] = [
    () => ({ kind: `${quick ? 1 : 5} MB line`, heavy: true, files: { [name]: b(`# big\n- ${'A'.repeat((quick ? 1 : 5) * MB)}\n`) } }),
    () => ({ kind: 'base64 image line', heavy: true, files: { [name]: b(`# img\n![x](data:image/png;base64,${randomBytes(rng, 225_000).toString('base64')})\n`) } }),
    () => ({ kind: 'FIFO named .md', heavy: true, files: {}, fifos: [name] }),
    () => ({ kind: 'symlink loop', heavy: true, files: { 'memory/fuzz/ok.md': b('- ok\n') }, symlinks: { 'memory/fuzz/loop': '.', 'memory/fuzz/a.md': 'b.md', 'memory/fuzz/b.md': 'a.md' } }),
    () => ({ kind: 'MEMORY.md is a folder', heavy: true, files: { 'MEMORY.md/inner.md': b('- inner\n') } }),
  ];
  if (i % 12 === 11) return heavyKinds[Math.floor(i / 12) % heavyKinds.length]!();
  return kinds[rng.int(kinds.length)]!();
}

/** A transcript input under a fake home: Claude Code projects/*.jsonl or Codex sessions/…/rollout-*.jsonl. */
export function transcriptInput(rng: Rng, i: number): FuzzInput {
  const good = rng.chance(0.5)
    ? `{"type":"user","sessionId":"s${i}","uuid":"u${i}","timestamp":"2026-03-05T10:05:00.000Z","message":{"role":"user","content":"${sentence(rng)}"}}`
    : `{"timestamp":"2026-03-04T09:12:00.100Z","type":"session_meta","payload":{"id":"0199b7e1-2a4c-7f10-8e3d-${String(i).padStart(12, '0')}","cwd":"/tmp"}}`;
  const breakers = [
    () => good.slice(0, rng.range(1, good.length - 1)),
    () => `{"type":"user","message":{"role":"user","content":"${'x'.repeat(rng.range(100_000, 2 * MB))}"}}`,
    () => '\0\0\0' + randomBytes(rng, 300).toString('latin1'),
    () => '[' .repeat(rng.range(1, 20000)),
    () => `{"type":"assistant","message":{"role":"assistant","content":[${'{"type":"text","text":"a"},'.repeat(rng.range(1, 5000))}{}]}}`,
    () => 'null',
  ];
  const lines = Array.from({ length: rng.range(1, 8) }, () => (rng.chance(0.4) ? good : breakers[rng.int(breakers.length)]!()));
  const body = Buffer.from(lines.join('\n') + (rng.chance(0.5) ? '\n' : ''), 'utf8');
  const rel = rng.chance(0.5) ? `claude/projects/-tmp-p${i}/${i}.jsonl` : `codex/sessions/2026/03/04/rollout-2026-03-04T09-12-00-0199b7e1-2a4c-7f10-8e3d-${String(i).padStart(12, '0')}.jsonl`;
  return { kind: 'transcript', files: { [rel]: body } };
}

/** A Hermes home with hostile memories: huge § files, empty entries, invalid names, binary. */
export function importInput(rng: Rng, i: number, quick: boolean): FuzzInput {
  const entries = Array.from({ length: rng.range(0, 50) }, () => (rng.chance(0.2) ? '' : sentence(rng))).join('\n§\n');
  const variants: Record<string, Buffer>[] = [
    { [`hermes${i}/memories/MEMORY.md`]: b(entries) },
    { [`hermes${i}/memories/MEMORY.md`]: b(`${sentence(rng)}\n§\n`.repeat(quick ? 5000 : 40_000)) },
    { [`hermes${i}/memories/USER.md`]: randomBytes(rng, rng.range(1, 5000)) },
    { [`hermes${i}/profiles/we\nird ${i}/memories/MEMORY.md`]: b('x\n§\n') },
    { [`hermes${i}/memories/MEMORY.md`]: b('§\n'.repeat(rng.range(1, 20000))) },
  ];
  return { kind: 'import tree', files: variants[rng.int(variants.length)]! };
}

export function fuzzQuery(rng: Rng): string {
  const queries = [
    () => '',
    () => ' ',
    () => 'x'.repeat(rng.range(5000, 100_000)),
    () => 'AND OR NOT NEAR( "unclosed * ^ ::',
    () => '"' + sentence(rng) + '" -atlas +hetzner title:x',
    () => '👩‍👩‍👧‍👦 \u202e ΩΩΩ 日本語の検索',
    () => '-',
    () => '* * * ( ) { } [ ]',
    () => sentence(rng, rng.range(1, 400)),
  ];
  return queries[rng.int(queries.length)]!();
}
