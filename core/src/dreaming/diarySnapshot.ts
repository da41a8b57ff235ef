import path from 'node:path';
import type { CuratedFileSnapshot } from '../workspace/curatedFiles.js';
import { readDreamDiaryFile } from './diary/readDiary.js';

/** DREAMS.md as the sweep read it (at most 16 MB, never through a symlink). */
export function readDiarySnapshot(workspaceRoot: string): CuratedFileSnapshot {
  const abs = path.join(workspaceRoot, 'DREAMS.md');
  const read = readDreamDiaryFile(abs);
  return { name: 'DREAMS.md', abs, exists: read.exists, text: read.text, sha256: read.sha256, truncated: read.truncated };
}
