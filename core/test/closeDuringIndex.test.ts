import { afterEach, describe, expect, it } from 'vitest';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

describe('closing during a first index', () => {
  let ws: TempWorkspace;
  afterEach(() => ws?.cleanup());

  it('stops between waves of files, keeps what was committed, and the next start indexes the rest', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) files[`memory/notes/n${String(i).padStart(4, '0')}.md`] = `# Note ${i}\n\n- Fact number ${i} about the quokka census.\n`;
    ws = createTempWorkspace(files);
    const first = openService(ws);
    let seen = 0;
    const progressed = new Promise<void>((resolve) =>
      first.onDidEmitEvent((e) => {
        if (e.type === 'index-progress' && e.phase === 'index' && (seen = e.done) >= 32) resolve();
      }),
    );
    const sync = first.sync(false).catch(() => undefined);
    await progressed;
    await first.close(); // waits for the sync: it stops after the wave in flight
    await sync;
    const reopened = openService(ws);
    try {
      const stopped = (await reopened.invoke('status', {})).index.files;
      expect(seen).toBeGreaterThanOrEqual(32);
      expect(stopped).toBeGreaterThan(0);
      expect(stopped).toBeLessThan(2000);
      const report = await reopened.invoke('index.sync', {});
      expect(report.files).toBe(2000);
      expect(report.added).toBe(2000 - stopped);
    } finally {
      await reopened.close();
    }
  });
});
