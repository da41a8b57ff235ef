import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReverieError } from '../src/platform/errors.js';
import { explainAbiMismatch, openSqlite, SQLITE_NATIVE_BINDING_ENV } from '../src/platform/sqliteDriver.js';
import { openIndexDatabase } from '../src/index/database.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NODE_BUILD = path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

let dir: string;
let saved: string | undefined;

beforeEach(() => {
  saved = process.env[SQLITE_NATIVE_BINDING_ENV];
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-sqlite-driver-'));
});

afterEach(() => {
  if (saved === undefined) delete process.env[SQLITE_NATIVE_BINDING_ENV];
  else process.env[SQLITE_NATIVE_BINDING_ENV] = saved;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('openSqlite', () => {
  it('opens with better-sqlite3’s own build when the variable is unset', () => {
    delete process.env[SQLITE_NATIVE_BINDING_ENV];
    const db = openSqlite(path.join(dir, 'a.sqlite'), { timeout: 1_000 });
    try {
      db.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (41)');
      expect(db.prepare('SELECT x + 1 AS y FROM t').get()).toEqual({ y: 42 });
    } finally {
      db.close();
    }
  });

  it('treats an empty variable as unset', () => {
    process.env[SQLITE_NATIVE_BINDING_ENV] = '  ';
    const db = openSqlite(path.join(dir, 'empty.sqlite'));
    expect(db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
    db.close();
  });

  it('loads the build the variable names and queries through it', () => {
    expect(fs.existsSync(NODE_BUILD)).toBe(true);
    process.env[SQLITE_NATIVE_BINDING_ENV] = NODE_BUILD;
    const file = path.join(dir, 'b.sqlite');
    const db = openSqlite(file, { timeout: 1_000 });
    try {
      db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello'), ('world')");
      expect(db.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 2 });
      expect(db.name).toBe(file);
    } finally {
      db.close();
    }
  });

  it('throws a clear internal error when the variable names a missing file', () => {
    const missing = path.join(dir, 'cache', 'better-sqlite3-x-electron-y', 'better_sqlite3.node');
    process.env[SQLITE_NATIVE_BINDING_ENV] = missing;
    let caught: unknown;
    try {
      openSqlite(path.join(dir, 'c.sqlite'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ReverieError);
    const error = caught as ReverieError;
    expect(error.code).toBe('internal');
    expect(error.message).toContain(missing);
    expect(error.message).toContain(SQLITE_NATIVE_BINDING_ENV);
    expect(error.message).toContain(`Delete the cache folder ${path.dirname(missing)}`);
    expect(error.message).toContain('npm start');
    expect(fs.existsSync(path.join(dir, 'c.sqlite'))).toBe(false);
  });

  it('is what the index uses: the same variable reaches openIndexDatabase', () => {
    const missing = path.join(dir, 'nowhere', 'better_sqlite3.node');
    process.env[SQLITE_NATIVE_BINDING_ENV] = missing;
    expect(() => openIndexDatabase(path.join(dir, 'index', 'index.sqlite'))).toThrow(ReverieError);
    process.env[SQLITE_NATIVE_BINDING_ENV] = NODE_BUILD;
    const opened = openIndexDatabase(path.join(dir, 'index', 'index.sqlite'));
    try {
      expect(opened.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()).toMatchObject({ n: expect.any(Number) });
    } finally {
      opened.db.close();
    }
  });

  it('passes other load errors through unchanged', () => {
    const bogus = path.join(dir, 'better_sqlite3.node');
    fs.writeFileSync(bogus, 'not a shared library');
    process.env[SQLITE_NATIVE_BINDING_ENV] = bogus;
    expect(() => openSqlite(path.join(dir, 'd.sqlite'))).toThrow(/better_sqlite3\.node/);
    expect(() => openSqlite(path.join(dir, 'd.sqlite'))).not.toThrow(ReverieError);
  });
});

describe('explainAbiMismatch', () => {
  const nodeMessage = (file: string) =>
    `The module '${file}'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 140. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`;

  it('names the build that was loaded and the ABI this runtime needs', () => {
    const binding = '/x/node_modules/.cache/reverie/better-sqlite3-12.11.1-electron-45.5.0-linux-x64/better_sqlite3.node';
    const explained = explainAbiMismatch(new Error(nodeMessage(binding)), binding);
    expect(explained).toBeInstanceOf(ReverieError);
    expect(explained?.code).toBe('internal');
    expect(explained?.message).toContain(binding);
    expect(explained?.message).toContain('built for NODE_MODULE_VERSION 115');
    expect(explained?.message).toContain(`Node ${process.version} needs NODE_MODULE_VERSION 140`);
    // Under plain Node, an Electron build named by the variable is the wrong thing to set.
    expect(explained?.message).toContain(`Unset ${SQLITE_NATIVE_BINDING_ENV}`);
  });

  it('names better-sqlite3’s own build when no binding was given', () => {
    const explained = explainAbiMismatch(new Error(nodeMessage('/x/better_sqlite3.node')), undefined);
    expect(explained?.message).toContain('node_modules/better-sqlite3/build');
  });

  it('leaves other errors alone', () => {
    expect(explainAbiMismatch(new Error('SQLITE_CANTOPEN'), undefined)).toBeNull();
  });
});
