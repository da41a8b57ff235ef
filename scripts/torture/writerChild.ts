/**
 * A long-lived writer through the engine's own operations, killed -9 by the parent at random:
 *   save:  files.write (the editor's save) of MEMORY.md, USER.md and notes, appends and rewrites;
 *   store: memory.store (the agents' write) into today's daily note.
 * Before each write it logs `rel<TAB>sha256` of the bytes it means to write, so the parent can
 * tell a whole file (before bytes or an intended after) from a torn one.
 *   usage: writerChild.ts save|store WORKSPACE DATADIR LOGFILE SEED
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Rng } from '../bench/prng.js';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { sentence } from './corpus.js';

const [mode, root, dataDir, logFile, seed] = process.argv.slice(2) as [string, string, string, string, string];
const rng = new Rng(Number(seed));
const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const service = new MemoryService({ dataDir, workspace: resolveExistingWorkspace(root), watchDebounceMs: 200 });
const SAVE_TARGETS = ['MEMORY.md', 'USER.md', 'memory/notes/a.md', 'memory/notes/b.md'];

async function saveOnce(): Promise<void> {
  const rel = SAVE_TARGETS[rng.int(SAVE_TARGETS.length)]!;
  const abs = path.join(root, rel);
  const text = fs.existsSync(abs) ? fs.readFileSync(abs, 'utf8') : '';
  const lines = Array.from({ length: rng.range(1, 400) }, () => `- ${sentence(rng)}`).join('\n');
  const next = rng.chance(0.5) ? `${text}${lines}\n` : `# Rewritten\n\n${lines}\n`;
  fs.appendFileSync(logFile, `${rel}\t${sha(next)}\n`);
  await service.invoke('files.write', { path: rel, text: next, expectedSha256: text ? sha(text) : null });
}

async function storeOnce(): Promise<void> {
  await service.invoke('memory.store', { text: `${sentence(rng)} stored ${rng.int(1e9)}`, kind: 'note' });
}

process.stdout.write('ready\n');
for (;;) {
  try {
    await (mode === 'save' ? saveOnce() : storeOnce());
  } catch (error) {
    process.stderr.write(`writer: ${(error as Error).message}\n`);
  }
}
