import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openHostWorkspace } from '../src/workspace/workspaceChoice.js';
import { SettingsStore } from '../src/workspace/settingsStore.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

describe('workspace.info / workspace.open (first run, choosing a workspace)', () => {
  let ws: TempWorkspace;
  const savedHome = process.env.HOME;
  afterEach(() => {
    process.env.HOME = savedHome;
    ws?.cleanup();
  });

  it('offers the OpenClaw workspace on first run and remembers the choice', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Memory\n' });
    const home = path.join(ws.dataDir, '..', 'home');
    const openClaw = path.join(home, '.openclaw', 'workspace');
    fs.mkdirSync(openClaw, { recursive: true });
    process.env.HOME = home;
    const service = openService(ws);
    try {
      const info = await service.invoke('workspace.info', {});
      expect(info).toEqual({ root: ws.root, firstRun: true, openClaw, starterDir: path.join(home, 'Reverie'), canPickFolder: false });

      // Keeping the open workspace ends the first run; nothing restarts.
      expect(await service.invoke('workspace.open', { path: ws.root })).toEqual({ root: ws.root, changed: false, restartRequired: false });
      expect(await service.invoke('workspace.info', {})).toMatchObject({ firstRun: false });

      // Choosing another one is saved; a host that cannot switch by itself says so.
      expect(await service.invoke('workspace.open', { path: openClaw })).toEqual({ root: fs.realpathSync(openClaw), changed: true, restartRequired: true });
      expect(service.settings.read().workspace).toBe(fs.realpathSync(openClaw));
    } finally {
      await service.close();
    }
  });

  it('creates a missing folder only when asked, with starter files, and refuses relative paths and a null path without a picker', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Memory\n' });
    const chosen: string[] = [];
    const service = openService(ws, { onDidChooseWorkspace: (root) => chosen.push(root) });
    try {
      const fresh = path.join(ws.dataDir, '..', 'new-workspace');
      await expect(service.invoke('workspace.open', { path: fresh })).rejects.toMatchObject({ code: 'workspace-missing', message: expect.stringContaining(fresh) });
      expect(fs.existsSync(fresh)).toBe(false);
      await expect(service.invoke('workspace.open', { path: 'relative/dir', create: true })).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringContaining('not absolute') });
      await expect(service.invoke('workspace.open', { path: null })).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringContaining('folder picker') });

      const created = await service.invoke('workspace.open', { path: fresh, create: true });
      expect(created).toEqual({ root: fs.realpathSync(fresh), changed: true, restartRequired: false });
      expect(fs.readFileSync(path.join(fresh, 'MEMORY.md'), 'utf8')).toMatch(/^# Memory/);
      expect(fs.existsSync(path.join(fresh, 'USER.md'))).toBe(true);
      await new Promise((r) => setTimeout(r, 10));
      expect(chosen).toEqual([fs.realpathSync(fresh)]); // the desktop host restarts its engine on it
    } finally {
      await service.close();
    }
  });
});

describe('index.pause', () => {
  let ws: TempWorkspace;
  afterEach(() => ws?.cleanup());

  it('holds edits and file changes until resume, then indexes them', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Memory\n\n- The boiler was serviced in March.\n' });
    const service = openService(ws);
    const events: string[] = [];
    service.onDidEmitEvent((e) => events.push(e.type === 'index-paused' ? `paused:${e.paused}` : e.type));
    try {
      await service.startHosting({ kind: 'daemon', url: null });
      await service.sync(false);
      expect(await service.invoke('index.pause', { paused: true })).toEqual({ paused: true });
      expect((await service.invoke('status', {})).index.paused).toBe(true);

      const { sha256 } = await service.invoke('files.read', { path: 'MEMORY.md' });
      await service.invoke('files.write', { path: 'MEMORY.md', text: '# Memory\n\n- The heat pump replaced the boiler in October.\n', expectedSha256: sha256 });
      ws.write('memory/2026-11-30.md', '# 2026-11-30\n\n- Ordered a spare heat pump filter.\n');
      await new Promise((r) => setTimeout(r, 800)); // longer than the watcher's debounce
      const search = async (q: string): Promise<number> => (await service.invoke('memory.search', { query: q, sources: ['memory'] })).results.length;
      expect(await search('heat pump')).toBe(0);
      expect(events.filter((e) => e === 'index-ready')).toHaveLength(1);

      expect(await service.invoke('index.pause', { paused: false })).toEqual({ paused: false });
      const deadline = Date.now() + 10_000;
      while ((await search('heat pump')) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await search('heat pump')).toBe(2);
      expect(events).toContain('paused:true');
      expect(events).toContain('paused:false');
    } finally {
      await service.close();
    }
  });
});

describe('openHostWorkspace (the desktop engine at startup)', () => {
  const savedHome = process.env.HOME;
  afterEach(() => {
    process.env.HOME = savedHome;
  });

  it('opens the starter workspace and says so when the one chosen earlier has gone, showing the welcome again', () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-hostws-'));
    try {
      process.env.HOME = path.join(base, 'home');
      const settings = new SettingsStore(path.join(base, 'data'));
      settings.update({ workspace: path.join(base, 'gone'), firstRunDone: true });
      const opened = openHostWorkspace(undefined, settings);
      expect(opened.workspace.root).toBe(fs.realpathSync(path.join(base, 'home', 'Reverie')));
      expect(opened.notice).toContain(`${path.join(base, 'gone')}, no longer exists`);
      expect(settings.read()).toMatchObject({ workspace: opened.workspace.root, firstRunDone: false });

      // Next start: the starter workspace is the saved one; nothing to say.
      expect(openHostWorkspace(undefined, settings)).toEqual({ workspace: opened.workspace, notice: null });
      // A folder named on the command line must exist.
      expect(() => openHostWorkspace(path.join(base, 'typo'), settings)).toThrow(/does not exist/);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
