import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { operations, SearchResult, type OperationName, type OperationOutput } from '../../contract/index.js';
import { bootstrapText, contextMatchText, forgetText, intentListText, intentText, memoryGetText, recentText, searchText, sessionExcerptText, storeText, updateText } from './toolText.js';

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
  /** The shape of the structured answer (what `structured` returns, or the framed operation output). */
  output: z.ZodObject;
  /** Takes a `project` argument: filled from the client's repository when not given. */
  projectScoped?: boolean;
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
const update = operations['memory.update'].input.shape;
const forgetEntry = operations['memory.forget'].input.shape;
const recent = operations['memory.recent'].input.shape;

/** Answers carrying memory text come framed with the notice that it is data (agentMethods.ts). */
const framed = <T extends z.ZodObject>(schema: T) => schema.extend({ notice: z.string() });
const out = <N extends OperationName>(name: N) => operations[name].output as unknown as z.ZodObject;

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
      budget: search.budget.describe('Characters the snippets may use together (1-100000): each result shows its best lines, packed in rank order; results that do not fit are left out. Omit for whole results.'),
      project: projectField(search.project),
    },
    annotations: { ...READ },
    projectScoped: true,
    // Framing wraps each snippet in its reverie-memory block: longer than the contract's 700 characters.
    output: framed(operations['memory.search'].output.omit({ graph: true }).extend({ results: z.array(SearchResult.extend({ snippet: z.string() })) })),
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
    output: framed(operations['memory.get'].output),
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
    output: framed(operations['sessions.get'].output),
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
    projectScoped: true,
    output: operations['context.bootstrap'].output.omit({ text: true }),
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
    projectScoped: true,
    output: framed(operations['context.match'].output),
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
    output: out('intents.create'),
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
    output: out('intents.list'),
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
    output: out('intents.cancel'),
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
      importance: store.importance.describe('How much it matters, 1-7. Marked as set by you: it counts once the person confirms the note.'),
      triggers: store.triggers.describe('Up to 5 phrases that should bring it up. Marked as set by you: never injected until the person confirms the note.'),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    projectScoped: true,
    output: out('memory.store'),
    text: (o) => storeText(o as OperationOutput<'memory.store'>),
  },
  {
    name: 'memory_update',
    method: 'memory.update',
    title: 'Correct an entry',
    description:
      "Correct an entry by its ref (from memory_store, memory_recent or an earlier memory_update). A note an agent wrote is replaced by the new text, its history kept. A line the person wrote (and anything in MEMORY.md or USER.md) is never rewritten: it becomes a proposal the person reviews. A ref that is out of date (someone changed the entry since) is refused with a conflict: read it again and retry.",
    inputSchema: {
      ref: update.ref.describe('The entry, e.g. memory/2026-04-05.md#L7@3f9a0c12.'),
      text: update.text.describe('The corrected entry, one self-contained statement.'),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    output: out('memory.update'),
    text: (o) => updateText(o as OperationOutput<'memory.update'>),
  },
  {
    name: 'memory_forget',
    method: 'memory.forget',
    title: 'Forget one of your notes',
    description: "Remove a note this agent stored, by its ref (its history is kept). The person's lines and other agents' notes are refused.",
    inputSchema: { ref: forgetEntry.ref.describe('The note, e.g. memory/2026-04-05.md#L7@3f9a0c12.') },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    output: out('memory.forget'),
    text: (o) => forgetText(o as OperationOutput<'memory.forget'>),
  },
  {
    name: 'memory_recent',
    method: 'memory.recent',
    title: 'Recent entries and changes',
    description:
      "The latest entries of the daily notes, newest first, each with its ref, origin and writer; and what changed since you last asked (agents' edits, proposals and their outcome, modified curated files). Use it to orient at the start of a session.",
    inputSchema: {
      days: recent.days.describe('How many days back (1-90, default 7).'),
      project: projectField(recent.project),
      limit: recent.limit.describe('Most entries (1-200, default 50).'),
    },
    annotations: { ...READ },
    output: framed(operations['memory.recent'].output),
    text: (o) => recentText(o as OperationOutput<'memory.recent'>),
  },
];
