import type { SourceTool } from '../contract/index.js';
import { IMPORTS_DIR } from '../workspace/layout.js';

const TOOLS: readonly SourceTool[] = ['codex', 'claude-code', 'hermes'];

/** Which tool's memory a workspace path holds: `memory/imports/<tool>/…`, the workspace otherwise. */
export function sourceToolOf(path: string): SourceTool {
  if (!path.startsWith(`${IMPORTS_DIR}/`)) return 'workspace';
  const tool = path.slice(IMPORTS_DIR.length + 1).split('/')[0] as SourceTool;
  return TOOLS.includes(tool) ? tool : 'workspace';
}
