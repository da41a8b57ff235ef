import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';

/** Bundles the preload exactly as `npm run build` does, into a temp folder. */
async function bundlePreload(): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-preload-'));
  await build({ configFile: path.resolve(import.meta.dirname, '../preload/vite.config.ts'), logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  return fs.readFileSync(path.join(outDir, 'preload.cjs'), 'utf8');
}

interface Exposed {
  call(name: unknown, input?: unknown): Promise<unknown>;
  on(listener: (event: unknown) => void): () => void;
}

/** Runs the bundle in a sandbox whose `require` knows only `electron` (as a sandboxed preload's does). */
function runPreload(code: string): { exposed: Map<string, unknown>; required: string[]; invoked: unknown[][]; emit(payload: unknown): void; listeners(): number } {
  const exposed = new Map<string, unknown>();
  const required: string[] = [];
  const invoked: unknown[][] = [];
  const listeners = new Set<(event: unknown, payload: unknown) => void>();
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (...args: unknown[]) => {
        invoked.push(args);
        return { ok: true, result: { echoed: args[1] } };
      },
      on: (channel: string, listener: (event: unknown, payload: unknown) => void) => channel === 'reverie:event' && listeners.add(listener),
      removeListener: (_channel: string, listener: (event: unknown, payload: unknown) => void) => listeners.delete(listener),
    },
  };
  const module = { exports: {} };
  const sandboxRequire = (name: string): unknown => {
    required.push(name);
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name}`);
  };
  vm.runInNewContext(`(function (require, module, exports) {${code}\n})`, { console, URL, Promise, Symbol, Map, Set, WeakMap, Error, TypeError })(sandboxRequire, module, module.exports);
  return { exposed, required, invoked, emit: (payload) => listeners.forEach((l) => l({}, payload)), listeners: () => listeners.size };
}

describe('preload bundle (sandboxed, CommonJS)', () => {
  let code: string;
  beforeAll(async () => {
    code = await bundlePreload();
  }, 60_000);

  it('is one CommonJS file that requires nothing but electron', () => {
    const requires = [...code.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    expect(new Set(requires)).toEqual(new Set(['electron']));
    expect(code).not.toMatch(/^\s*import\s/m);
  });

  it('exposes exactly one global, window.reverie, with call and on', () => {
    const preload = runPreload(code);
    expect([...preload.exposed.keys()]).toEqual(['reverie']);
    const api = preload.exposed.get('reverie') as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['call', 'on']);
    expect(typeof api.call).toBe('function');
    expect(typeof api.on).toBe('function');
  });

  it('validates calls against the contract before anything crosses IPC', async () => {
    const preload = runPreload(code);
    const api = preload.exposed.get('reverie') as Exposed;
    expect(await api.call('shell.exec', { cmd: 'rm -rf /' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await api.call(42)).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await api.call('memory.search', { query: 5 })).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('query') } });
    expect(await api.call('files.write', { path: 'MEMORY.md', text: 'x', expectedSha256: 'not-a-hash' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(preload.invoked).toEqual([]);
    // A valid call crosses with the contract's defaults filled in.
    expect(await api.call('memory.search', { query: 'port' })).toEqual({ ok: true, result: { echoed: 'memory.search' } });
    expect(preload.invoked).toEqual([['reverie:call', 'memory.search', { query: 'port', limit: 10, sources: ['memory', 'sessions'], graph: false, recall: true }]]);
  });

  it('delivers only contract events and unsubscribes', () => {
    const preload = runPreload(code);
    const api = preload.exposed.get('reverie') as Exposed;
    const seen: unknown[] = [];
    const off = api.on((event) => seen.push(event));
    preload.emit({ type: 'index-paused', paused: true });
    preload.emit({ type: 'index-paused', paused: 'no' });
    preload.emit({ type: 'evil', script: 'alert(1)' });
    expect(seen).toEqual([{ type: 'index-paused', paused: true }]);
    off();
    expect(preload.listeners()).toBe(0);
    expect(() => api.on('not a function' as never)).toThrow(/expects a function/);
  });
});
