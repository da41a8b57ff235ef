import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { OperationOutput } from '../../contract/index.js';
import { localDay } from '../../platform/localDay.js';
import { UNTRUSTED_MEMORY_NOTICE } from '../framing.js';
import { RPC_ERRORS } from '../socket/rpcErrors.js';
import { AgentCallError, type AgentCaller } from './agentCaller.js';

export interface McpResourceSpec {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** The workspace file it reads now (daily notes move with the date). */
  path(now: number): string;
}

const DAY_MS = 86_400_000;
/** A resource read returns at most this many lines (memory.get's own limit). */
const MAX_LINES = 2000;

/** The memory files an agent may read as MCP resources (read scope; framed as data like every answer). */
export const MCP_RESOURCES: readonly McpResourceSpec[] = [
  { uri: 'reverie://memory/MEMORY.md', name: 'MEMORY.md', title: 'Curated memory', description: "The person's curated long-term memory.", mimeType: 'text/markdown', path: () => 'MEMORY.md' },
  { uri: 'reverie://memory/USER.md', name: 'USER.md', title: 'About the person', description: "The person's standing directives and preferences.", mimeType: 'text/markdown', path: () => 'USER.md' },
  { uri: 'reverie://memory/today', name: 'today', title: "Today's note", description: "Today's daily note (memory/YYYY-MM-DD.md, local date).", mimeType: 'text/markdown', path: (now) => `memory/${localDay(now)}.md` },
  { uri: 'reverie://memory/yesterday', name: 'yesterday', title: "Yesterday's note", description: "Yesterday's daily note.", mimeType: 'text/markdown', path: (now) => `memory/${localDay(now - DAY_MS)}.md` },
  { uri: 'reverie://memory/DREAMS.md', name: 'DREAMS.md', title: 'Dream diary', description: "Reverie's nightly curation diary.", mimeType: 'text/markdown', path: () => 'DREAMS.md' },
];

export async function readResource(caller: AgentCaller, uri: string, now = Date.now()): Promise<ReadResourceResult> {
  const spec = MCP_RESOURCES.find((r) => r.uri === uri);
  if (!spec) throw new McpError(ErrorCode.InvalidParams, `No resource ${uri}; resources/list names them.`);
  const file = spec.path(now);
  let text: string;
  try {
    const out = (await caller.call('memory.get', { path: file, lines: MAX_LINES })) as OperationOutput<'memory.get'>;
    text = `${UNTRUSTED_MEMORY_NOTICE}\n\n${out.text}`;
  } catch (error) {
    // A daily note that does not exist yet is an empty day, not an error.
    if (error instanceof AgentCallError && (error.code === RPC_ERRORS.notFound || /ENOENT|does not exist|no such file/i.test(error.message))) text = `${file} does not exist yet.`;
    else throw error;
  }
  return { contents: [{ uri, mimeType: spec.mimeType, text }] };
}
