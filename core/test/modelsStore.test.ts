import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReverieError } from '../src/platform/errors.js';
import { DEFAULT_EMBEDDING_DIMS, DEFAULT_EMBEDDING_MODEL, DEFAULT_EMBEDDING_MODEL_URI } from '../src/models/defaultModels.js';
import { nodeDownloadFileSystem, type DownloadFileSystem } from '../src/models/download.js';
import { ModelStore } from '../src/models/modelStore.js';
import type { ModelDownloadEvent } from '../src/models/modelSchema.js';
import { parseModelSource, resolveHfEndpoint } from '../src/models/modelUri.js';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

function fakeModel(size = 8 * 1024): Buffer {
  return Buffer.concat([Buffer.from('GGUF'), randomBytes(size - 4)]);
}

let base: string;
let dataDir: string;
let closers: (() => Promise<void>)[];

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-models-store-')));
  dataDir = path.join(base, 'data');
  closers = [];
});

afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  fs.rmSync(base, { recursive: true, force: true });
});

function writeFile(name: string, content: Buffer | string): string {
  const file = path.join(base, 'downloads', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

function store(options: Partial<ConstructorParameters<typeof ModelStore>[0]> = {}): ModelStore {
  return new ModelStore({ dataDir, env: {}, download: { timeoutMs: 5_000 }, ...options });
}

async function rejectionOf(work: Promise<unknown> | (() => unknown)): Promise<ReverieError> {
  const error = await (typeof work === 'function' ? Promise.resolve().then(work) : work).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReverieError);
  return error as ReverieError;
}

/** Files served by path, like a tiny Hub; every request's path and headers are recorded. */
async function startHub(files: Record<string, Buffer>, redirectTo?: string): Promise<{ url: string; requests: { path: string; headers: IncomingHttpHeaders }[] }> {
  const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    const body = files[req.url ?? ''];
    if (!body) return void res.writeHead(404).end();
    if (redirectTo) return void res.writeHead(302, { location: `${redirectTo}${req.url}`, 'x-linked-etag': `"${sha256(body)}"` }).end();
    res.writeHead(200, { 'content-length': String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

describe('model URIs', () => {
  it('resolves hf: URIs against huggingface.co or an overridden endpoint', () => {
    const slash = parseModelSource('hf:ggml-org/embeddinggemma-300m-qat-q8_0-GGUF/embeddinggemma-300m-qat-Q8_0.gguf', { hfEndpoint: 'https://huggingface.co' });
    expect(slash).toEqual({
      kind: 'remote',
      uri: 'hf:ggml-org/embeddinggemma-300m-qat-q8_0-GGUF/embeddinggemma-300m-qat-Q8_0.gguf',
      url: 'https://huggingface.co/ggml-org/embeddinggemma-300m-qat-q8_0-GGUF/resolve/main/embeddinggemma-300m-qat-Q8_0.gguf',
      fileName: 'embeddinggemma-300m-qat-Q8_0.gguf',
    });
    const colon = parseModelSource('hf:user/repo:sub dir/model.Q4.gguf', { hfEndpoint: 'http://127.0.0.1:9' });
    expect(colon).toMatchObject({ uri: 'hf:user/repo/sub dir/model.Q4.gguf', url: 'http://127.0.0.1:9/user/repo/resolve/main/sub%20dir/model.Q4.gguf', fileName: 'model.Q4.gguf' });

    expect(resolveHfEndpoint(undefined, {})).toBe('https://huggingface.co');
    expect(resolveHfEndpoint(undefined, { REVERIE_HF_ENDPOINT: 'http://127.0.0.1:8080/' })).toBe('http://127.0.0.1:8080');
    expect(resolveHfEndpoint('http://localhost:1', { REVERIE_HF_ENDPOINT: 'http://127.0.0.1:8080' })).toBe('http://localhost:1');
    expect(DEFAULT_EMBEDDING_MODEL).toEqual({ uri: DEFAULT_EMBEDDING_MODEL_URI, role: 'embedding', dims: 768 });
    expect(DEFAULT_EMBEDDING_DIMS).toBe(768);
  });

  it('rejects malformed URIs with a message that shows the right form', () => {
    for (const bad of ['hf:user', 'hf:user/repo', 'hf:user/repo:Q8_0', 'hf:us er/repo/x.gguf', 'hf:user/repo/../x.gguf', 'ftp://host/x.gguf', 'https://example.com/model.bin']) {
      expect(() => parseModelSource(bad, { hfEndpoint: 'https://huggingface.co' }), bad).toThrow(ReverieError);
    }
    expect(() => parseModelSource('hf:user/repo:Q8_0')).toThrow(/hf:<user>\/<repo>\/<file\.gguf>/);
    expect(() => parseModelSource('http://example.com/x.gguf')).toThrow(/use an https:\/\/ URL/);
  });

  it('accepts https URLs, turns a Hub "blob" link into the file, and treats the rest as local paths', () => {
    expect(parseModelSource('https://huggingface.co/u/r/blob/main/m.gguf')).toMatchObject({ kind: 'remote', url: 'https://huggingface.co/u/r/resolve/main/m.gguf', fileName: 'm.gguf' });
    expect(parseModelSource('https://example.com/models/m.gguf?download=1')).toMatchObject({ kind: 'remote', fileName: 'm.gguf' });
    expect(parseModelSource('./m.gguf', { cwd: '/tmp/x' })).toEqual({ kind: 'local', path: path.resolve('/tmp/x/m.gguf') });
    expect(parseModelSource('~/m.gguf')).toEqual({ kind: 'local', path: path.join(os.homedir(), 'm.gguf') });
  });
});

describe('ModelStore', () => {
  it('adds, lists, uses and removes models, and keeps the registry on disk', async () => {
    const aBytes = fakeModel();
    const bBytes = fakeModel();
    const a = writeFile('a.gguf', aBytes);
    const b = writeFile('b.gguf', bBytes);
    const models = store({ now: () => new Date('2026-05-01T10:00:00Z') });
    expect(models.list().models).toEqual([]);
    expect(models.activeModel('embedding')).toBeNull();

    const first = await models.add(a, 'embedding');
    expect(first.isNew).toBe(true);
    expect(first.model).toMatchObject({
      id: `model:${sha256(aBytes).slice(0, 16)}`,
      file: 'a.gguf',
      role: 'embedding',
      source: a,
      sha256: sha256(aBytes),
      size: aBytes.length,
      addedAt: '2026-05-01T10:00:00.000Z',
      path: path.join(dataDir, 'models', 'a.gguf'),
      present: true,
      active: true, // the first model of a role becomes its active one
    });
    expect(fs.readFileSync(first.model.path).equals(aBytes)).toBe(true);
    expect(fs.readdirSync(path.join(dataDir, 'models')).sort()).toEqual(['a.gguf', 'models.json']);

    const again = await models.add(a, 'embedding');
    expect(again).toMatchObject({ isNew: false, model: { id: first.model.id, file: 'a.gguf' } });
    expect(models.list().models).toHaveLength(1);

    const second = await models.add(b);
    expect(second.model).toMatchObject({ file: 'b.gguf', role: 'embedding', active: false });

    const changes: string[] = [];
    models.onDidChangeModels((list) => changes.push(String(list.active.embedding)));
    expect(models.use('b.gguf', 'embedding')).toMatchObject({ id: second.model.id, active: true });
    expect(models.activeModel('embedding')?.id).toBe(second.model.id);
    expect(models.use(first.model.id).active).toBe(true);
    expect(models.use(a).id).toBe(first.model.id); // by the path it was added from
    expect(changes).toEqual([second.model.id, first.model.id, first.model.id]);

    // A fresh store (another process) reads the same registry.
    const reopened = store();
    expect(reopened.list()).toMatchObject({ active: { embedding: first.model.id, chat: null } });
    expect(reopened.list().models.map((m) => m.file)).toEqual(['a.gguf', 'b.gguf']);
    const json = JSON.parse(fs.readFileSync(path.join(dataDir, 'models', 'models.json'), 'utf8'));
    expect(json).toMatchObject({ version: 1, active: { embedding: first.model.id, chat: null } });
    expect(Object.keys(json.models[0]).sort()).toEqual(['addedAt', 'file', 'id', 'role', 'sha256', 'size', 'source']);

    const removed = reopened.remove(first.model.id);
    expect(removed).toMatchObject({ removed: { id: first.model.id }, deactivated: ['embedding'] });
    expect(fs.existsSync(path.join(dataDir, 'models', 'a.gguf'))).toBe(false);
    expect(reopened.activeModel('embedding')).toBeNull();
    expect(store().list().models.map((m) => m.id)).toEqual([second.model.id]);
    expect(fs.existsSync(a)).toBe(true); // the original is never touched

    reopened.remove('b.gguf');
    expect(store().list()).toMatchObject({ models: [], active: { embedding: null, chat: null } });
    expect(fs.readdirSync(path.join(dataDir, 'models'))).toEqual(['models.json']);
  });

  it('keeps chat and embedding models apart', async () => {
    const models = store();
    const chat = await models.add(writeFile('chat.gguf', fakeModel()), 'chat');
    const embed = await models.add(writeFile('embed.gguf', fakeModel()), 'embedding');
    expect(models.list().active).toEqual({ embedding: embed.model.id, chat: chat.model.id });
    expect((await rejectionOf(() => models.use('chat.gguf', 'embedding'))).message).toContain('installed as a chat model');
    expect((await rejectionOf(models.add(path.join(models.dir, 'chat.gguf'), 'embedding'))).code).toBe('conflict');
    expect(models.use('chat.gguf').id).toBe(chat.model.id);
  });

  it('refuses files that are missing, not .gguf, or not GGUF inside', async () => {
    const models = store();
    const missing = await rejectionOf(models.add(path.join(base, 'nope.gguf')));
    expect(missing.code).toBe('not-found');
    expect(missing.message).toContain(`No such file: ${path.join(base, 'nope.gguf')}`);

    const text = await rejectionOf(models.add(writeFile('notes.txt', 'hello')));
    expect(text.code).toBe('invalid-input');
    expect(text.message).toMatch(/notes\.txt is not a \.gguf file/);

    const renamed = await rejectionOf(models.add(writeFile('fake.gguf', 'PK\x03\x04 a zip file')));
    expect(renamed.message).toMatch(/is not a GGUF model/);

    const folder = path.join(base, 'folder.gguf');
    fs.mkdirSync(folder);
    expect((await rejectionOf(models.add(folder))).message).toContain('is not a file');
    expect(models.list().models).toEqual([]);
  });

  it('names models.json when it is corrupt', async () => {
    const models = store();
    await models.add(writeFile('a.gguf', fakeModel()));
    const registry = path.join(dataDir, 'models', 'models.json');

    fs.writeFileSync(registry, '{ "version": 1, "models": [');
    const broken = await rejectionOf(() => models.list());
    expect(broken.code).toBe('invalid-input');
    expect(broken.message).toContain(`The model registry ${registry} is corrupt: not valid JSON`);
    expect(broken.message).toContain('reverie models add');

    fs.writeFileSync(registry, JSON.stringify({ version: 1, models: [{ id: 'model:xyz' }], active: { embedding: null, chat: null } }));
    const invalid = await rejectionOf(() => models.activeModel('embedding'));
    expect(invalid.message).toContain(`The model registry ${registry} is corrupt: "models.0.id" is invalid`);

    fs.writeFileSync(registry, JSON.stringify({ version: 1, models: [], active: { embedding: 'model:0123456789abcdef', chat: null } }));
    expect((await rejectionOf(() => models.use('a.gguf'))).message).toContain('the active embedding model model:0123456789abcdef is not in its list');
  });

  it('says which models are installed when use or remove names an unknown one', async () => {
    const models = store();
    await models.add(writeFile('a.gguf', fakeModel()));
    const error = await rejectionOf(() => models.use('hf:x/y/z.gguf'));
    expect(error.code).toBe('not-found');
    expect(error.message).toContain('No installed model matches "hf:x/y/z.gguf" (installed: a.gguf)');
    expect(error.message).toContain('reverie models pull hf:x/y/z.gguf');
    expect((await rejectionOf(() => models.remove('model:0000000000000000'))).code).toBe('not-found');
  });

  it('pulls an hf: URI from the endpoint in REVERIE_HF_ENDPOINT, then treats it as installed', async () => {
    const body = fakeModel(64 * 1024);
    const hub = await startHub({ '/org/repo-GGUF/resolve/main/tiny-Q8_0.gguf': body });
    const models = store({ env: { REVERIE_HF_ENDPOINT: hub.url } });
    const events: ModelDownloadEvent[] = [];
    models.onDidProgressDownload((e) => events.push(e));
    const progress: number[] = [];

    const pulled = await models.pull('hf:org/repo-GGUF:tiny-Q8_0.gguf', 'embedding', { onProgress: (p) => progress.push(p.bytes) });
    expect(pulled.isNew).toBe(true);
    expect(pulled.model).toMatchObject({ file: 'tiny-Q8_0.gguf', source: 'hf:org/repo-GGUF/tiny-Q8_0.gguf', sha256: sha256(body), size: body.length, active: true });
    expect(fs.readFileSync(pulled.model.path).equals(body)).toBe(true);
    expect(progress[progress.length - 1]).toBe(body.length);
    expect(events[events.length - 1]).toMatchObject({ uri: 'hf:org/repo-GGUF/tiny-Q8_0.gguf', file: 'tiny-Q8_0.gguf', role: 'embedding', bytes: body.length, done: true });
    expect(events.filter((e) => e.done)).toHaveLength(1);

    // Both spellings are the same model; pulling it again touches neither the network nor the disk.
    const again = await models.pull('hf:org/repo-GGUF/tiny-Q8_0.gguf');
    expect(again).toMatchObject({ isNew: false, model: { id: pulled.model.id } });
    expect(hub.requests).toHaveLength(1);
    expect(models.use('hf:org/repo-GGUF:tiny-Q8_0.gguf').id).toBe(pulled.model.id);
    expect(fs.readdirSync(models.dir).sort()).toEqual(['models.json', 'tiny-Q8_0.gguf']);
  });

  it('sends HF_TOKEN to the Hub only, never to the CDN it redirects to', async () => {
    const body = fakeModel(16 * 1024);
    const route = '/org/gated/resolve/main/m.gguf';
    const cdn = await startHub({ [route]: body });
    const hub = await startHub({ [route]: body }, cdn.url);
    const models = store({ env: { REVERIE_HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_secret' } });
    const pulled = await models.pull('hf:org/gated/m.gguf');
    expect(pulled.model.sha256).toBe(sha256(body));
    expect(hub.requests[0]!.headers.authorization).toBe('Bearer hf_secret');
    expect(cdn.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('reports a 404 from the Hub as not found and installs nothing', async () => {
    const hub = await startHub({});
    const models = store({ hfEndpoint: hub.url });
    const error = await rejectionOf(models.pull('hf:org/repo/missing.gguf'));
    expect(error.code).toBe('not-found');
    expect(error.message).toContain('not found: check the URI');
    expect(models.list().models).toEqual([]);
  });

  it('pulls a local path by adding it', async () => {
    const models = store();
    const file = writeFile('local.gguf', fakeModel());
    const result = await models.pull(file, 'chat');
    expect(result.model).toMatchObject({ file: 'local.gguf', role: 'chat', source: file, active: true });
  });

  it('gives a distinct file name to a different model with the same name', async () => {
    const models = store();
    const one = await models.add(writeFile('one/model.gguf', fakeModel()));
    const two = await models.add(writeFile('two/model.gguf', fakeModel()));
    expect(one.model.file).toBe('model.gguf');
    expect(two.model.file).toBe(`model-${two.model.sha256.slice(0, 8)}.gguf`);
    expect(models.use(two.model.file).id).toBe(two.model.id);
  });

  it('reports a full disk while copying and leaves no temporary file behind', async () => {
    const fullDisk: DownloadFileSystem = {
      async openPart(file, mode) {
        const real = await nodeDownloadFileSystem.openPart(file, mode);
        return { ...real, write: async () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })) };
      },
    };
    const models = store({ download: { fileSystem: fullDisk } });
    const error = await rejectionOf(models.add(writeFile('big.gguf', fakeModel())));
    expect(error.message).toMatch(/^Disk full while copying .*big\.gguf into .*models; free space and retry\.$/);
    expect(fs.readdirSync(models.dir)).toEqual([]);
  });
});
