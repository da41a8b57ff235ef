import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { looksGathering } from '../src/search/sessionDiversity.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

describe('questions that gather their answer from several notes', () => {
  it('are told apart from questions about one thing', () => {
    for (const q of [
      'What books has Melanie read?',
      'What board games has Nate played?',
      'How many times has Nate taken his turtles on a walk?',
      'What do Jon and Gina both have in common?',
      'What has Melanie painted?',
      'Where has Melanie camped?',
      "What are Joanna's hobbies?",
      'What kinds of pottery have they made?',
    ]) {
      expect(looksGathering(q), q).toBe(true);
    }
    for (const q of [
      "What is Caroline's identity?",
      'When did Melanie go camping?',
      'What kind of pot did Mel make with clay?',
      'Which book did Melanie read from Caroline’s suggestion?',
      'boiler pressure',
    ]) {
      expect(looksGathering(q), q).toBe(false);
    }
  });

  it('takes any input without failing', () => {
    expect(looksGathering('')).toBe(false);
    expect(looksGathering('?!… ()')).toBe(false);
    expect(looksGathering('the of and '.repeat(2000))).toBe(false);
    expect(looksGathering(`${'word '.repeat(5000)}how many`)).toBe(true);
  });
});

let ws: TempWorkspace;
let service: MemoryService;

// One session talks about books at length (two chunks of it match); another mentions one book once.
const longSession = [
  '# Session 1',
  '',
  ...Array.from({ length: 50 }, (_, i) =>
    i % 4 === 0
      ? `- [D1:${i}] Ana: I read book number ${i} this week, a thick book about sailing and the sea.`
      : `- [D1:${i}] Ben: Nice, on day ${i} the weather was mild and we walked home after lunch.`,
  ),
].join('\n');
const shortSession = ['# Session 2', '', '- [D2:1] Ben: How was the trip?', '- [D2:2] Ana: Great. I took a small book of poems on the train.', '- [D2:3] Ben: Lovely.'].join('\n');

beforeAll(async () => {
  ws = createTempWorkspace({ 'memory/2025-03-01-chat-s1.md': longSession, 'memory/2025-03-09-chat-s2.md': shortSession });
  for (let i = 0; i < 20; i++) ws.write(`memory/filler/f${i}.md`, `# Filler ${i}\n\n- Routine checks, all fine. The weather was mild and the walk home was nice.\n`);
  service = openService(ws);
  await service.invoke('index.sync', { force: false });
});
afterAll(async () => {
  await service.close();
  ws.cleanup();
});

const paths = async (query: string): Promise<string[]> =>
  (await service.invoke('memory.search', { query, limit: 5 })).results.map((r) => r.path);

describe('session diversity in search', () => {
  it('puts another session before a second passage of the same one for a gathering question', async () => {
    const other = 'memory/2025-03-09-chat-s2.md';
    // The same words asked about one thing: the long session's passages come first, all of them.
    const single = await paths('Which book did Ana read?');
    expect(single.indexOf(other)).toBeGreaterThanOrEqual(2);
    expect(single.slice(0, 2)).toEqual(['memory/2025-03-01-chat-s1.md', 'memory/2025-03-01-chat-s1.md']);
    // Gathering: the other session is shown before a second passage of the first.
    const gathering = await paths('What books has Ana read?');
    expect(gathering.indexOf(other)).toBeGreaterThanOrEqual(0);
    expect(gathering.indexOf(other)).toBeLessThan(gathering.lastIndexOf('memory/2025-03-01-chat-s1.md'));
    expect(gathering.slice(0, 2)).toContain(other);
  });

  it('gives the same results each time', async () => {
    const first = await service.invoke('memory.search', { query: 'What books has Ana read?', limit: 5 });
    const again = await service.invoke('memory.search', { query: 'What books has Ana read?', limit: 5 });
    expect(again.results.map((r) => [r.id, r.score, r.snippet])).toEqual(first.results.map((r) => [r.id, r.score, r.snippet]));
  });
});
