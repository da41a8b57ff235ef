import { WORKSPACE_SOURCE, type SourceTool } from '../contract/index.js';
import { importedMemoryOf } from '../workspace/layout.js';

/** Which tool's memory a workspace path holds: `memory/imports/<tool>/…`, the workspace otherwise. */
export function sourceToolOf(path: string): SourceTool {
  return importedMemoryOf(path)?.tool ?? WORKSPACE_SOURCE;
}
