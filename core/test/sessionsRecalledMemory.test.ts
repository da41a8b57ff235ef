import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  ws?.cleanup();
});

it('strips transcript lines that repeat the indexed memory files, and counts them in the report and status', async () => {
  ws = createTempWorkspace(SAMPLE_NOTES); // memory/2026-04-05.md: "- Dentist appointment moved to Thursday."
  const home = path.join(path.dirname(ws.root), 'claude-home');
  const transcript = path.join(home, 'projects', '-home-dana', '5d1e2f3a-0000-4000-8000-000000000001.jsonl');
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
  const entry = (type: 'user' | 'assistant', uuid: string, content: unknown) =>
    JSON.stringify({ type, sessionId: '5d1e2f3a-0000-4000-8000-000000000001', uuid, timestamp: '2026-04-07T09:00:00.000Z', message: { role: type, content } });
  fs.writeFileSync(
    transcript,
    [
      entry('user', 'u1', 'When is the dentist?'),
      entry('assistant', 'a1', [{ type: 'text', text: 'Dentist appointment moved to Thursday.\nShall I set a reminder for Wednesday evening?' }]),
    ].join('\n') + '\n',
  );
  service = openService(ws);

  const report = await service.invoke('sessions.ingest', { homes: { 'claude-code': home } });
  expect(report).toMatchObject({ added: 1, failed: 0, recalledStripped: 1 });
  const status = await service.invoke('status', {});
  expect(status.sessions).toMatchObject({ transcripts: 1, recalledStripped: 1 });

  const { results } = await service.invoke('memory.search', { query: 'reminder Wednesday evening', sources: ['sessions'] });
  expect(results[0]?.snippet).toMatch(/reminder for Wednesday evening/);
  expect(results.map((r) => r.snippet).join('\n')).not.toMatch(/Dentist appointment moved/);
});
