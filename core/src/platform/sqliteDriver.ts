import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ReverieError } from './errors.js';

/**
 * Absolute path of a `better_sqlite3.node` to load instead of the one in
 * node_modules/better-sqlite3/build. `npm start` sets it to an Electron-ABI build it prepared
 * (scripts/electronNative.mjs); the CLI and tests leave it unset and use the Node build.
 */
export const SQLITE_NATIVE_BINDING_ENV = 'REVERIE_SQLITE_NATIVE_BINDING';

/** Opens a better-sqlite3 database, with the native build named by REVERIE_SQLITE_NATIVE_BINDING when set. */
export function openSqlite(file: string, options: Database.Options = {}): Database.Database {
  const binding = nativeBindingFromEnv();
  const effective: Database.Options = binding !== undefined && options.nativeBinding === undefined ? { ...options, nativeBinding: binding } : options;
  try {
    return new Database(file, effective);
  } catch (error) {
    throw explainAbiMismatch(error, effective.nativeBinding) ?? error;
  }
}

function nativeBindingFromEnv(): string | undefined {
  const value = process.env[SQLITE_NATIVE_BINDING_ENV]?.trim();
  if (!value) return undefined;
  const file = path.resolve(value);
  if (!fs.existsSync(file)) {
    throw new ReverieError(
      'internal',
      `${SQLITE_NATIVE_BINDING_ENV} names ${file}, which does not exist. Delete the cache folder ${path.dirname(file)} and run \`npm start\` again, or unset ${SQLITE_NATIVE_BINDING_ENV} to use better-sqlite3's own build.`,
    );
  }
  return file;
}

/** The running runtime as a person would name it: "Electron 45.5.0" or "Node v20.20.2". */
function runtimeName(): string {
  const electron = (process.versions as Record<string, string | undefined>).electron;
  return electron ? `Electron ${electron}` : `Node ${process.version}`;
}

/**
 * Turns Node's "compiled against a different Node.js version using NODE_MODULE_VERSION X …
 * requires NODE_MODULE_VERSION Y" into a message naming the build that was loaded and the
 * runtime it needs; returns null for any other error.
 */
export function explainAbiMismatch(error: unknown, nativeBinding: string | object | undefined): ReverieError | null {
  const message = error instanceof Error ? error.message : String(error);
  if (!message.includes('NODE_MODULE_VERSION')) return null;
  const versions = [...message.matchAll(/NODE_MODULE_VERSION (\d+)/g)].map((m) => m[1]);
  const builtFor = versions[0] ?? 'another ABI';
  const needs = versions[1] ?? process.versions.modules;
  const runtime = runtimeName();
  const underElectron = runtime.startsWith('Electron');
  const loaded =
    typeof nativeBinding === 'string'
      ? `the better-sqlite3 build ${nativeBinding} (from ${SQLITE_NATIVE_BINDING_ENV})`
      : "better-sqlite3's own build in node_modules/better-sqlite3/build";
  const todo =
    typeof nativeBinding === 'string'
      ? underElectron
        ? `Delete the cache folder ${path.dirname(nativeBinding)} and run \`npm start\` again.`
        : `Unset ${SQLITE_NATIVE_BINDING_ENV}: it is meant for Electron only; the CLI and tests use better-sqlite3's own build.`
      : underElectron
        ? `Start the app with \`npm start\`, which prepares an Electron build of better-sqlite3 and sets ${SQLITE_NATIVE_BINDING_ENV}.`
        : 'Run `npm rebuild better-sqlite3` with this Node to rebuild it.';
  return new ReverieError('internal', `Could not load ${loaded}: it was built for NODE_MODULE_VERSION ${builtFor}, but ${runtime} needs NODE_MODULE_VERSION ${needs}. ${todo}`);
}
