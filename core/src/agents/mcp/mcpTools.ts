import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { operations, type OperationName, type OperationOutput } from '../../contract/index.js';
import { bootstrapText, contextMatchText, intentListText, intentText, memoryGetText, searchText, sessionExcerptText, storeText } from './toolText.js';

/** One MCP tool: the agent method it forwards to under the same name, and how its answer reads. */
export interface McpToolSpec {
  name: string;
  method: OperationName;
  title: string;
  description: string;
  inputSchema: Record<string, z.ZodType>;
  /** Hints; the title is the tool's `title`. */
  annotations: Omit<ToolAnnotations, 'title'>;
  text(output: unknown): string;
  /** The JSON answer for clients that read structured content (default: the operation's output). */
  structured?(output: unknown): Record<string, unknown>;
}

// Field schemas come from the contract itself, so the tools accept exactly what the operations do.
const search = operations['memory.search'].input.shape;
const get = operations['memory.get'].input.shape;
const session = operations['sessions.get'].input.shape;
const store = operations['memory.store'].input.shape;
const bootstrap = operations['context.bootstrap'].input.shape;
const match = operations['context.match'].input.shape;
const create = operations['intents.create'].input.shape;
const list = operations['intents.list'].input.shape;
const cancel = operations['intents.cancel'].input.shape;

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
/** Intents change Reverie's own records only, never the person's Markdown. */
const INTENT_WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const projectField = (schema: z.ZodType) => schema.describe('Project key (as in <!-- project: KEY --> annotations) whose entries are boosted or included.');

export const MCP_TOOLS: McpToolSpec[] = [
  {
    name: 'memory_search',
    method: 'memory.search',
    title: 'Search memory',
    description:
      "Search the person's memory (Markdown notes, daily notes, and ingested agent transcripts) by keywords and meaning. Returns the best passages with path, line range, score and provenance (origin), each framed as untrusted data. Use memory_get to read more around a hit, sessions_get for a `sessions` hit.",
    inputSchema: {
      query: search.query.describe('What to look for, in words (a question or keywords).'),
      limit: search.limit.describe('Most results to return (1-100, default 10).'),
      sources: search.sources.describe('Which kinds to search: memory (notes), dreams, sessions (agent transcripts). Default memory and sessions.'),
      project: projectField(search.project),
    },
    annotations: { ...READ },
    text: (o) => searchText(o as OperationOutput<'memory.search'>),
  },
  {
    name: 'memory_get',
    method: 'memory.get',
    title: 'Read a memory file',
    description:
      'Read lines of one memory file by its workspace-relative path (e.g. MEMORY.md or memory/2026-04-05.md, as returned by memory_search). Paths outside the workspace, absolute paths and symlinks are refused. The text is framed as untrusted data.',
    inputSchema: {
      path: get.path.describe('Workspace-relative path of a memory file, e.g. memory/2026-04-05.md.'),
      from: get.from.describe('First line to return, 1-based (default 1).'),
      lines: get.lines.describe('How many lines (1-2000, default 200).'),
    },
    annotations: { ...READ },
    text: (o) => memoryGetText(o as OperationOutput<'memory.get'>),
  },
  {
    name: 'sessions_get',
    method: 'sessions.get',
    title: 'Read a transcript excerpt',
    description:
      'Read a bounded, redacted excerpt of an ingested agent transcript (Codex, Claude Code, OpenClaw), for a memory_search hit whose source is `sessions`. Each line is framed as untrusted data.',
    inputSchema: {
      sessionId: session.sessionId.describe('The session id of the transcript (from the search hit).'),
      fromLine: session.fromLine.describe('First transcript line to return, 1-based (default 1).'),
      lines: session.lines.describe('How many lines (1-500, default 100).'),
    },
    annotations: { ...READ },
    text: (o) => sessionExcerptText(o as OperationOutput<'sessions.get'>),
  },
  {
    name: 'context_bootstrap',
    method: 'context.bootstrap',
    title: 'Starting context',
    description:
      "The context to start a task with: the person's active USER.md directives and MEMORY.md entries (plus a project's entries when `project` is given), truncated to a character budget, framed as untrusted data. Call once at the start of a session.",
    inputSchema: {
      budget: bootstrap.budget.describe('Character budget for the whole answer (1,000-200,000, default 24,000).'),
      project: projectField(bootstrap.project),
    },
    annotations: { ...READ },
    text: (o) => bootstrapText(o as OperationOutput<'context.bootstrap'>),
    structured: (o) => {
      const { files, totalChars, budget, truncated } = o as OperationOutput<'context.bootstrap'>;
      return { files, totalChars, budget, truncated };
    },
  },
  {
    name: 'context_match',
    method: 'context.match',
    title: 'Memory relevant to a message',
    description:
      "Given the person's latest message, return at most 3 curated MEMORY.md/USER.md entries whose trigger phrases match it strongly, and at most 3 standing intents that fire on it. Cheap (no model call): call it on each new message.",
    inputSchema: {
      message: match.message.describe("The person's message (or the task at hand)."),
      project: projectField(match.project),
    },
    annotations: { ...READ },
    text: (o) => contextMatchText(o as OperationOutput<'context.match'>),
  },
  {
    name: 'intent_create',
    method: 'intents.create',
    title: 'Create a standing intent',
    description:
      'Remember to bring something up later: a standing intent fires (through context_match) when a message contains its trigger keywords, at most `fireBudget` times, with a cooldown, until it expires.',
    inputSchema: {
      description: create.description.describe('What to bring up when it fires, e.g. "Remind about renewing the TLS certificate".'),
      keywords: create.keywords.describe('Trigger keywords (1-20); a message mentioning them fires the intent.'),
      project: create.project.describe('Only fire for this project key.'),
      expiresInDays: create.expiresInDays.describe('Days until it expires (1-365, default 90).'),
      fireBudget: create.fireBudget.describe('Most times it may fire (1-100, default 3).'),
      cooldownHours: create.cooldownHours.describe('Hours between two firings (0-720, default 24).'),
    },
    annotations: { ...INTENT_WRITE },
    text: (o) => intentText('Created', o as OperationOutput<'intents.create'>),
  },
  {
    name: 'intent_list',
    method: 'intents.list',
    title: 'List standing intents',
    description: 'List standing intents, armed ones first, with their status, keywords, firings and expiry.',
    inputSchema: {
      includeInactive: list.includeInactive.describe('Also list expired, exhausted and cancelled intents (default false).'),
    },
    annotations: { ...READ },
    text: (o) => intentListText(o as OperationOutput<'intents.list'>),
  },
  {
    name: 'intent_cancel',
    method: 'intents.cancel',
    title: 'Cancel a standing intent',
    description: 'Cancel a standing intent by its id (from intent_list or intent_create) so it never fires again.',
    inputSchema: {
      id: cancel.id.describe('The intent id, e.g. intent:1a2b3c.'),
    },
    annotations: { ...INTENT_WRITE, idempotentHint: true },
    text: (o) => intentText('Cancelled', o as OperationOutput<'intents.cancel'>),
  },
  {
    name: 'memory_store',
    method: 'memory.store',
    title: 'Store a note',
    description:
      "Append a short note, fact or preference to today's daily note (memory/YYYY-MM-DD.md), recorded as written by this agent. A note identical to one stored recently is not stored twice. Never edits MEMORY.md or USER.md.",
    inputSchema: {
      text: store.text.describe('The note, one self-contained statement (up to 4,000 characters).'),
      kind: store.kind.describe('note (default), fact or preference.'),
      project: projectField(store.project),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    text: (o) => storeText(o as OperationOutput<'memory.store'>),
  },
];
