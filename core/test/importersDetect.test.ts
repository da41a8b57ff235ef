import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../src/platform/hash.js';
import { defaultImportHome, detectImportSource, detectImportSources } from '../src/importers/detect.js';
import { collectionNameForPath } from '../src/importers/detectClaudeCode.js';
import type { DetectedSource } from '../src/importers/types.js';
import { makeImportSandbox, type ImportSandbox } from './fixtures/import-sources/sandbox.js';

let box: ImportSandbox;
beforeEach(() => {
  box = makeImportSandbox();
});
afterEach(() => {
  vi.restoreAllMocks();
  box.cleanup();
});

function filesOf(source: DetectedSource): Array<[string, string, string | null]> {
  return source.collections.flatMap((c) => c.files.map((f): [string, string, string | null] => [c.name, f.relPath, f.skipReason]));
}

describe('Codex detection', () => {
  it('finds the memories layout, the older per-folder MEMORY.md files, and counts rollouts without offering them as files', () => {
    const source = detectImportSource({ tool: 'codex', home: box.codexHome });
    expect(source.exists).toBe(true);
    expect(filesOf(source)).toEqual([
      ['memories', 'MEMORY.md', null],
      ['memories', 'legacy/billing/MEMORY.md', null],
      ['memories', 'memory_summary.md', null],
      ['memories', 'raw_memories.md', null],
      ['memories', 'rollout_summaries/2026-03-02T14-05-11-ledgerd-goose-fix.md', null],
      ['memories', 'skills/ledgerd-migrations/SKILL.md', null],
    ]);
    expect(source.transcripts).toBe(1);
    expect(source.notes.join('\n')).toContain('ingested as sessions, not copied');
  });

  it('uses $CODEX_HOME, then ~/.codex', () => {
    expect(defaultImportHome('codex', { env: { CODEX_HOME: '/x/codex' }, userHome: '/home/u' })).toBe('/x/codex');
    expect(defaultImportHome('codex', { env: {}, userHome: '/home/u' })).toBe(path.join('/home/u', '.codex'));
    const viaEnv = detectImportSource({ tool: 'codex' }, { env: { CODEX_HOME: box.codexHome } });
    expect(viaEnv.home).toBe(box.codexHome);
    expect(viaEnv.collections[0]!.files).toHaveLength(6);
  });
});

describe('Claude Code detection', () => {
  it('takes the real project path from the transcript cwd, keeps an opaque name without one, and adds autoMemoryDirectory and CLAUDE.md', () => {
    const source = detectImportSource({ tool: 'claude-code', home: box.claudeHome }, { userHome: box.dir });
    const byName = Object.fromEntries(source.collections.map((c) => [c.name, c]));
    const ledgerd = collectionNameForPath('/Users/dana/src/ledgerd');
    expect(ledgerd).toBe(`ledgerd-${sha256Hex('/Users/dana/src/ledgerd').slice(0, 8)}`);
    expect(Object.keys(byName).sort()).toEqual(['-Users-dana-notes', 'auto-memory', ledgerd, 'user'].sort());
    expect(byName[ledgerd]!.projectPath).toBe('/Users/dana/src/ledgerd');
    expect(byName[ledgerd]!.files.map((f) => f.relPath)).toEqual(['MEMORY.md', 'feedback_testing.md', 'project_release.md', 'user_role.md']);
    // No transcript: the folder name is kept as is, never decoded into "/Users/dana/notes".
    expect(byName['-Users-dana-notes']!.projectPath).toBeNull();
    expect(byName['auto-memory']!.files.map((f) => f.relPath)).toEqual(['preferences.md']);
    expect(byName.user!.files.map((f) => f.relPath)).toEqual(['CLAUDE.md']);
  });

  it('can leave CLAUDE.md out, and reads a ~-relative autoMemoryDirectory', () => {
    fs.mkdirSync(path.join(box.dir, 'elsewhere'));
    fs.writeFileSync(path.join(box.dir, 'elsewhere', 'a.md'), '# a\n');
    fs.writeFileSync(path.join(box.claudeHome, 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/elsewhere' }));
    const source = detectImportSource({ tool: 'claude-code', home: box.claudeHome }, { userHome: box.dir, includeClaudeMd: false });
    expect(source.collections.map((c) => c.name)).not.toContain('user');
    expect(source.collections.find((c) => c.name === 'auto-memory')!.origin).toBe(path.join(box.dir, 'elsewhere'));
  });

  it('shortens a project folder name over 200 characters, with a stable hash suffix', () => {
    const longName = `-Users-dana-${'very-long-project-name-'.repeat(10)}end`;
    expect(longName.length).toBeGreaterThan(200);
    fs.mkdirSync(path.join(box.claudeHome, 'projects', longName, 'memory'), { recursive: true });
    fs.writeFileSync(path.join(box.claudeHome, 'projects', longName, 'memory', 'MEMORY.md'), '- [A](a.md) — a\n');
    const source = detectImportSource({ tool: 'claude-code', home: box.claudeHome }, { userHome: box.dir });
    const names = source.collections.map((c) => c.name);
    const shortened = names.find((n) => n.startsWith('-Users-dana-very-long'))!;
    expect(Buffer.byteLength(shortened)).toBeLessThanOrEqual(200);
    expect(shortened.endsWith(`-${sha256Hex(longName).slice(0, 12)}`)).toBe(true);
    expect(detectImportSource({ tool: 'claude-code', home: box.claudeHome }, { userHome: box.dir }).collections.map((c) => c.name)).toEqual(names);
  });
});

describe('Hermes detection', () => {
  it('reads the default profile and profiles/<name>; lock files and *.bak.* drift backups are not imported but named with the reason', () => {
    const source = detectImportSource({ tool: 'hermes', home: box.hermesHome });
    expect(filesOf(source)).toEqual([
      ['default', 'MEMORY.md', null],
      ['default', 'USER.md', null],
      ['work', 'MEMORY.md', null],
      ['work', 'USER.md', null],
    ]);
    expect(source.notes).toContain('Active Hermes profile: work.');
    const notImported = source.notes.filter((n) => n.startsWith('Not imported: '));
    expect(notImported.some((n) => /MEMORY\.md\.lock \(Hermes' lock file, not memory\)/.test(n))).toBe(true);
    expect(notImported.some((n) => /\.bak\.[^ ]+ \(a Hermes drift backup/.test(n))).toBe(true);
  });

  it('uses $HERMES_HOME, %LOCALAPPDATA%\\hermes on Windows, then ~/.hermes', () => {
    expect(defaultImportHome('hermes', { env: { HERMES_HOME: '/h' }, userHome: '/home/u' })).toBe('/h');
    expect(defaultImportHome('hermes', { env: { LOCALAPPDATA: '/appdata' }, userHome: '/home/u', platform: 'win32' })).toBe(path.join('/appdata', 'hermes'));
    expect(defaultImportHome('hermes', { env: {}, userHome: '/home/u', platform: 'linux' })).toBe(path.join('/home/u', '.hermes'));
  });
});

describe('bad input during detection', () => {
  it('a missing home gives an empty detection with a note, not an error', () => {
    const missing = path.join(box.dir, 'nope');
    const sources = detectImportSources(
      [{ tool: 'codex', home: missing }, { tool: 'claude-code', home: missing }, { tool: 'hermes', home: missing }],
      { userHome: box.dir },
    );
    for (const source of sources) {
      expect(source).toMatchObject({ exists: false, collections: [], transcripts: 0 });
      expect(source.notes[0]).toContain('No folder at');
    }
  });

  it('a permission-denied folder is noted and the rest is still found', () => {
    const locked = path.join(box.hermesHome, 'profiles', 'work', 'memories');
    const realReaddir = fs.readdirSync;
    const isRoot = process.getuid?.() === 0;
    if (isRoot) {
      // root reads through chmod 000, so simulate what a normal account gets.
      vi.spyOn(fs, 'readdirSync').mockImplementation(((p: fs.PathLike, o?: unknown) => {
        if (String(p) === locked) throw Object.assign(new Error(`EACCES: permission denied, scandir '${locked}'`), { code: 'EACCES' });
        return (realReaddir as (p: fs.PathLike, o?: unknown) => unknown)(p, o);
      }) as typeof fs.readdirSync);
    } else {
      fs.chmodSync(locked, 0o000);
    }
    try {
      const source = detectImportSource({ tool: 'hermes', home: box.hermesHome });
      expect(source.collections.map((c) => c.name)).toEqual(['default']);
      expect(source.notes.join('\n')).toMatch(/Cannot read folder .*work.*permission denied/);
    } finally {
      if (!isRoot) fs.chmodSync(locked, 0o755);
    }
  });

  it('symlinks and symlink loops are listed as skipped and never followed', () => {
    const memories = path.join(box.codexHome, 'memories');
    fs.symlinkSync(path.join(box.claudeHome, 'CLAUDE.md'), path.join(memories, 'raw_memories.md.link'));
    fs.rmSync(path.join(memories, 'memory_summary.md'));
    fs.symlinkSync(path.join(box.claudeHome, 'CLAUDE.md'), path.join(memories, 'memory_summary.md'));
    // A loop: legacy/billing/loop → legacy, which would recurse forever if followed.
    fs.symlinkSync(path.join(memories, 'legacy'), path.join(memories, 'legacy', 'billing', 'loop'));
    fs.symlinkSync('self-loop', path.join(memories, 'rollout_summaries', 'self-loop'));
    const source = detectImportSource({ tool: 'codex', home: box.codexHome });
    const skipped = filesOf(source).filter(([, , reason]) => reason !== null);
    expect(skipped).toEqual(
      expect.arrayContaining([
        ['memories', 'memory_summary.md', 'symlink (not followed)'],
        ['memories', 'legacy/billing/loop', 'symlink (not followed)'],
        ['memories', 'rollout_summaries/self-loop', 'symlink (not followed)'],
      ]),
    );
  });

  it('a symlinked Claude project or memory folder is reported, not entered', () => {
    fs.symlinkSync(path.join(box.claudeHome, 'projects', '-Users-dana-notes'), path.join(box.claudeHome, 'projects', '-link'));
    const source = detectImportSource({ tool: 'claude-code', home: box.claudeHome }, { userHome: box.dir });
    const link = source.collections.find((c) => c.name === '-link')!;
    expect(link.files).toEqual([{ absPath: path.join(box.claudeHome, 'projects', '-link'), relPath: '', skipReason: 'symlink (not followed)' }]);
  });
});
