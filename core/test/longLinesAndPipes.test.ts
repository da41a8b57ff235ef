import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GRAPH_LINE_CAP, capLineLength, extractFile } from '../src/graph/extractFile.js';
import { chunkMarkdown } from '../src/index/chunker.js';
import { readMarkdownFile } from '../src/index/fileReader.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
afterEach(() => ws?.cleanup());

describe('huge lines and special files', () => {
  it('extracts the graph of a note with a 300 KB base64 image line (hung for minutes before)', () => {
    const blob = 'iVBORw0KGgoAAAANSUhEUg'.repeat(300_000 / 22);
    const text = `# 2024-01-01\n\nMet Alice Martin about Project Atlas.\n\n![x](data:image/png;base64,${blob})\n\nAlice Martin works on Project Atlas.\n`;
    const labels = extractFile('memory/2024-01-01.md', text, null).flatMap((e) => e.entities.map((m) => m.label));
    expect(labels).toContain('Alice Martin');
  });

  it('keeps every line of a 5 MB line note searchable in chunks while the graph reads a capped copy', () => {
    const text = `intro\n${'lorem Ipsum '.repeat(5_000_000 / 12)}\nZephyrine tail\n`;
    const chunked = chunkMarkdown(text).map((c) => c.text).join('\n');
    expect(chunked).toContain('Zephyrine tail');
    expect(chunked.length).toBeGreaterThan(5_000_000);
    expect(() => extractFile('memory/big.md', text, null)).not.toThrow();
  });

  it('caps lines without moving line numbers', () => {
    const capped = capLineLength(`a\n${'x'.repeat(GRAPH_LINE_CAP + 5)}\nb`, GRAPH_LINE_CAP).split('\n');
    expect(capped.map((l) => l.length)).toEqual([1, GRAPH_LINE_CAP, 1]);
  });

  it('skips a .md that is a named pipe with a reason instead of blocking on it', async () => {
    ws = createTempWorkspace({});
    const pipe = path.join(ws.root, 'pipe.md');
    execFileSync('mkfifo', [pipe]);
    expect(await readMarkdownFile(pipe)).toEqual({ kind: 'skipped', reason: 'not a regular file (named pipe); not read', bytes: null });
  });

  it('reports a file that vanished before the read as vanished', async () => {
    ws = createTempWorkspace({});
    expect(await readMarkdownFile(path.join(ws.root, 'gone.md'))).toEqual({ kind: 'vanished' });
  });
});
