import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { extractQueryTerms } from '../src/search/queryTerms.js';
import { derivedForms, joinedCompound, splitCompounds, synonymForms } from '../src/search/wordVariants.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

describe('word variants', () => {
  it('splits and joins compounds', () => {
    expect(splitCompounds('smartwatch')).toContain('smart watch');
    expect(splitCompounds('cat')).toEqual([]);
    expect(joinedCompound('smart', 'watch')).toBe('smartwatch');
    expect(joinedCompound('e', 'mail')).toBe('email');
    expect(joinedCompound('smart', undefined)).toBeNull();
  });

  it('leaves stop-word halves out of a split query word', () => {
    const [term] = extractQueryTerms('somewhere');
    expect(term!.variants).not.toContain('some where');
  });

  it('derives the verb of an agent noun and knows a few verb synonyms', () => {
    expect(derivedForms('programmer')).toEqual(['program']);
    expect(derivedForms('teachers')).toEqual(['teach']);
    expect(derivedForms('her')).toEqual([]);
    expect(synonymForms('hosted')).toContain('organize');
  });
});

let ws: TempWorkspace;
let service: MemoryService;

beforeAll(async () => {
  ws = createTempWorkspace({
    'memory/2025-03-01.md': '# 2025-03-01\n\n- The smart watch reminds Sam to stand up every hour.\n',
    'memory/2025-03-02.md': '# 2025-03-02\n\n- Bought a new smartwatch strap, green.\n',
    'memory/2025-03-03.md': '# 2025-03-03\n\n- Sent the landlord an email about the heating.\n',
  });
  for (let i = 0; i < 20; i++) ws.write(`memory/filler/f${i}.md`, `# Filler ${i}\n\n- Watched the rain and read a book about sailing.\n`);
  service = openService(ws);
  await service.invoke('index.sync', { force: false });
}, 60_000);
afterAll(async () => {
  await service.close();
  ws.cleanup();
});

/** Paths of the results the keyword side found (hash vectors alone would find spelling variants too). */
const paths = async (query: string): Promise<string[]> =>
  (await service.invoke('memory.search', { query, sources: ['memory'] })).results.filter((r) => r.matchedBy.includes('keyword')).map((r) => r.path);

describe('compounds in search', () => {
  it('finds "smart watch" for "smartwatch" and "smartwatch" for "smart watch"', async () => {
    expect(await paths('smartwatch')).toContain('memory/2025-03-01.md');
    expect(await paths('smart watch')).toContain('memory/2025-03-02.md');
  }, 30_000);

  it('finds "email" for "e-mail"', async () => {
    expect(await paths('e-mail')).toContain('memory/2025-03-03.md');
  }, 30_000);
});
