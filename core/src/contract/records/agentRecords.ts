/**
 * Local agents' records as the contract carries them: agent identities and scopes, the
 * access log, standing intents, and the answers of the agent-facing operations. zod only
 * (the renderer imports this through the contract).
 */
import { z } from 'zod';
import { OriginClass, TranscriptTool } from '../vocabulary.js';


export const AgentScope = z.enum(['read', 'write']);
export type AgentScope = z.infer<typeof AgentScope>;

/** An agent name: what a person recognises in the access log (`claude-code`, `codex-work`). */
export const AgentName = z
  .string()
  .min(1, 'name must not be empty')
  .max(64, 'name is longer than 64 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'name may use letters, digits, ".", "_" and "-" (starting with a letter or digit)');

export const AgentInfo = z.object({
  /** `agent:<id>` */
  id: z.string(),
  name: z.string(),
  scopes: z.array(AgentScope),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  calls: z.number().int(),
});
export type AgentInfo = z.infer<typeof AgentInfo>;

export const AccessLogEntry = z.object({
  at: z.string(),
  agent: z.string(),
  method: z.string(),
  /** The query, path or session asked for (shortened). */
  detail: z.string().nullable(),
  results: z.number().int().nullable(),
  ok: z.boolean(),
  error: z.string().nullable(),
  durationMs: z.number(),
  transport: z.enum(['socket', 'mcp']),
});
export type AccessLogEntry = z.infer<typeof AccessLogEntry>;

export const MemoryStoreKind = z.enum(['note', 'fact', 'preference']);

export const Intent = z.object({
  /** `intent:<id>` */
  id: z.string(),
  description: z.string(),
  keywords: z.array(z.string()),
  project: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  fireBudget: z.number().int(),
  fired: z.number().int(),
  cooldownHours: z.number(),
  lastFiredAt: z.string().nullable(),
  status: z.enum(['armed', 'cooling-down', 'exhausted', 'expired', 'cancelled']),
});
export type Intent = z.infer<typeof Intent>;

export const MatchedEntry = z.object({
  path: z.string(),
  line: z.number().int(),
  text: z.string(),
  triggers: z.array(z.string()),
  score: z.number(),
  origin: OriginClass,
});
export type MatchedEntry = z.infer<typeof MatchedEntry>;

export const BootstrapFile = z.object({ path: z.string(), chars: z.number().int(), included: z.number().int(), truncated: z.boolean() });

export const MemoryGetOutput = z.object({
  path: z.string(),
  /** 1-based first line returned. */
  from: z.number().int(),
  lines: z.number().int(),
  totalLines: z.number().int(),
  text: z.string(),
  origin: OriginClass,
});

export const SessionExcerpt = z.object({
  sessionId: z.string(),
  tool: TranscriptTool,
  sessionKind: z.enum(['interactive', 'cron', 'heartbeat', 'subagent', 'unknown']),
  path: z.string(),
  from: z.number().int(),
  totalLines: z.number().int(),
  lines: z.array(z.object({ line: z.number().int(), role: z.enum(['user', 'assistant']), origin: OriginClass, timestamp: z.string().nullable(), text: z.string() })),
});

/**
 * Names one entry (one line) of a workspace Markdown file as an agent saw it:
 * `memory/2026-04-05.md#L7@3f9a0c12` — the path, the line and the first 8 hex of that line's
 * hash. An edit names what it read, so two agents editing the same entry cannot both win.
 */
export const EntryRef = z
  .string()
  .min(1, 'ref must not be empty')
  .max(4200)
  .regex(/^[^#\0]+#L[1-9]\d*@[0-9a-f]{8}$/, 'ref must look like memory/2026-04-05.md#L7@3f9a0c12 (as memory_store, memory_recent and memory_update return it)');

export const RecentEntry = z.object({
  ref: z.string(),
  path: z.string(),
  line: z.number().int(),
  text: z.string(),
  origin: OriginClass,
  /** The agent that wrote it, when an agent did. */
  agent: z.string().nullable(),
  project: z.string().nullable(),
});
export type RecentEntry = z.infer<typeof RecentEntry>;

/** What happened to an entry: agents' edits, and the person's decisions on proposals. */
export const EntryChange = z.object({
  at: z.string(),
  agent: z.string().nullable(),
  action: z.enum(['updated', 'forgotten', 'proposed', 'accepted', 'rejected']),
  path: z.string(),
  line: z.number().int(),
  before: z.string(),
  after: z.string().nullable(),
});
export type EntryChange = z.infer<typeof EntryChange>;

/** An agent's correction of a line the person wrote: never applied until the person accepts it in the window. */
export const EditProposal = z.object({
  /** `proposal:<id>` */
  id: z.string(),
  agent: z.string(),
  path: z.string(),
  line: z.number().int(),
  before: z.string(),
  after: z.string(),
  createdAt: z.string(),
  status: z.enum(['open', 'accepted', 'rejected', 'stale']),
  decidedAt: z.string().nullable(),
  /** Why a proposal could not be applied (the line changed meanwhile). */
  note: z.string().nullable(),
});
export type EditProposal = z.infer<typeof EditProposal>;

/** One configuration file `reverie agents connect` writes (or would write, with --dry-run). */
export const ConnectedFile = z.object({
  path: z.string(),
  action: z.enum(['created', 'changed', 'unchanged', 'restored', 'removed', 'missing']),
  /** The copy of the file taken before it was changed; null when nothing was changed or it did not exist. */
  backup: z.string().nullable(),
  /** A unified diff of the change (empty when unchanged). */
  diff: z.string(),
});
export type ConnectedFile = z.infer<typeof ConnectedFile>;
