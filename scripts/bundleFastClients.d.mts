// Types for bundleFastClients.mjs (plain ESM: build.mjs runs it without a build step).

/** [source entry, bundle path] pairs, both relative to the repository root. */
export declare const FAST_CLIENTS: ReadonlyArray<readonly [string, string]>;
/** Writes every bundle and its `.inputs.json` under `outRoot` (default: the repository root); returns the bundles' paths. */
export declare function bundleFastClients(outRoot?: string): Promise<string[]>;
