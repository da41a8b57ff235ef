import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService;

// A chat where the other speaker talks about painting to Melanie at more length than Melanie
// does herself: only her own line says what she paints.
const chat = [
  '# Chat with Melanie',
  '',
  '- [D1:1] Caroline: Melanie, your painting class sounds lovely; I wish I could paint like you, truly, every single brushstroke.',
  '- [D1:2] Melanie: Thanks! Busy week at work though.',
  '- [D1:3] Caroline: My cousin moved to Lisbon in spring.',
  '- [D1:4] Melanie: Lisbon sounds warm.',
  '- [D1:5] Caroline: Yes, sunny most days there.',
  '- [D1:6] Melanie: I paint sunsets by the lake.',
].join('\n');

beforeAll(async () => {
  ws = createTempWorkspace({ 'memory/2025-04-01-chat.md': chat });
  service = openService(ws);
  await service.invoke('index.sync', { force: false });
}, 60_000);
afterAll(async () => {
  await service.close();
  ws.cleanup();
});

const search = async (query: string, budget?: number) =>
  (await service.invoke('memory.search', { query, sources: ['memory'], ...(budget === undefined ? {} : { budget }) })).results;

describe('a question about a person', () => {
  it("shows that person's own line rather than another speaker's line addressed to them", async () => {
    const [best] = await search('What does Melanie paint?', 60);
    expect(best?.snippet).toBe('- [D1:6] Melanie: I paint sunsets by the lake.');
  }, 30_000);

  it('shows the other line when the question names the other speaker', async () => {
    const [best] = await search('What does Caroline wish she could paint?', 140);
    expect(best?.snippet).toContain('[D1:1] Caroline:');
  }, 30_000);
});
