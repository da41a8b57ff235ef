// Types for electronNative.mjs (plain ESM so `npm start` runs it without a build step).

export declare const SQLITE_NATIVE_BINDING_ENV: 'REVERIE_SQLITE_NATIVE_BINDING';
export declare const ELECTRON_HEADERS_URL: string;
export declare const NO_ELECTRON_BINARY: string;

export interface ElectronSqliteCacheParts {
  root: string;
  betterSqliteVersion: string;
  electronVersion: string;
  platform: string;
  arch: string;
}

export declare function electronCacheRoot(root: string): string;
export declare function electronSqliteCacheDir(parts: ElectronSqliteCacheParts): string;
export declare function electronSqliteCachePath(parts: ElectronSqliteCacheParts): string;
export declare function nodeGypCandidates(root: string, env?: NodeJS.ProcessEnv, execPath?: string): string[];

export interface PrepareElectronSqliteOptions {
  root: string;
  electronVersion: string;
  platform?: string;
  arch?: string;
  log?: (line: string) => void;
  /** node-gyp.js to run (default: node_modules/node-gyp, else npm's bundled one). */
  nodeGyp?: string;
  /** How long the Electron headers download may take (default 120 s). */
  headersTimeoutMs?: number;
  /** How long the compile may take (default 20 min). */
  buildTimeoutMs?: number;
}

/** The absolute path of a cached Electron-ABI better_sqlite3.node; builds it once. Rejects with a one-line Error. */
export declare function prepareElectronSqlite(options: PrepareElectronSqliteOptions): Promise<string>;

export declare function browserFallbackLine(reason: string): string;

export type StartPlan = { kind: 'electron'; env: { REVERIE_SQLITE_NATIVE_BINDING: string } } | { kind: 'browser'; reason: string };

export declare function planStart(options: { binary: string | null | undefined; prepare: () => Promise<string> | string }): Promise<StartPlan>;

/** The Electron binary: ELECTRON_OVERRIDE_DIST_PATH, else a normal install of the electron package, else null. */
export declare function findElectronBinary(root: string, env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): string | null;
/** That Electron's version, or null if unknown. */
export declare function installedElectronVersion(root: string, env?: NodeJS.ProcessEnv): string | null;
