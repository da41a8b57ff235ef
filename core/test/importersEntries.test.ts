import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCodexMemoryBlocks, parseHermesEntries, parseImportedEntries } from '../src/workspace/importedEntries.js';
import { importFixtures } from './fixtures/import-sources/sandbox.js';

const fixture = (...parts: string[]): string => fs.readFileSync(path.join(importFixtures, ...parts), 'utf8');

describe('Hermes entries', () => {
  it('splits on a line holding only §, with 1-based line ranges', () => {
    const entries = parseHermesEntries(fixture('hermes-home', 'memories', 'MEMORY.md'));
    expect(entries.map((e) => [e.startLine, e.endLine, e.text])).toEqual([
      [1, 1, "Dana's laptop: Ubuntu 24.04, zsh, Go 1.22; repo at ~/src/ledgerd"],
      [3, 4, 'ledgerd migrations: goose; duplicate-version error means two files share a timestamp.\nFix: rename the newer file, then run `make migrate-check`.'],
      [6, 6, 'Prefers answers under 10 lines; no emojis.'],
    ]);
    expect(entries[0]!.metadata).toEqual({ format: 'hermes-entry' });
  });

  it('keeps a § inside an entry’s text in that entry', () => {
    const entries = parseHermesEntries(fixture('hermes-home', 'profiles', 'work', 'memories', 'USER.md'));
    expect(entries.map((e) => e.text)).toEqual(['Statute reference: see § 12 of the contract.', 'Second entry.']);
    expect(parseHermesEntries('a §\n§ b\n§\n§§\n').map((e) => e.text)).toEqual(['a §\n§ b', '§§']);
  });

  it('drops empty entries and handles CRLF separators', () => {
    expect(parseHermesEntries('one\r\n§\r\n\n§\ntwo')).toMatchObject([{ text: 'one\r', startLine: 1 }, { text: 'two', startLine: 5, endLine: 5 }]);
    expect(parseHermesEntries('')).toEqual([]);
  });
});

describe('Codex front-matter blocks', () => {
  it('returns one entry per block with its description, keywords and rollout files', () => {
    const entries = parseCodexMemoryBlocks(fixture('codex-home', 'memories', 'MEMORY.md'));
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      startLine: 1,
      endLine: 10,
      metadata: {
        format: 'codex-block',
        description: 'Writing and verifying goose SQL migrations in ledgerd',
        keywords: ['goose', 'migration', 'duplicate version', 'make migrate-check', 'pgx'],
      },
    });
    expect(entries[0]!.metadata.fields!.rollout_summary_files).toEqual([
      '2026-03-02T14-05-11-ledgerd-goose-fix.md (success, fixed duplicate migration version, cwd=/home/dana/src/ledgerd, updated_at=2026-03-02T14:40:00Z)',
    ]);
    expect(entries[0]!.text).toContain('- Related skill: skills/ledgerd-migrations/SKILL.md');
    expect(entries[1]).toMatchObject({ startLine: 12, endLine: 21, metadata: { description: 'Invoice PDF rendering and fonts', keywords: ['invoice', 'pdf', 'wkhtmltopdf', 'fonts', 'glyphs', 'Noto'] } });
    expect(entries[1]!.text.split('\n').at(-1)).toBe('- Still open: page breaks inside line-item tables.');
  });

  it('treats a --- horizontal rule in the bullets as text, and inline keyword lists as lists', () => {
    const text = ['---', 'description: A', 'keywords: [x, "y z"]', '---', '- one', '', '---', '', '- still block A', '---', 'description: B', '---', '- two'].join('\n');
    const entries = parseCodexMemoryBlocks(text);
    expect(entries.map((e) => [e.startLine, e.endLine, e.metadata.description])).toEqual([[1, 9, 'A'], [10, 13, 'B']]);
    expect(entries[0]!.metadata.keywords).toEqual(['x', 'y z']);
  });

  it('falls back to one document entry without front matter', () => {
    expect(parseCodexMemoryBlocks('# Notes\n- a\n')).toEqual([{ text: '# Notes\n- a', startLine: 1, endLine: 2, metadata: { format: 'document' } }]);
  });
});

describe('Claude Code topic files and the dispatcher', () => {
  it('reads name, description and type from a topic file', () => {
    const [entry, ...rest] = parseImportedEntries('claude-code', 'feedback_testing.md', fixture('claude-home', 'projects', '-Users-dana-src-ledgerd', 'memory', 'feedback_testing.md'));
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      startLine: 1,
      endLine: 8,
      metadata: { format: 'claude-topic', name: 'Testing feedback', description: 'Run the short test target before any push in ledgerd', type: 'feedback' },
    });
  });

  it('splits the MEMORY.md index into one entry per linked topic', () => {
    const entries = parseImportedEntries('claude-code', 'MEMORY.md', fixture('claude-home', 'projects', '-Users-dana-src-ledgerd', 'memory', 'MEMORY.md'));
    expect(entries.map((e) => [e.startLine, e.metadata.name, e.metadata.fields!.file, e.metadata.description])).toEqual([
      [1, 'User role', 'user_role.md', 'backend dev on ledgerd, prefers terse answers'],
      [2, 'Testing feedback', 'feedback_testing.md', 'always run make test-short before pushing'],
      [3, 'Release process', 'project_release.md', 'tags are cut on Thursdays by the on-call'],
    ]);
  });

  it('routes Hermes, Codex skills and other Codex files', () => {
    expect(parseImportedEntries('hermes', 'USER.md', 'a\n§\nb')).toHaveLength(2);
    const [skill] = parseImportedEntries('codex', 'skills/ledgerd-migrations/SKILL.md', fixture('codex-home', 'memories', 'skills', 'ledgerd-migrations', 'SKILL.md'));
    expect(skill!.metadata).toMatchObject({ format: 'skill', name: 'ledgerd-migrations', description: 'Create and verify goose migrations in the ledgerd repository' });
    const [summary] = parseImportedEntries('codex', 'memory_summary.md', fixture('codex-home', 'memories', 'memory_summary.md'));
    expect(summary).toMatchObject({ startLine: 1, endLine: 12, metadata: { format: 'document' } });
  });
});
