/** Candidates that really promote: a fresh fact in yesterday's note, recalled by two searches (as dreamCli.test.ts seeds). */
import fs from 'node:fs';
import path from 'node:path';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import type { TrialWorkspace } from './harness.js';
import { isoDay } from './corpus.js';

export const ANY_RECALL = ['--min-score', '0', '--min-recall-count', '1', '--min-unique-queries', '1'];

let counter = 0;

/** Appends `facts` new lines to yesterday's daily note and searches each twice, in-process. */
export async function seedPromotableFacts(ws: TrialWorkspace, facts = 2): Promise<void> {
  const rel = `memory/${isoDay(1)}.md`;
  const abs = path.join(ws.root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  if (!fs.existsSync(abs)) fs.writeFileSync(abs, `# ${isoDay(1)}\n\n`);
  const names: string[] = [];
  for (let i = 0; i < facts; i++) {
    const name = `quokka${process.pid}x${++counter}`;
    names.push(name);
    // Words of their own for every fact: templated lines ("the build host X listens on port N")
    // read to curation as one subject with changing values and are queued as contradictions, so
    // nothing would be written and nothing would race.
    fs.appendFileSync(abs, `- ${name} ${pseudoWords(counter, 5).join(' ')} ${4000 + counter}.\n`);
  }
  await withService(ws, async (service) => {
    await service.sync(false);
    for (const name of names) {
      await service.invoke('memory.search', { query: name, limit: 5 });
      await service.invoke('memory.search', { query: `${name} port`, limit: 5 });
    }
    service.dreams.recorder.flush();
  });
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ten', 'ru', 'sha', 'vo', 'nel', 'qui', 'bar', 'zo', 'fi', 'dra', 'pel', 'gu', 'tho'];

/** Made-up words, different for every `seed` (an owner's fact, in no dictionary). */
function pseudoWords(seed: number, count: number): string[] {
  const words: string[] = [];
  let x = (seed * 2654435761) >>> 0;
  for (let w = 0; w < count; w++) {
    let word = '';
    for (let s = 0; s < 3; s++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      word += SYLLABLES[(x >>> 8) % SYLLABLES.length];
    }
    words.push(word);
  }
  return words;
}

/** The engine in this process, on the trial's workspace, closed afterwards. */
export async function withService<T>(ws: TrialWorkspace, fn: (service: MemoryService) => Promise<T>): Promise<T> {
  const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.root), watchDebounceMs: 200 });
  try {
    return await fn(service);
  } finally {
    await service.close();
  }
}
