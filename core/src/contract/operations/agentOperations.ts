/** What local agents call (memory, context, intents) and how the person manages them. */
import { z } from 'zod';
import { AccessLogEntry, AgentInfo, AgentName, AgentScope, BootstrapFile, Intent, MatchedEntry, MemoryGetOutput, MemoryStoreKind, SessionExcerpt } from '../records/agentRecords.js';
import { WorkspacePath } from '../vocabulary.js';
import type { OperationSpec } from './spec.js';

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
        project: z.string().min(1).max(200).optional(),
      })
      .strict(),
    output: z.object({
      path: z.string(),
      line: z.number().int(),
      stored: z.boolean(),
      /** Set when the same note (normalised) was stored recently: nothing was appended. */
      duplicateOf: z.object({ path: z.string(), line: z.number().int() }).nullable(),
    }),
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
