// Types for bundleEngineCli.mjs (plain ESM: build.mjs runs it without a build step).

/** The bundled source entry, relative to the repository root. */
export declare const ENGINE_CLI_ENTRY: string;
/** Where the bundle is written, relative to the output root. */
export declare const ENGINE_CLI_DIR: string;
/** Writes the bundle under `outRoot` (default: the repository root); returns its entry file and the sources it holds. */
export declare function bundleEngineCli(outRoot?: string): Promise<{ entry: string; inputs: string[] }>;
