/** What local agents call (memory, context, intents) and how the person manages them. */
import { z } from 'zod';
import { AccessLogEntry, AgentInfo, AgentName, AgentScope, BootstrapFile, ConnectedFile, EditProposal, EntryChange, EntryRef, Intent, MatchedEntry, MemoryGetOutput, MemoryStoreKind, RecentEntry, SessionExcerpt } from '../records/agentRecords.js';
import { agentTools, toolIds } from '../tools.js';
import { WorkspacePath } from '../vocabulary.js';
import type { OperationSpec } from './spec.js';

/** Tools `reverie agents connect` can configure: those the registry says where their MCP settings go. */
export const ConnectableTool = z.enum(toolIds(agentTools().filter((t) => t.mcpConfig !== null)));
export type ConnectableTool = z.infer<typeof ConnectableTool>;

const EntryText = z.string().trim().min(1, 'text must not be empty').max(4000, 'text is longer than 4,000 characters');
const ProjectKey = z.string().min(1).max(200);

export const agentOperations = {
  'memory.get': {
    access: 'read',
    summary: 'Lines of one workspace memory file (no paths outside the workspace, no symlinks).',
    input: z
      .object({
        path: WorkspacePath,
        from: z.number().int().min(1).default(1),
        lines: z.number().int().min(1).max(2000).default(200),
      })
      .strict(),
    output: MemoryGetOutput,
  },
  'sessions.get': {
    access: 'read',
    summary: 'A bounded, redacted excerpt of an ingested transcript (for a `sessions` search hit).',
    input: z
      .object({
        sessionId: z.string().min(1).max(512),
        fromLine: z.number().int().min(1).default(1),
        lines: z.number().int().min(1).max(500).default(100),
      })
      .strict(),
    output: SessionExcerpt,
  },
  'memory.store': {
    access: 'write',
    summary: "Append a note to today's daily note (memory/YYYY-MM-DD.md), de-duplicated; never edits MEMORY.md or USER.md.",
    input: z
      .object({
        text: z.string().trim().min(1, 'text must not be empty').max(4000, 'text is longer than 4,000 characters'),
        kind: MemoryStoreKind.default('note'),
        project: ProjectKey.optional(),
        /**
         * How much it matters (1-7), written as an `<!-- importance -->` marker marked as set by this
         * agent: search and dreaming ignore it until the person confirms the line (see README).
         */
        importance: z.number().int().min(1).max(7).optional(),
        /** Phrases that should bring it up, marked as set by this agent: never injected until the person confirms it. */
        triggers: z.array(z.string().trim().min(2).max(80).regex(/^[^<>,;|]+$/, 'a trigger may not contain < > , ; or |')).min(1).max(5).optional(),
      })
      .strict(),
    output: z.object({
      path: z.string(),
      line: z.number().int(),
      /** The entry's ref for memory_update / memory_forget. */
      ref: z.string(),
      stored: z.boolean(),
      /** Set when the same note (normalised) was stored recently: nothing was appended. */
      duplicateOf: z.object({ path: z.string(), line: z.number().int() }).nullable(),
    }),
  },
  'memory.update': {
    access: 'write',
    summary:
      "Correct an entry: an agent's line is replaced by the new text (its history kept); for a line the person wrote, a proposal the person reviews in the window (their line is never rewritten).",
    input: z.object({ ref: EntryRef, text: EntryText }).strict(),
    output: z.object({
      outcome: z.enum(['updated', 'proposed']),
      path: z.string(),
      line: z.number().int(),
      /** The entry's new ref (updated), or the unchanged one (proposed). */
      ref: z.string(),
      proposalId: z.string().nullable(),
    }),
  },
  'memory.forget': {
    access: 'write',
    summary: "Remove an entry this agent wrote from its note (its history kept); the person's lines and other agents' are refused.",
    input: z.object({ ref: EntryRef }).strict(),
    output: z.object({ path: z.string(), line: z.number().int(), text: z.string() }),
  },
  'memory.recent': {
    access: 'read',
    summary: "The latest entries of the daily notes, newest first, and what changed since this agent's last look (edits, curated files).",
    input: z
      .object({
        days: z.number().int().min(1).max(90).default(7),
        project: ProjectKey.optional(),
        limit: z.number().int().min(1).max(200).default(50),
      })
      .strict(),
    output: z.object({
      entries: z.array(RecentEntry),
      /** When this agent last asked (null: first time); changes are those after it, or within `days`. */
      since: z.string().nullable(),
      changes: z.array(EntryChange),
      /** Workspace files modified since then (MEMORY.md, USER.md, DREAMS.md, notes). */
      changedFiles: z.array(z.object({ path: z.string(), modifiedAt: z.string() })),
    }),
  },
  'agents.proposals': {
    access: 'read',
    summary: "Agents' proposed corrections of the person's lines, open ones first.",
    input: z.object({ includeDecided: z.boolean().default(false) }).strict(),
    output: z.object({ proposals: z.array(EditProposal) }),
  },
  'agents.decideProposal': {
    access: 'write',
    summary: "Accept (the line is rewritten, with a pre-image) or reject an agent's proposed correction.",
    input: z.object({ id: z.string().min(1).max(200), decision: z.enum(['accept', 'reject']) }).strict(),
    output: EditProposal,
  },
  'agents.connect': {
    access: 'write',
    summary: "Connect an agent tool: create its token and write its own configuration (MCP server, hooks), every other byte kept, each file backed up first.",
    input: z
      .object({
        tool: ConnectableTool,
        /** Claude Code only: `project` writes `.mcp.json` in `projectDir` instead of `~/.claude.json`. */
        scope: z.enum(['user', 'project']).default('user'),
        projectDir: z.string().min(1).max(4096).optional(),
        /** The token may also write (memory_store, memory_update, memory_forget). */
        write: z.boolean().default(true),
        dryRun: z.boolean().default(false),
      })
      .strict(),
    output: z.object({ tool: z.string(), agent: z.string(), dryRun: z.boolean(), files: z.array(ConnectedFile), notes: z.array(z.string()) }),
  },
  'agents.disconnect': {
    access: 'write',
    summary: "Disconnect an agent tool: restore its files' exact previous bytes when unchanged since connect, else remove exactly Reverie's entries; revoke its token.",
    input: z
      .object({
        tool: ConnectableTool,
        scope: z.enum(['user', 'project']).default('user'),
        projectDir: z.string().min(1).max(4096).optional(),
        dryRun: z.boolean().default(false),
      })
      .strict(),
    output: z.object({ tool: z.string(), dryRun: z.boolean(), files: z.array(ConnectedFile), revoked: z.boolean() }),
  },
  'context.bootstrap': {
    access: 'read',
    summary: "What an agent should start with: active USER.md directives and MEMORY.md entries, within a budget; plus a project's entries.",
    input: z
      .object({
        budget: z.number().int().min(1000).max(200_000).default(24_000),
        project: z.string().min(1).max(200).optional(),
      })
      .strict(),
    output: z.object({ text: z.string(), files: z.array(BootstrapFile), totalChars: z.number().int(), budget: z.number().int(), truncated: z.boolean() }),
  },
  'context.match': {
    access: 'read',
    summary: 'Curated entries whose trigger phrases match a message strongly, and armed standing intents that match (no model call).',
    input: z
      .object({
        message: z.string().min(1).max(20_000, 'message is longer than 20,000 characters'),
        project: z.string().min(1).max(200).optional(),
      })
      .strict(),
    output: z.object({ entries: z.array(MatchedEntry), intents: z.array(Intent) }),
  },
  'intents.create': {
    access: 'write',
    summary: 'A standing intent: remember to bring something up when a matching message comes.',
    input: z
      .object({
        description: z.string().trim().min(1).max(500),
        keywords: z.array(z.string().trim().min(1).max(80)).min(1).max(20),
        project: z.string().min(1).max(200).optional(),
        expiresInDays: z.number().int().min(1).max(365).default(90),
        fireBudget: z.number().int().min(1).max(100).default(3),
        cooldownHours: z.number().min(0).max(720).default(24),
      })
      .strict(),
    output: Intent,
  },
  'intents.list': {
    access: 'read',
    summary: 'Standing intents, armed ones first.',
    input: z.object({ includeInactive: z.boolean().default(false) }).strict(),
    output: z.object({ intents: z.array(Intent) }),
  },
  'intents.cancel': {
    access: 'write',
    summary: 'Cancel a standing intent.',
    input: z.object({ id: z.string().min(1).max(200) }).strict(),
    output: Intent,
  },
  'agents.list': {
    access: 'read',
    summary: 'Agents with tokens, their scopes and last use, and the agent socket.',
    input: z.object({}).strict(),
    output: z.object({
      agents: z.array(AgentInfo),
      socket: z.object({ path: z.string(), listening: z.boolean() }),
      /** How an agent starts `reverie mcp` for this workspace on this machine (for setup snippets). */
      mcpLaunch: z.object({ command: z.string(), args: z.array(z.string()) }),
    }),
  },
  'agents.add': {
    access: 'write',
    summary: 'Create an agent and its token (shown once; stored hashed).',
    input: z.object({ name: AgentName, write: z.boolean().default(false) }).strict(),
    output: z.object({ agentId: z.string(), name: z.string(), scopes: z.array(AgentScope), token: z.string() }),
  },
  'agents.revoke': {
    access: 'write',
    summary: "Revoke an agent's token; its calls are refused from then on.",
    input: z.object({ name: AgentName }).strict(),
    output: AgentInfo,
  },
  'agents.log': {
    access: 'read',
    summary: 'The access log: every agent call (method, query or path, result count, time), newest first.',
    input: z.object({ agent: AgentName.optional(), limit: z.number().int().min(1).max(2000).default(200) }).strict(),
    output: z.object({ entries: z.array(AccessLogEntry) }),
  },
} as const satisfies Record<string, OperationSpec>;
