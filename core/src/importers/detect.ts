import os from 'node:os';
import path from 'node:path';
import { agentTool, importTools, type ImportFormat } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import { defaultToolHome, type ToolHomeOptions } from '../platform/toolHome.js';
import { detectClaudeCode } from './detectClaudeCode.js';
import { detectCodex } from './detectCodex.js';
import { detectHermes } from './detectHermes.js';
import type { DetectedSource, ImportSourceSpec, ImportTool } from './types.js';

export interface DetectOptions extends ToolHomeOptions {
  /** Offer Claude Code's `CLAUDE.md` (the person's own instructions); default true. */
  includeClaudeMd?: boolean;
}

/** How each import format finds a tool's memory in its home (the tool's id goes into what it reports). */
const DETECTORS: Readonly<Record<ImportFormat, (tool: ImportTool, home: string, options: DetectOptions) => DetectedSource>> = {
  'codex-memories': (tool, home) => detectCodex(tool, home),
  'claude-code-projects': (tool, home, options) => detectClaudeCode(tool, home, { includeClaudeMd: options.includeClaudeMd ?? true, userHome: options.userHome ?? os.homedir() }),
  'hermes-memories': (tool, home) => detectHermes(tool, home),
};

function importFormatOf(tool: ImportTool): ImportFormat {
  const format = agentTool(tool)?.imports;
  if (!format) throw new ReverieError('invalid-input', `Reverie cannot import memory from "${tool}".`);
  return format;
}

/** Where a tool keeps its memory when no home is given. */
export function defaultImportHome(tool: ImportTool, options: DetectOptions = {}): string {
  const spec = agentTool(tool);
  if (!spec) throw new ReverieError('invalid-input', `Unknown agent tool "${tool}".`);
  return defaultToolHome(spec, options);
}

/** Detects one source; a missing home gives an empty result with a note, never an error. */
export function detectImportSource(spec: ImportSourceSpec, options: DetectOptions = {}): DetectedSource {
  const home = path.resolve(spec.home ?? defaultImportHome(spec.tool, options));
  return DETECTORS[importFormatOf(spec.tool)](spec.tool, home, options);
}

/** Every tool Reverie imports from, at its default home. */
export function allImportSources(): ImportSourceSpec[] {
  return importTools().map((tool) => ({ tool: tool.id }));
}

/** Detects the given sources, or every known tool at its default home. */
export function detectImportSources(specs: readonly ImportSourceSpec[] = allImportSources(), options: DetectOptions = {}): DetectedSource[] {
  return specs.map((spec) => detectImportSource(spec, options));
}
