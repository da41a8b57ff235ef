import os from 'node:os';
import path from 'node:path';
import { detectClaudeCode } from './detectClaudeCode.js';
import { detectCodex } from './detectCodex.js';
import { detectHermes } from './detectHermes.js';
import { IMPORT_TOOLS, type DetectedSource, type ImportSourceSpec, type ImportTool } from './types.js';

export interface DetectOptions {
  env?: NodeJS.ProcessEnv;
  userHome?: string;
  platform?: NodeJS.Platform;
  /** Offer Claude Code's `CLAUDE.md` (the person's own instructions); default true. */
  includeClaudeMd?: boolean;
}

/** Where each tool keeps its memory when no home is given. */
export function defaultImportHome(tool: ImportTool, { env = process.env, userHome = os.homedir(), platform = process.platform }: DetectOptions = {}): string {
  switch (tool) {
    case 'codex':
      return env.CODEX_HOME || path.join(userHome, '.codex');
    case 'claude-code':
      return path.join(userHome, '.claude');
    case 'hermes':
      if (env.HERMES_HOME) return env.HERMES_HOME;
      if (platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'hermes');
      return path.join(userHome, '.hermes');
  }
}

/** Detects one source; a missing home gives an empty result with a note, never an error. */
export function detectImportSource(spec: ImportSourceSpec, options: DetectOptions = {}): DetectedSource {
  const home = path.resolve(spec.home ?? defaultImportHome(spec.tool, options));
  switch (spec.tool) {
    case 'codex':
      return detectCodex(home);
    case 'claude-code':
      return detectClaudeCode(home, { includeClaudeMd: options.includeClaudeMd ?? true, userHome: options.userHome ?? os.homedir() });
    case 'hermes':
      return detectHermes(home);
  }
}

/** Detects the given sources, or every known tool at its default home. */
export function detectImportSources(specs: readonly ImportSourceSpec[] = IMPORT_TOOLS.map((tool) => ({ tool })), options: DetectOptions = {}): DetectedSource[] {
  return specs.map((spec) => detectImportSource(spec, options));
}
