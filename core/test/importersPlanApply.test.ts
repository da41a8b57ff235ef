import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReverieError } from '../src/platform/errors.js';
import { sha256Hex } from '../src/platform/hash.js';
import { applyImport } from '../src/importers/apply.js';
import { destinationProblem, importDestination } from '../src/importers/importPaths.js';
import { planImport } from '../src/importers/plan.js';
import { listImportReports, readImportReport } from '../src/importers/report.js';
import type { ImportPlan, ImportProgress, ImportSourceSpec } from '../src/importers/types.js';
import { hashTree, makeImportSandbox, type ImportSandbox } from './fixtures/import-sources/sandbox.js';

let box: ImportSandbox;
let allSources: ImportSourceSpec[];
beforeEach(() => {
  box = makeImportSandbox();
  allSources = [
    { tool: 'codex', home: box.codexHome },
    { tool: 'claude-code', home: box.claudeHome },
    { tool: 'hermes', home: box.hermesHome },
  ];
});
afterEach(() => box.cleanup());

const plan = (sources = allSources, extra: Partial<Parameters<typeof planImport>[0]> = {}): Promise<ImportPlan> =>
  planImport({ workspaceRoot: box.workspace, sources, userHome: box.dir, ...extra });
const apply = (p: ImportPlan, extra: Partial<Parameters<typeof applyImport>[1]> = {}) => applyImport(p, { workspaceRoot: box.workspace, dataDir: box.dataDir, ...extra });
const inWorkspace = (dest: string): string => path.join(box.workspace, ...dest.split('/'));
const itemFor = (p: ImportPlan, suffix: string) => p.items.find((i) => i.sourcePath.endsWith(suffix))!;

describe('planImport', () => {
  it('lists every file with its size, hash and destination under memory/imports/<tool>/<collection>/', async () => {
    const p = await plan();
    expect(p.items.every((i) => i.status === 'new')).toBe(true);
    expect(p.items).toHaveLength(6 + 8 + 4);
    const hermesUser = itemFor(p, path.join('hermes-home', 'memories', 'USER.md'));
    const bytes = fs.readFileSync(hermesUser.sourcePath);
    expect(hermesUser).toMatchObject({ tool: 'hermes', collection: 'default', size: bytes.length, sha256: sha256Hex(bytes), destination: 'memory/imports/hermes/default/USER.md' });
    expect(itemFor(p, 'SKILL.md').destination).toBe('memory/imports/codex/memories/skills/ledgerd-migrations/SKILL.md');
    expect(itemFor(p, 'user_role.md').destination).toMatch(/^memory\/imports\/claude-code\/ledgerd-[0-9a-f]{8}\/user_role\.md$/);
    expect(p.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect((await plan()).fingerprint).toBe(p.fingerprint);
    // Planning writes nothing.
    expect(fs.readdirSync(box.workspace)).toEqual([]);
  });

  it('marks identical destinations unchanged and different ones as conflicts', async () => {
    const first = await plan([{ tool: 'hermes', home: box.hermesHome }]);
    await apply(first);
    fs.writeFileSync(inWorkspace('memory/imports/hermes/work/MEMORY.md'), 'edited in the workspace\n');
    const second = await plan([{ tool: 'hermes', home: box.hermesHome }]);
    expect(second.items.map((i) => [i.destination, i.status])).toEqual([
      ['memory/imports/hermes/default/MEMORY.md', 'unchanged'],
      ['memory/imports/hermes/default/USER.md', 'unchanged'],
      ['memory/imports/hermes/work/MEMORY.md', 'conflict'],
      ['memory/imports/hermes/work/USER.md', 'unchanged'],
    ]);
  });
});

describe('applyImport', () => {
  it('copies bytes exactly, never touches the sources, and writes a JSON and Markdown report', async () => {
    const before = { codex: hashTree(box.codexHome), claude: hashTree(box.claudeHome), hermes: hashTree(box.hermesHome) };
    const events: ImportProgress[] = [];
    const p = await plan();
    const report = await apply(p, { onProgress: (e) => events.push(e) });
    expect(report).toMatchObject({ outcome: 'completed', error: null, copied: 18, skipped: 0, replaced: 0, unchanged: 0, backupDir: null });
    for (const item of p.items) expect(sha256Hex(fs.readFileSync(inWorkspace(item.destination!)))).toBe(item.sha256);
    expect({ codex: hashTree(box.codexHome), claude: hashTree(box.claudeHome), hermes: hashTree(box.hermesHome) }).toEqual(before);
    // No staging folder left behind.
    expect(fs.readdirSync(inWorkspace('memory/imports')).sort()).toEqual(['claude-code', 'codex', 'hermes']);
    expect(events.at(-1)).toMatchObject({ phase: 'done' });
    expect(events.some((e) => e.phase === 'staging')).toBe(true);

    expect(report.reportPath).toBe(path.join(box.dataDir, 'imports', 'reports', `${report.id}.json`));
    expect(readImportReport(report.reportPath!)).toMatchObject({ id: report.id, copied: 18 });
    const md = fs.readFileSync(report.markdownPath!, 'utf8');
    expect(md).toContain('Copied: 18; replaced: 0; unchanged: 0; skipped: 0');
    expect(md).toContain('memory/imports/hermes/work/USER.md');
    // The importer never merges into the workspace's own MEMORY.md.
    expect(fs.existsSync(path.join(box.workspace, 'MEMORY.md'))).toBe(false);
  });

  it('re-applying unchanged sources copies nothing', async () => {
    await apply(await plan());
    const destination = inWorkspace('memory/imports/hermes/default/MEMORY.md');
    const mtime = fs.statSync(destination).mtimeMs;
    const again = await apply(await plan());
    expect(again).toMatchObject({ copied: 0, replaced: 0, unchanged: 18, skipped: 0 });
    expect(fs.statSync(destination).mtimeMs).toBe(mtime);
  });

  it('skips conflicts unless replace is chosen, then backs the old file up with a verified checksum', async () => {
    await apply(await plan());
    const dest = 'memory/imports/hermes/work/MEMORY.md';
    fs.writeFileSync(inWorkspace(dest), 'my own edit\n');

    const skipped = await apply(await plan());
    expect(skipped).toMatchObject({ copied: 0, replaced: 0, skipped: 1, unchanged: 17 });
    expect(skipped.items.find((i) => i.destination === dest)!.reason).toContain('replace existing imports');
    expect(fs.readFileSync(inWorkspace(dest), 'utf8')).toBe('my own edit\n');

    const replaced = await apply(await plan(), { replace: true });
    expect(replaced).toMatchObject({ copied: 0, replaced: 1, skipped: 0, unchanged: 17 });
    const item = replaced.items.find((i) => i.destination === dest)!;
    expect(item.backupPath).toBe(path.join(replaced.backupDir!, ...dest.split('/')));
    expect(replaced.backupDir!.startsWith(path.join(box.dataDir, 'backups', 'imports'))).toBe(true);
    expect(fs.readFileSync(item.backupPath!, 'utf8')).toBe('my own edit\n');
    const manifest = JSON.parse(fs.readFileSync(path.join(replaced.backupDir!, 'manifest.json'), 'utf8'));
    expect(manifest.files).toEqual([{ destination: dest, backupPath: item.backupPath, sha256: sha256Hex('my own edit\n') }]);
    expect(fs.readFileSync(inWorkspace(dest))).toEqual(fs.readFileSync(path.join(box.hermesHome, 'profiles', 'work', 'memories', 'MEMORY.md')));
    expect(fs.readFileSync(replaced.markdownPath!, 'utf8')).toContain('previous version saved to');
  });

  it('leaves out the destinations the person unticked', async () => {
    const p = await plan([{ tool: 'hermes', home: box.hermesHome }]);
    const report = await apply(p, { exclude: ['memory/imports/hermes/work/USER.md'] });
    expect(report).toMatchObject({ copied: 3, skipped: 1 });
    expect(fs.existsSync(inWorkspace('memory/imports/hermes/work/USER.md'))).toBe(false);
  });

  it('lists saved reports, newest first', async () => {
    let clock = Date.parse('2026-03-10T08:00:00Z');
    const now = () => new Date((clock += 1000));
    await apply(await plan(), { now });
    await apply(await plan(), { now });
    const reports = listImportReports(box.dataDir);
    expect(reports.map((r) => [r.copied, r.unchanged])).toEqual([[0, 18], [18, 0]]);
    expect(reports[0]!.id).toBe('2026-03-10T08-00-03-000Z');
    expect(reports[0]!.markdownPath).toBe(path.join(box.dataDir, 'imports', 'reports', '2026-03-10T08-00-03-000Z.md'));
    expect(listImportReports(path.join(box.dir, 'no-data'))).toEqual([]);
  });
});

describe('bad input', () => {
  it('skips symlinks, non-UTF-8, binary and > 10 MB files with a reason; the rest still imports', async () => {
    const memories = path.join(box.hermesHome, 'memories');
    const work = path.join(box.hermesHome, 'profiles', 'work', 'memories');
    fs.writeFileSync(path.join(memories, 'USER.md'), Buffer.from([0x4e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xff, 0xfe, 0x0a]));
    fs.writeFileSync(path.join(work, 'MEMORY.md'), Buffer.from('PNG\u0000\u0001binary'));
    fs.writeFileSync(path.join(work, 'USER.md'), Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    fs.rmSync(path.join(memories, 'MEMORY.md'));
    fs.symlinkSync(path.join(box.claudeHome, 'CLAUDE.md'), path.join(memories, 'MEMORY.md'));
    const before = hashTree(box.hermesHome);

    const p = await plan([{ tool: 'hermes', home: box.hermesHome }, { tool: 'codex', home: box.codexHome }]);
    const reasons = Object.fromEntries(p.items.filter((i) => i.tool === 'hermes').map((i) => [i.destination, [i.status, i.reason]]));
    expect(reasons).toEqual({
      'memory/imports/hermes/default/MEMORY.md': ['skipped', 'symlink (not followed)'],
      'memory/imports/hermes/default/USER.md': ['skipped', 'not UTF-8 (invalid byte at offset 6)'],
      'memory/imports/hermes/work/MEMORY.md': ['skipped', 'binary content (contains NUL bytes)'],
      'memory/imports/hermes/work/USER.md': ['skipped', 'too large (10.0 MB, limit 10.0 MB)'],
    });
    const report = await apply(p);
    // Skipped items are reported and the import still completes (the CLI exits 0).
    expect(report).toMatchObject({ outcome: 'completed', copied: 6, skipped: 4 });
    expect(report.items.filter((i) => i.action === 'skipped').map((i) => i.reason)).toContain('symlink (not followed)');
    expect(fs.existsSync(inWorkspace('memory/imports/hermes'))).toBe(false);
    expect(hashTree(box.hermesHome)).toEqual(before);
  });

  it('stops with a clear message when one collection holds more than 2,000 files', async () => {
    const summaries = path.join(box.codexHome, 'memories', 'rollout_summaries');
    for (let i = 0; i < 2001; i++) fs.writeFileSync(path.join(summaries, `s-${i}.md`), `# ${i}\n`);
    const attempt = plan([{ tool: 'codex', home: box.codexHome }]);
    await expect(attempt).rejects.toBeInstanceOf(ReverieError);
    await expect(attempt).rejects.toThrow(/codex collection "memories" .* holds 2007 files, more than the 2000 allowed in one collection/);
    expect(fs.readdirSync(box.workspace)).toEqual([]);
  });

  it('rejects destinations that would escape the workspace: .., absolute, Windows drive letters', async () => {
    expect(destinationProblem('memory/imports/codex/../../../etc/passwd')).toMatch(/escape the workspace/);
    expect(destinationProblem('/etc/passwd')).toMatch(/absolute/);
    expect(destinationProblem('C:/Users/x/memory.md')).toMatch(/Windows drive/);
    expect(destinationProblem('c:memory/imports/x.md')).toMatch(/Windows drive/);
    expect(destinationProblem('memory\\imports\\x.md')).toMatch(/backslash/);
    expect(destinationProblem('MEMORY.md')).toMatch(/outside memory\/imports/);
    expect(destinationProblem('memory/imports/hermes/default/MEMORY.md')).toBeNull();
    // Names from disk can never produce an escaping destination: `..` and separators are neutralised.
    expect(importDestination('hermes', '..', '../x.md')).toBe('memory/imports/hermes/_/_/x.md');
    expect(destinationProblem(importDestination('claude-code', 'C:', 'a\\..\\b.md'))).toBeNull();

    // A tampered saved plan is refused item by item even without the fingerprint check.
    const p = await plan([{ tool: 'hermes', home: box.hermesHome }]);
    const tampered: ImportPlan = {
      ...p,
      items: p.items.map((i, n) => (n === 0 ? { ...i, destination: '../outside.md' } : n === 1 ? { ...i, destination: 'C:/evil.md' } : i)),
    };
    const report = await apply(tampered, { verifyFingerprint: false });
    expect(report.items.slice(0, 2).map((i) => i.reason)).toEqual([
      'rejected: destination ../outside.md would escape the workspace',
      'rejected: destination C:/evil.md names a Windows drive',
    ]);
    expect(report.copied).toBe(2);
    expect(fs.existsSync(path.join(box.dir, 'outside.md'))).toBe(false);
  });

  it('never writes through a symlinked imports folder', async () => {
    fs.mkdirSync(path.join(box.workspace, 'memory'));
    fs.mkdirSync(path.join(box.dir, 'elsewhere'));
    fs.symlinkSync(path.join(box.dir, 'elsewhere'), path.join(box.workspace, 'memory', 'imports'));
    const p = await plan([{ tool: 'hermes', home: box.hermesHome }]);
    expect(p.items.every((i) => i.status === 'skipped' && /memory\/imports is a symlink/.test(i.reason!))).toBe(true);
    await apply(p);
    expect(fs.readdirSync(path.join(box.dir, 'elsewhere'))).toEqual([]);
  });

  it('shortens folder names over 200 characters in destinations', async () => {
    const longSkill = 'skill-'.repeat(40);
    fs.mkdirSync(path.join(box.codexHome, 'memories', 'skills', longSkill));
    fs.writeFileSync(path.join(box.codexHome, 'memories', 'skills', longSkill, 'SKILL.md'), '---\nname: long\n---\nbody\n');
    const p = await plan([{ tool: 'codex', home: box.codexHome }]);
    const item = p.items.find((i) => i.sourcePath.includes(longSkill))!;
    const segments = item.destination!.split('/');
    expect(segments.every((s) => Buffer.byteLength(s) <= 200)).toBe(true);
    expect(segments.at(-2)).toBe(`${longSkill.slice(0, 187)}-${sha256Hex(longSkill).slice(0, 12)}`);
    const report = await apply(p);
    expect(report.copied).toBe(7);
    expect(fs.readFileSync(inWorkspace(item.destination!), 'utf8')).toContain('name: long');
  });

  it('refuses a plan whose sources changed between plan and apply', async () => {
    const p = await plan([{ tool: 'hermes', home: box.hermesHome }]);
    fs.appendFileSync(path.join(box.hermesHome, 'memories', 'USER.md'), '\n§\nLikes tea.');
    await expect(apply(p)).rejects.toThrow(/changed since this plan was made \(changed or gone: .*USER\.md\); make a new plan/);
    expect(fs.existsSync(inWorkspace('memory'))).toBe(false);
    // A new file appearing is a change too.
    const p2 = await plan([{ tool: 'hermes', home: box.hermesHome }]);
    fs.mkdirSync(path.join(box.hermesHome, 'profiles', 'home', 'memories'), { recursive: true });
    fs.writeFileSync(path.join(box.hermesHome, 'profiles', 'home', 'memories', 'USER.md'), 'x');
    await expect(apply(p2)).rejects.toThrow(/new: .*profiles\/home\/memories\/USER\.md/);
  });

  it('without the fingerprint check, a file that changed after planning is skipped, not copied with new bytes', async () => {
    const p = await plan([{ tool: 'hermes', home: box.hermesHome }]);
    fs.appendFileSync(path.join(box.hermesHome, 'memories', 'USER.md'), '\n§\nLikes tea.');
    const report = await apply(p, { verifyFingerprint: false });
    expect(report.items.find((i) => i.destination === 'memory/imports/hermes/default/USER.md')).toMatchObject({
      action: 'skipped', reason: 'the source changed since the plan was made; plan again to import it',
    });
    expect(report.copied).toBe(3);
  });

  it('a full disk during apply leaves nothing half-written and the report says what happened', async () => {
    await apply(await plan([{ tool: 'hermes', home: box.hermesHome }]));
    fs.writeFileSync(inWorkspace('memory/imports/hermes/work/MEMORY.md'), 'mine\n');
    const workspaceBefore = hashTree(box.workspace);
    const p = await plan();
    let writes = 0;
    const report = await apply(p, {
      replace: true,
      writeStagedFile: (file, bytes) => {
        if (++writes === 5) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        fs.writeFileSync(file, bytes.subarray(0, Math.ceil(bytes.length / 2))); // a partial write, as a full disk leaves
      },
    });
    expect(report).toMatchObject({ outcome: 'failed', copied: 0, replaced: 0, backupDir: null });
    expect(report.error).toBe('the disk is full (ENOSPC); nothing was imported');
    expect(report.items.filter((i) => i.action === 'skipped').every((i) => i.reason!.includes('disk is full'))).toBe(true);
    expect(hashTree(box.workspace)).toEqual(workspaceBefore);
    expect(fs.readdirSync(inWorkspace('memory/imports')).sort()).toEqual(['hermes']);
    expect(fs.existsSync(path.join(box.dataDir, 'backups', 'imports', report.id))).toBe(false);
    expect(readImportReport(report.reportPath!)).toMatchObject({ outcome: 'failed', error: report.error });
    expect(fs.readFileSync(report.markdownPath!, 'utf8')).toContain('Outcome: failed — the disk is full (ENOSPC)');
  });
});
