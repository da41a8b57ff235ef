import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryService } from '../../src/engine/memoryService.js';
import type { MemoryServiceOptions } from '../../src/engine/memoryServiceOptions.js';
import { resolveExistingWorkspace } from '../../src/workspace/resolveWorkspace.js';

export interface TempWorkspace {
  root: string;
  dataDir: string;
  write(relPath: string, content: string | Uint8Array): string;
  remove(relPath: string): void;
  cleanup(): void;
}

/** A real workspace and data folder in a temp dir, removed by `cleanup`. */
export function createTempWorkspace(files: Record<string, string> = {}): TempWorkspace {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-test-')));
  const root = path.join(base, 'workspace');
  const dataDir = path.join(base, 'data');
  fs.mkdirSync(root, { recursive: true });
  const ws: TempWorkspace = {
    root,
    dataDir,
    write(relPath, content) {
      const abs = path.join(root, relPath);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content);
      return abs;
    },
    remove(relPath) {
      fs.rmSync(path.join(root, relPath), { force: true, recursive: true });
    },
    cleanup() {
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
  for (const [p, c] of Object.entries(files)) ws.write(p, c);
  return ws;
}

export function openService(ws: TempWorkspace, extra: Partial<MemoryServiceOptions> = {}): MemoryService {
  return new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.root), watchDebounceMs: 200, ...extra });
}

/** A few weeks of small daily notes with distinctive facts. */
export const SAMPLE_NOTES: Record<string, string> = {
  'MEMORY.md': '# Memory\n\n## Infrastructure\n- The NAS is called atlas and runs restic backups to a Hetzner storage box.\n- Postgres was upgraded from 15 to 16 on 2026-04-02.\n',
  'USER.md': '# User\n\n- Prefers terse answers.\n- Timezone: Europe/Berlin.\n',
  'memory/2026-04-01.md': '# 2026-04-01\n\n- Standup: Sam is out sick.\n- Flaky test in ledgerd traced to a timezone bug in the statement cutoff.\n',
  'memory/2026-04-05.md': '# 2026-04-05\n\n- Dentist appointment moved to Thursday.\n- Reading Piranesi by Susanna Clarke.\n',
  'memory/2026-04-06.md': '# 2026-04-06\n\n## Evening\n- Decided to move atlas from Docker Compose to systemd units because restarts were unreliable.\n',
  'memory/projects/ledgerd.md': '# ledgerd\n\n- Go service for statements.\n- Release v2.4 moved from April 14 to April 21.\n',
  'DREAMS.md': '# Dreams\n\n- Reflection: the dentist keeps coming up in notes about Thursday.\n',
};
